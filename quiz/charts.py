"""Progress drawn on the server as SVG: accuracy by topic over the last weeks."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from django.db.models import Count, Q
from django.db.models.functions import TruncWeek
from django.utils.html import escape
from django.utils.translation import gettext as _

from quiz.models import Attempt
from scenarios.models import TOPIC_LABELS

WEEKS = 8
PALETTE = ["chart-1", "chart-2", "chart-3", "chart-4", "chart-5", "chart-6", "chart-7",
           "chart-8", "chart-9"]


def accuracy_chart(*, user: Any, now: datetime) -> dict[str, Any]:
    """A line per topic: share of right answers per week, the last eight weeks."""
    start = (now - timedelta(weeks=WEEKS - 1)).replace(hour=0, minute=0, second=0,
                                                       microsecond=0)
    start -= timedelta(days=start.weekday())
    rows = (Attempt.objects.filter(user=user, created_at__gte=start)
            .annotate(week=TruncWeek("created_at"))
            .values("week", "version__scenario__topic")
            .annotate(total=Count("id"), right=Count("id", filter=Q(correct=True))))
    weeks = [start + timedelta(weeks=i) for i in range(WEEKS)]
    series: dict[str, dict[int, float]] = {}
    for r in rows:
        week = r["week"]
        idx = min(range(WEEKS), key=lambda i: abs((weeks[i] - week).total_seconds()))
        series.setdefault(r["version__scenario__topic"], {})[idx] = r["right"] / r["total"]
    width, height, left, top, bottom = 640, 260, 44, 16, 36
    plot_w, plot_h = width - left - 16, height - top - bottom
    parts = [f'<svg class="progress-chart" viewBox="0 0 {width} {height}" role="img" '
             f'aria-labelledby="chart-title"><title id="chart-title">'
             f'{escape(_("Accuracy by topic, per week"))}</title>']
    for pct in (0, 50, 100):
        y = top + plot_h * (1 - pct / 100)
        parts.append(f'<line class="chart-grid" x1="{left}" x2="{width - 16}" y1="{y:.1f}" '
                     f'y2="{y:.1f}"/><text class="chart-label" x="{left - 6}" y="{y + 4:.1f}" '
                     f'text-anchor="end">{pct}%</text>')
    for i, week in enumerate(weeks):
        x = left + plot_w * i / (WEEKS - 1)
        parts.append(f'<text class="chart-label" x="{x:.1f}" y="{height - 12}" '
                     f'text-anchor="middle">{week:%d/%m}</text>')
    legend = []
    for n, (topic, points) in enumerate(sorted(series.items())):
        css = PALETTE[n % len(PALETTE)]
        coords = [(left + plot_w * i / (WEEKS - 1), top + plot_h * (1 - v))
                  for i, v in sorted(points.items())]
        if len(coords) > 1:
            path = " ".join(f"{x:.1f},{y:.1f}" for x, y in coords)
            parts.append(f'<polyline class="chart-line {css}" points="{path}"/>')
        for x, y in coords:
            parts.append(f'<circle class="chart-dot {css}" cx="{x:.1f}" cy="{y:.1f}" r="3.5"/>')
        legend.append((css, str(TOPIC_LABELS.get(topic, topic))))
    parts.append("</svg>")
    return {"svg": "".join(parts), "legend": legend, "empty": not series}


def streak_days(*, user: Any, now: datetime) -> int:
    """Consecutive days, up to today, with at least one answer."""
    days = set(Attempt.objects.filter(user=user, created_at__gte=now - timedelta(days=400))
               .dates("created_at", "day"))
    streak = 0
    day = now.date()
    if day not in days:
        day -= timedelta(days=1)
    while day in days:
        streak += 1
        day -= timedelta(days=1)
    return streak
