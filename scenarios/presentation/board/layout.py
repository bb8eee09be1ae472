"""Where everything goes on the board: two sides (the non-active players on top, the
active player at the bottom), each with its players' panels and permanents.

Two arrangements of the same pieces:

* **wide** (screens from a tablet up): each player's panel left of their cards, up to five
  cards a row, players of one side next to each other;
* **narrow** (phones): a player's panel is a strip across the board, two cards a row,
  players of one side one under the other, so that at 390 px the names and numbers are
  drawn at about their nominal size instead of a third of it.

Sizes are user units of the viewBox; the font sizes behind them mirror board.css.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from engine import GameState, Obj

CARD_W = 132
CARD_H = 88           # the least height of a card; long names and keywords make it taller
GAP_X = 16            # between cards in a row
GAP_Y = 36            # between rows (room for the pills and the tilt of tapped cards)
MEMBER_GAP = 32       # between the two players of a team
GROUP_GAP = 40        # between two players (or teams) on the same side
PANEL_W = 150
STRIP_H = 50          # the narrow layout's player strip
TAG_H, TAG_GAP = 24, 12
MARGIN = 14
PAD = 16              # inside a side's background, towards the centre
PAD_OUT = 26          # the same on the outer edge (pills stick out of the cards there)
CENTER = 100          # between the two sides: where combat arrows run
CENTER_QUIET = 28     # the same without attackers
MIN_W = 760
MAX_COLS, MAX_COLS_TEAM, NARROW_COLS = 5, 3, 2
NARROW_W = NARROW_COLS * CARD_W + (NARROW_COLS - 1) * GAP_X + 2 * (MARGIN + PAD)
TILT = 8.0            # degrees a tapped card is turned
PILL_H = 15

KIND_RANK = {"creature": 0, "planeswalker": 1, "battle": 2}


@dataclass(slots=True)
class Rect:
    x: float
    y: float
    w: float
    h: float
    tilt: float = 0.0

    @property
    def cx(self) -> float:
        return self.x + self.w / 2

    @property
    def cy(self) -> float:
        return self.y + self.h / 2

    def port(self, side: str, frac: float) -> tuple[float, float, float, float]:
        """A point on one side and the outward normal there: x, y, nx, ny."""
        if side == "top":
            x, y, nx, ny = self.x + self.w * frac, self.y, 0.0, -1.0
        elif side == "bottom":
            x, y, nx, ny = self.x + self.w * frac, self.y + self.h, 0.0, 1.0
        elif side == "left":
            x, y, nx, ny = self.x, self.y + self.h * frac, -1.0, 0.0
        else:
            x, y, nx, ny = self.x + self.w, self.y + self.h * frac, 1.0, 0.0
        if self.tilt:
            a = math.radians(self.tilt)
            c, s = math.cos(a), math.sin(a)
            dx, dy = x - self.cx, y - self.cy
            x, y = self.cx + dx * c - dy * s, self.cy + dx * s + dy * c
            nx, ny = nx * c - ny * s, nx * s + ny * c
        return x, y, nx, ny


def sides_between(a: Rect, b: Rect) -> tuple[str, str]:
    """The side of ``a`` facing ``b`` and the side of ``b`` facing ``a``."""
    if b.y >= a.y + a.h:
        return "bottom", "top"
    if b.y + b.h <= a.y:
        return "top", "bottom"
    return ("right", "left") if b.cx >= a.cx else ("left", "right")


@dataclass(slots=True)
class Member:
    """One player's permanents, in rows of ``cols``."""

    pid: str
    cards: list[Obj]
    cols: int

    @property
    def rows(self) -> int:
        return math.ceil(len(self.cards) / self.cols)

    @property
    def width(self) -> float:
        return self.cols * CARD_W + (self.cols - 1) * GAP_X

    def depth(self, card_h: float) -> float:
        return self.rows * card_h + max(0, self.rows - 1) * GAP_Y


@dataclass(slots=True)
class Group:
    """A player, or a Two-Headed Giant team and its two players."""

    gid: str
    team: bool
    members: list[Member]


@dataclass(slots=True)
class Plan:
    """Where each piece goes, for the drawing."""

    width: float = 0.0
    height: float = 0.0
    backgrounds: list[tuple[str, Rect]] = field(default_factory=list)
    panels: list[tuple[Group, Rect]] = field(default_factory=list)
    tags: list[tuple[Member, Rect]] = field(default_factory=list)
    """A team member's name tag: where it starts, and the width it may take."""
    cards: list[tuple[Obj, float, float, str]] = field(default_factory=list)
    """Each permanent: x, y, and its outer side (where its pills go)."""
    top_ids: set[str] = field(default_factory=set)
    centre: float = 0.0
    """The middle of the band between the two sides."""
    bottom_end: float = 0.0
    """Where the bottom side ends: the stack, the planes and the footer go below."""


def groups(state: GameState, narrow: bool) -> tuple[list[Group], list[Group]]:
    """(top, bottom): the groups of the non-active players and the active one's."""
    by_controller: dict[str, list[Obj]] = {pid: [] for pid in state.players}
    for o in state.objects.values():
        if o.zone == "battlefield" and o.controller in by_controller:
            by_controller[o.controller].append(o)

    fighting = _in_combat(state)

    def member(pid: str, players: int) -> Member:
        """``players``: how many players the group has (a team's share one side)."""
        cards = sorted(by_controller[pid], key=lambda o: (
            o.id not in fighting, min((KIND_RANK.get(t, 3) for t in o.types), default=3)))
        if narrow:  # a team's two players side by side, a column each
            most = max(1, NARROW_COLS // players)
        else:
            most = MAX_COLS_TEAM if players > 1 else MAX_COLS
        return Member(pid, cards, max(1, min(len(cards), most)))

    found: list[Group] = []
    placed: set[str] = set()
    for team in state.teams.values():
        members = [m for m in team.members if m in state.players and m not in placed]
        if members:
            placed.update(members)
            found.append(Group(team.id, True, [member(m, len(members)) for m in members]))
    for pid in state.players:
        if pid not in placed:
            found.append(Group(pid, False, [member(pid, 1)]))
    active = state.turn.active
    bottom = [g for g in found if any(m.pid == active for m in g.members)] or found[:1]
    top = [g for g in found if g not in bottom]
    return top, bottom


def _in_combat(state: GameState) -> set[str]:
    """Attackers, blockers and attacked permanents: placed first, nearest the centre,
    where their arrows are short and cross no other card."""
    combat = state.combat
    if combat is None:
        return set()
    ids = set(combat.attackers) | {t for t in combat.attackers.values() if t}
    for blockers in combat.blockers.values():
        ids.update(blockers)
    return ids


def _cards(plan: Plan, m: Member, x: float, edge: float, card_h: float, is_top: bool) -> None:
    """A member's cards from the row at ``edge`` (the side nearer the centre) outwards."""
    for i, o in enumerate(m.cards):
        row, col = divmod(i, m.cols)
        offset = row * (card_h + GAP_Y)
        y = edge - offset - card_h if is_top else edge + offset
        plan.cards.append((o, x + col * (CARD_W + GAP_X), y, "top" if is_top else "bottom"))
        if is_top:
            plan.top_ids.add(o.id)


# -- wide -----------------------------------------------------------------------------------

def _wide_group_width(g: Group) -> float:
    return (PANEL_W + GAP_X + sum(m.width for m in g.members)
            + MEMBER_GAP * (len(g.members) - 1))


def _wide_panel_h(g: Group, card_h: float, panel_h: dict[str, float]) -> float:
    tag = TAG_H + TAG_GAP if g.team else 0
    return max(tag + card_h, panel_h.get(g.gid, 0.0))


def _wide_depth(g: Group, card_h: float, panel_h: dict[str, float]) -> float:
    tag = TAG_H + TAG_GAP if g.team else 0
    cards = tag + max(m.depth(card_h) for m in g.members)
    return max(cards, _wide_panel_h(g, card_h, panel_h))


def plan_wide(state: GameState, card_h: float, panel_h: dict[str, float]) -> Plan:
    """The wide board. ``panel_h``: the height each player's panel needs for its lines."""
    top, bottom = groups(state, narrow=False)
    plan = Plan()

    def side_width(gs: list[Group]) -> float:
        return sum(_wide_group_width(g) for g in gs) + GROUP_GAP * max(0, len(gs) - 1)

    def side_depth(gs: list[Group]) -> float:
        return max((_wide_depth(g, card_h, panel_h) for g in gs), default=card_h)

    plan.width = max(MIN_W, side_width(top) + 2 * (MARGIN + PAD),
                     side_width(bottom) + 2 * (MARGIN + PAD))
    top_y = MARGIN
    top_edge = top_y + PAD_OUT + side_depth(top)   # the top side's edge facing the centre
    fighting = state.combat is not None and bool(state.combat.attackers)
    bottom_y = top_edge + PAD + (CENTER if fighting else CENTER_QUIET)
    plan.centre = (top_edge + PAD + bottom_y) / 2
    bottom_edge = bottom_y + PAD                  # the bottom side's edge facing the centre
    plan.bottom_end = bottom_edge + side_depth(bottom) + PAD_OUT
    if top:
        plan.backgrounds.append(("opponents", Rect(MARGIN, top_y, plan.width - 2 * MARGIN,
                                                   top_edge + PAD - top_y)))
    plan.backgrounds.append(("active", Rect(MARGIN, bottom_y, plan.width - 2 * MARGIN,
                                            plan.bottom_end - bottom_y)))
    for gs, is_top in ((top, True), (bottom, False)):
        x = (plan.width - side_width(gs)) / 2
        edge = top_edge if is_top else bottom_edge
        for g in gs:
            tag = TAG_H + TAG_GAP if g.team else 0
            h = _wide_panel_h(g, card_h, panel_h)
            plan.panels.append((g, Rect(x, edge - h if is_top else edge, PANEL_W, h)))
            mx = x + PANEL_W + GAP_X
            for m in g.members:
                if g.team:
                    # On top the tags face the centre (attack arrows end there); at the
                    # bottom they go below the cards, out of the way of the arrows.
                    depth = _wide_depth(g, card_h, panel_h)
                    plan.tags.append((m, Rect(mx, edge - TAG_H if is_top
                                              else edge + depth - TAG_H, m.width, TAG_H)))
                _cards(plan, m, mx, edge - tag if is_top else edge, card_h, is_top)
                mx += m.width + MEMBER_GAP
            x += _wide_group_width(g) + GROUP_GAP
    return plan


# -- narrow ---------------------------------------------------------------------------------

def plan_narrow(state: GameState, card_h: float, strip_h: dict[str, float]) -> Plan:
    """The narrow board: a strip across for each player (or team), two cards a row (a
    column each for the two players of a team, side by side), players one under the
    other. The top side reads strip, (tags,) cards; the bottom side cards, (tags,) strip:
    the cards are nearest the centre."""
    top, bottom = groups(state, narrow=True)
    plan = Plan(width=NARROW_W)
    inner_x, inner_w = MARGIN + PAD, NARROW_W - 2 * (MARGIN + PAD)
    y: float = MARGIN
    if top:
        start = y
        y += PAD
        for g in top:
            plan.panels.append((g, Rect(inner_x, y, inner_w, strip_h.get(g.gid, STRIP_H))))
            y += strip_h.get(g.gid, STRIP_H)
            if g.team:
                y += TAG_GAP
                _narrow_tags(plan, g, inner_x, y)
                y += TAG_H
            depth = max(m.depth(card_h) for m in g.members)
            y += GAP_Y + depth if depth else 0
            _narrow_cards(plan, g, inner_x, y, card_h, is_top=True)
            y += GROUP_GAP
        y += PAD - GROUP_GAP
        plan.backgrounds.append(("opponents", Rect(MARGIN, start, NARROW_W - 2 * MARGIN,
                                                   y - start)))
    fighting = state.combat is not None and bool(state.combat.attackers)
    plan.centre = y + (CENTER if fighting else CENTER_QUIET) / 2
    y += CENTER if fighting else CENTER_QUIET
    start = y
    y += PAD
    for i, g in enumerate(bottom):
        _narrow_cards(plan, g, inner_x, y, card_h, is_top=False)
        depth = max(m.depth(card_h) for m in g.members)
        y += depth + GAP_Y if depth else 0
        if g.team:  # under the cards, out of the way of the arrows
            _narrow_tags(plan, g, inner_x, y)
            y += TAG_H + TAG_GAP
        plan.panels.append((g, Rect(inner_x, y, inner_w, strip_h.get(g.gid, STRIP_H))))
        y += strip_h.get(g.gid, STRIP_H) + (GROUP_GAP if i < len(bottom) - 1 else 0)
    y += 12
    plan.backgrounds.append(("active", Rect(MARGIN, start, NARROW_W - 2 * MARGIN, y - start)))
    plan.bottom_end = y
    return plan


def _narrow_tags(plan: Plan, g: Group, x: float, y: float) -> None:
    for m in g.members:
        plan.tags.append((m, Rect(x, y, m.width, TAG_H)))
        x += m.width + GAP_X


def _narrow_cards(plan: Plan, g: Group, x: float, edge: float, card_h: float,
                  is_top: bool) -> None:
    for m in g.members:
        _cards(plan, m, x, edge, card_h, is_top)
        x += m.width + GAP_X
