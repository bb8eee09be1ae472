"""Combat drawn as arrows: attacker -> what it attacks, blocker -> the attacker it blocks.

An attacker whose target left combat gets a short dashed stub, "attacking nothing". In the
narrow board the players' strips are at the outer edges, so an attack on a player is a
short arrow towards the opponents labelled "attacking Bob" instead of a long one crossing
the opponents' cards.
"""

from __future__ import annotations

import math

from scenarios.presentation.board.layout import CARD_W, GAP_X, MARGIN, PAD, Rect, sides_between
from scenarios.presentation.board.measure import num, wrap
from scenarios.presentation.board.pieces import Drawing, text
from scenarios.presentation.board.words import _

PREFIX = "\x00"
"""Stands for the board's id prefix until the markup is complete (never in a text)."""
FONT_LABEL = 10.5     # .board-arrow-label (bold)

MARKERS = "".join(
    f'<marker id="{PREFIX}-{kind}" viewBox="0 0 10 10" refX="{ref}" refY="5" '
    f'markerWidth="{size}" markerHeight="{size}" markerUnits="userSpaceOnUse" orient="auto">'
    f'<path class="board-arrowhead board-arrowhead--{kind}" d="{d}"/></marker>'
    for kind, ref, size, d in (
        ("attack", 8, 13, "M0,0 L10,5 L0,10 L2.5,5 Z"),
        ("block", 8, 12, "M0,0 L10,5 L0,10 L2.5,5 Z"),
        ("nothing", 5, 13, "M1.5,1.5 L8.5,8.5 M8.5,1.5 L1.5,8.5"),
    ))


Port = tuple[float, float, float, float]
"""A point on a box's side and the outward normal there: x, y, nx, ny."""
Point = tuple[float, float]


def _controls(p: Port, q: Port) -> tuple[Point, Point, Point, Point]:
    x1, y1, nx1, ny1 = p
    x2, y2, nx2, ny2 = q
    k = max(24.0, min(90.0, math.hypot(x2 - x1, y2 - y1) * 0.4))
    return (x1, y1), (x1 + nx1 * k, y1 + ny1 * k), (x2 + nx2 * k, y2 + ny2 * k), (x2, y2)


def curve(p: Port, q: Port) -> str:
    """A curve leaving ``p`` and reaching ``q`` along their normals."""
    (x1, y1), (ax, ay), (bx, by), (x2, y2) = _controls(p, q)
    return (f"M{num(x1)},{num(y1)} C{num(ax)},{num(ay)} "
            f"{num(bx)},{num(by)} {num(x2)},{num(y2)}")


def _crosses(p: Port, q: Port, rects: list[Rect]) -> bool:
    """Whether the curve from ``p`` to ``q`` runs over one of ``rects``."""
    c = _controls(p, q)
    for step in range(1, 20):
        t = step / 20
        u = 1 - t
        x = u**3 * c[0][0] + 3 * u * u * t * c[1][0] + 3 * u * t * t * c[2][0] + t**3 * c[3][0]
        y = u**3 * c[0][1] + 3 * u * u * t * c[1][1] + 3 * u * t * t * c[2][1] + t**3 * c[3][1]
        if any(r.x + 4 < x < r.x + r.w - 4 and r.y + 4 < y < r.y + r.h - 4 for r in rects):
            return True
    return False


def _rounded(points: list[Point], radius: float = 10) -> str:
    """A polyline through ``points`` with its corners rounded."""
    out = [f"M{num(points[0][0])},{num(points[0][1])}"]
    for (x0, y0), (x1, y1), (x2, y2) in zip(points, points[1:], points[2:], strict=False):
        r = min(radius, math.hypot(x1 - x0, y1 - y0) / 2, math.hypot(x2 - x1, y2 - y1) / 2)
        a = _toward((x1, y1), (x0, y0), r)
        b = _toward((x1, y1), (x2, y2), r)
        out.append(f"L{num(a[0])},{num(a[1])} Q{num(x1)},{num(y1)} {num(b[0])},{num(b[1])}")
    out.append(f"L{num(points[-1][0])},{num(points[-1][1])}")
    return " ".join(out)


def _toward(p: Point, q: Point, r: float) -> Point:
    d = math.hypot(q[0] - p[0], q[1] - p[1]) or 1.0
    return p[0] + (q[0] - p[0]) * r / d, p[1] + (q[1] - p[1]) * r / d


def draw_combat(dr: Drawing, top_ids: set[str]) -> None:
    """The arrows, into ``dr.overlay`` (drawn over the cards)."""
    combat = dr.state.combat
    if combat is None:
        return
    links: list[tuple[str, str, str]] = []  # kind, from, to
    stubs: list[tuple[str, str, str]] = []  # kind, attacker, label
    for attacker, target in combat.attackers.items():
        if attacker not in dr.rects:
            continue
        if target is None:
            stubs.append(("nothing", attacker, _("attacking nothing")))
        elif target in dr.rects and not (dr.narrow and _is_player(dr, target)):
            links.append(("attack", attacker, target))
        else:
            stubs.append(("player" if target in dr.rects else "nothing", attacker,
                          _("attacking %(target)s") % {"target": dr.name(target)}))
        for blocker in combat.blockers.get(attacker, ()):
            if blocker in dr.rects:
                links.append(("block", blocker, attacker))
    # Spread the ends of the lines meeting on one side of a box, in the order of where
    # they come from, so that they don't cross.
    ports: dict[tuple[str, str], list[tuple[float, int, int]]] = {}
    ends: list[list[tuple[str, str]]] = []
    for i, (_kind, a, b) in enumerate(links):
        ra, rb = dr.rects[a], dr.rects[b]
        sa, sb = sides_between(ra, rb)
        ends.append([(a, sa), (b, sb)])
        ports.setdefault((a, sa), []).append((rb.cx if sa in ("top", "bottom") else rb.cy,
                                              i, 0))
        ports.setdefault((b, sb), []).append((ra.cx if sb in ("top", "bottom") else ra.cy,
                                              i, 1))
    stub_sides = []
    for j, (_kind, a, _label) in enumerate(stubs):
        side = "bottom" if a in top_ids else "top"
        stub_sides.append(side)
        ports.setdefault((a, side), []).append((dr.rects[a].cx, -1 - j, 0))
    fracs: dict[tuple[int, int], float] = {}
    for entries in ports.values():
        entries.sort()
        n = len(entries)
        for k, (_pos, i, end) in enumerate(entries):
            fracs[(i, end)] = 0.5 if n == 1 else 0.22 + 0.56 * k / (n - 1)
    lanes: dict[str, int] = {}
    cards = [r for oid, r in dr.rects.items() if oid in dr.state.objects]
    for i, (kind, _a, _b) in enumerate(links):
        (ka, sa), (kb, sb) = ends[i]
        p, q = dr.rects[ka].port(sa, fracs[(i, 0)]), dr.rects[kb].port(sb, fracs[(i, 1)])
        d = curve(p, q)
        others = [r for r in cards if r is not dr.rects[ka] and r is not dr.rects[kb]]
        if dr.narrow and _crosses(p, q, others):
            d = _detour(dr, ka, kb, p, q, lanes)
        dr.overlay.append(
            f'<g class="board-link board-link--{kind}"><path class="board-arrow-halo" '
            f'd="{d}"/><path class="board-arrow board-arrow--{kind}" d="{d}" '
            f'marker-end="url(#{PREFIX}-{kind})"/></g>')
    for j, (kind, a, label) in enumerate(stubs):
        _stub(dr, kind, dr.rects[a], stub_sides[j], fracs[(-1 - j, 0)], label)


def _detour(dr: Drawing, a: str, b: str, p: Port, q: Port, lanes: dict[str, int]) -> str:
    """In the narrow board, an arrow that would run over another card goes round it: out
    of the front card into the centre, along the board's edge, into the far card's side
    (the far card is the one further from the centre; two cards a row leave it an edge)."""
    mid = dr.plan_centre
    far_is_b = abs(dr.rects[b].cy - mid) >= abs(dr.rects[a].cy - mid)
    far, front = (dr.rects[b], p) if far_is_b else (dr.rects[a], q)
    left = far.cx < dr.width / 2
    n = lanes.get("left" if left else "right", 0)
    lanes["left" if left else "right"] = n + 1
    lane = MARGIN + PAD / 2 - 7 * (n % 3)
    lx = lane if left else dr.width - lane
    fx, fy, _nx, ny = front
    out = fy + ny * (16 + 8 * n)
    bx, by, _bnx, _bny = far.port("left" if left else "right", (0.5, 0.3, 0.7)[n % 3])
    points: list[Point] = [(fx, fy), (fx, out), (lx, out), (lx, by), (bx, by)]
    return _rounded(points if far_is_b else points[::-1])


def _is_player(dr: Drawing, oid: str) -> bool:
    return oid in dr.state.players or oid in dr.state.teams


def _stub(dr: Drawing, kind: str, rect: Rect, side: str, frac: float, label: str) -> None:
    """A short arrow out of ``rect`` towards the centre, with a label at its end."""
    x, y, nx, ny = rect.port(side, frac)
    ex, ey = x + nx * 40, y + ny * 40
    d = f"M{num(x)},{num(y)} L{num(ex)},{num(ey)}"
    arrow = "attack" if kind == "player" else "nothing"
    lines = wrap(label, CARD_W + GAP_X - 4, FONT_LABEL, 2, bold=True)
    if ny < 0:
        ys = [ey - 8 - 12.5 * (len(lines) - 1 - i) for i in range(len(lines))]
    else:
        ys = [ey + 16 + 12.5 * i for i in range(len(lines))]
    dr.overlay.append(
        f'<g class="board-link board-link--{kind}"><path class="board-arrow-halo" '
        f'd="{d}"/><path class="board-arrow board-arrow--{arrow}" d="{d}" '
        f'marker-end="url(#{PREFIX}-{arrow})"/>'
        + "".join(text(ex, ly, line, "board-arrow-label", "middle")
                  for ly, line in zip(ys, lines, strict=True)) + "</g>")
