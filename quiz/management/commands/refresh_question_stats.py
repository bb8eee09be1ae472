"""Compute afresh the statistics snapshots of the scenarios with many attempts."""

from __future__ import annotations

import dataclasses
from typing import Any

from django.core.management.base import BaseCommand
from django.db.models import Sum
from django.utils import timezone

from quiz import selectors
from quiz.models import QuestionStatsSnapshot, QuestionTally
from scenarios.models import Scenario


class Command(BaseCommand):
    help = (f"Store the per-question statistics of every scenario with more than "
            f"{selectors.LIVE_STATISTICS_LIMIT:,} attempts, which its statistics page then shows "
            f"(schedule it every few minutes; smaller scenarios are computed on each view).")

    def handle(self, *args: Any, **options: Any) -> None:
        large = (QuestionTally.objects.values("version__scenario")
                 .annotate(n=Sum("attempts")).filter(n__gt=selectors.LIVE_STATISTICS_LIMIT)
                 .order_by().values_list("version__scenario", "n"))
        stored = 0
        for scenario in Scenario.objects.filter(pk__in=[pk for pk, _ in large]):
            now = timezone.now()
            questions = selectors.question_stats(scenario)
            QuestionStatsSnapshot.objects.update_or_create(scenario=scenario, defaults={
                "computed_at": now, "attempts": sum(q.attempts for q in questions),
                "questions": [dataclasses.asdict(q) for q in questions]})
            stored += 1
        self.stdout.write(f"statistics: {stored} snapshots stored")
