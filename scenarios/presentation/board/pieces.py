"""The pieces of the board: player panels (or strips), team tags, pills, badges, cards.

Every text is escaped here (``measure.esc``) and the markup carries classes only, no
``style`` (the CSP forbids inline styles; board.css colours and sizes the classes).
A card's words wrap onto more lines rather than being cut: the board's cards all take the
height of the tallest one, so rows stay aligned.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from engine import GameState, Obj, effective_power
from scenarios.presentation.board.layout import (
    CARD_H,
    CARD_W,
    MARGIN,
    NARROW_W,
    PAD,
    PANEL_W,
    PILL_H,
    TAG_H,
    TILT,
    Group,
    Member,
    Rect,
)
from scenarios.presentation.board.measure import esc, fit, fits, num, text_width, wrap, wrap_items
from scenarios.presentation.board.words import (
    _,
    details,
    keyword_word,
    life_sentence,
    name_of,
    ngettext,
    object_keywords,
    player_name,
    type_line,
    zone_label,
    zones_of,
)

FONT_NAME = 12.5      # .board-card-name (bold); a long name takes two lines, then gets smaller
FONT_NAME_SMALL = 11.0  # .board-card-name--s
FONT_TYPE = 10.5      # .board-card-type
FONT_KEYWORDS = 10.5  # .board-card-keywords (italic)
FONT_DAMAGE = 11      # .board-card-damage (bold)
FONT_PILL = 9.5       # .board-pill-text (bold)
FONT_PILL_SMALL = 8.5  # .board-pill-text--small
FONT_PLAYER = 15      # .board-player-name (bold)
FONT_ZONES = 11       # .board-zones
FONT_TAG = 12         # .board-tag-name (bold)
LINE = 13.5           # between two lines of a card's type and keywords
NAME_LINE = 15        # between the lines of a long name
NAME_LINES = 3        # at most
PAD_CARD = 8          # a card's text from its left edge
ROOM = CARD_W - 2 * PAD_CARD
STRIP_LIFE_W = 104    # the life box of a narrow strip
STRIP_ROOM = NARROW_W - 2 * (MARGIN + PAD) - 12 - STRIP_LIFE_W - 14
"""The room for a strip's name and counts, left of its life box."""


@dataclass(frozen=True, slots=True)
class Face:
    """What a card says, already broken into lines."""

    name: tuple[str, ...]
    name_cls: str
    lines: tuple[tuple[str, str], ...]
    """Type and keyword lines: (text, class)."""
    damage_inline: bool
    """Whether the damage has a line of its own (no room beside the badges)."""

    @property
    def band(self) -> float:
        return 26 + NAME_LINE * (len(self.name) - 1)

    @property
    def height(self) -> float:
        return max(float(CARD_H), self.band + 14 + LINE * (len(self.lines) - 1) + 34)


def text(x: float, y: float, words: str, cls: str, anchor: str = "") -> str:
    a = f' text-anchor="{anchor}"' if anchor else ""
    return f'<text class="{cls}" x="{num(x)}" y="{num(y)}"{a}>{esc(words)}</text>'


def pill_lines(label: str, max_w: float) -> tuple[list[str], float, str]:
    """A pill's label in one line, smaller if need be, else in two small lines."""
    if fits(label, max_w - 10, FONT_PILL, True):
        return [label], FONT_PILL, "board-pill-text"
    small = "board-pill-text board-pill-text--small"
    lines = wrap(label, max_w - 10, FONT_PILL_SMALL, 2, bold=True)
    return lines, FONT_PILL_SMALL, small


def pill(x: float, y: float, label: str, cls: str, max_w: float) -> tuple[str, float]:
    """A rounded label whose left end is at ``x`` and vertical centre at ``y`` (a long
    one in two lines, a taller pill)."""
    lines, size, text_cls = pill_lines(label, max_w)
    w = max(text_width(line, size, True) for line in lines) + 10
    h = PILL_H + (len(lines) - 1) * 10
    top = y - h / 2
    return (f'<g class="board-pill {cls}"><rect x="{num(x)}" y="{num(top)}" '
            f'width="{num(w)}" height="{num(h)}" rx="{PILL_H / 2}"/>'
            + "".join(text(x + w / 2, top + 10.8 + 10 * i, line, text_cls, "middle")
                      for i, line in enumerate(lines)) + "</g>", w)


def pill_height(label: str, max_w: float) -> float:
    return PILL_H + (len(pill_lines(label, max_w)[0]) - 1) * 10


def shield(cx: float, top: float, w: float = 26, h: float = 28) -> str:
    """The loyalty shield: flat top, sides curving to a point."""
    left, right, b = cx - w / 2, cx + w / 2, top + h
    return (f"M{num(left)},{num(top)} H{num(right)} V{num(top + h * .45)} "
            f"Q{num(right)},{num(b - h * .18)} {num(cx)},{num(b)} "
            f"Q{num(left)},{num(b - h * .18)} {num(left)},{num(top + h * .45)} Z")


def octagon(cx: float, cy: float, r: float = 13) -> str:
    k = r * 0.42
    pts = [(cx - k, cy - r), (cx + k, cy - r), (cx + r, cy - k), (cx + r, cy + k),
           (cx + k, cy + r), (cx - k, cy + r), (cx - r, cy + k), (cx - r, cy - k)]
    return "M" + " L".join(f"{num(x)},{num(y)}" for x, y in pts) + " Z"


def name_lines(name: str) -> tuple[tuple[str, ...], str]:
    """A card name on one line, smaller if need be, or on two or three; cut only when
    even that is too little room (the whole name stays in the card's accessible name)."""
    sizes = ((FONT_NAME, "board-card-name"),
             (FONT_NAME_SMALL, "board-card-name board-card-name--s"))
    for most in range(1, NAME_LINES + 1):
        for size, cls in sizes:
            lines = wrap(name, ROOM, size, bold=True)
            if len(lines) <= most and all(fits(line, ROOM, size, True) for line in lines):
                return tuple(lines), cls
    lines = wrap(name, ROOM, FONT_NAME_SMALL, NAME_LINES, bold=True)
    return (tuple(fit(line, ROOM, FONT_NAME_SMALL, True) for line in lines),
            "board-card-name board-card-name--s")


@dataclass(slots=True)
class Drawing:
    """The board being drawn: its markup so far, and where each piece went (arrows end
    there). ``card_ids``: object id -> the id of the element holding its card text; a
    card with one is a focusable button described by that text."""

    state: GameState
    language: str
    highlight: frozenset[str]
    card_ids: dict[str, str]
    narrow: bool
    width: float = 0.0
    plan_centre: float = 0.0
    """The board's width, and the height of the middle of its centre band."""
    rects: dict[str, Rect] = field(default_factory=dict)
    """Object, player or team id -> where arrows to it end."""
    parts: list[str] = field(default_factory=list)
    overlay: list[str] = field(default_factory=list)
    _details: dict[str, str] = field(default_factory=dict)
    _faces: dict[str, Face] = field(default_factory=dict)

    def name(self, oid: str | None) -> str:
        return name_of(self.state, oid, self.language)

    def details(self, o: Obj) -> str:
        """``Name (creature 2/2, trample, 1 damage)``."""
        found = self._details.get(o.id)
        if found is None:
            found = self._details[o.id] = details(self.state, o, self.language)
        return found

    def pt(self, o: Obj) -> str | None:
        if o.is_creature and o.power is not None and o.toughness is not None:
            return f"{effective_power(self.state, o)}/{o.toughness}"  # as a face-up plane sets
        return None

    # -- cards -----------------------------------------------------------------------------
    def face(self, o: Obj) -> Face:
        found = self._faces.get(o.id)
        if found is None:
            found = self._faces[o.id] = self._face(o)
        return found

    def _face(self, o: Obj) -> Face:
        names, name_cls = name_lines(o.display_name(self.language))
        lines = [(line, "board-card-type") for line in
                 wrap_items(type_line(o).split(" · "), ROOM, FONT_TYPE, " ·")]
        extras = [keyword_word(k) for k in object_keywords(o)]
        if o.is_battle and o.protector:
            extras.append(_("protected by %(name)s") % {"name": self.name(o.protector)})
        if extras:
            lines += [(line, "board-card-keywords")
                      for line in wrap_items(extras, ROOM, FONT_KEYWORDS)]
        damage_inline = bool(o.damage) and not fits(
            self.damage_label(o), self.badges_left(o) - PAD_CARD - 2, FONT_DAMAGE, True)
        if damage_inline:
            lines.append((self.damage_label(o), "board-card-damage"))
        return Face(tuple(names), name_cls, tuple(lines), damage_inline)

    def damage_label(self, o: Obj) -> str:
        return ngettext("%(n)d damage", "%(n)d damage", o.damage) % {"n": o.damage}

    def badges_left(self, o: Obj) -> float:
        """How far from the card's left edge its bottom-right badges begin."""
        right: float = CARD_W - 7
        pt = self.pt(o)
        if pt is not None:
            right -= max(34.0, text_width(pt, 13, True) + 12) + 5
        right -= 33 * (int(o.is_planeswalker) + int(o.is_battle))
        return right

    def card(self, o: Obj, x: float, y: float, outer: str, h: float) -> None:
        """One card; ``outer`` is the side away from the centre (for the pills)."""
        rect = Rect(x, y, CARD_W, h, TILT if o.tapped else 0.0)
        out = [self._card_open(o, rect)]
        face = self.face(o)
        w = CARD_W
        out += [f'<rect class="board-card-frame" x="{num(x)}" y="{num(y)}" width="{w}" '
                f'height="{num(h)}" rx="8"/>',
                f'<path class="board-card-band" d="M{num(x)},{num(y + face.band)} '
                f'V{num(y + 8)} A8,8 0 0 1 {num(x + 8)},{num(y)} H{num(x + w - 8)} '
                f'A8,8 0 0 1 {num(x + w)},{num(y + 8)} V{num(y + face.band)} Z"/>']
        out += [text(x + PAD_CARD, y + 18 + NAME_LINE * i, line, face.name_cls)
                for i, line in enumerate(face.name)]
        out += [text(x + PAD_CARD, y + face.band + 14 + LINE * i, line, cls)
                for i, (line, cls) in enumerate(face.lines)]
        out += self._badges(o, x, y, h)
        if o.damage and not face.damage_inline:
            out.append(text(x + PAD_CARD, y + h - 13, self.damage_label(o),
                            "board-card-damage"))
        out += self._pills(o, x, y, h, outer)
        out.append("</g>")
        self.parts.extend(out)
        self.rects[o.id] = rect

    def _card_open(self, o: Obj, rect: Rect) -> str:
        combat = self.state.combat
        kinds: list[str] = [t for t in ("artifact", "enchantment", "land", "planeswalker",
                                        "battle", "creature") if t in o.types] or ["other"]
        cls = ["board-card"] + [f"board-card--{k}" for k in kinds]
        if not {"creature", "planeswalker", "battle"} & o.types:
            cls.append("board-card--other")
        if o.tapped:
            cls.append("board-card--tapped")
        if combat is not None and o.id in combat.attackers:
            cls.append("board-card--attacking")
        if combat is not None and combat.blocking(o.id) is not None:
            cls.append("board-card--blocking")
        if o.id in self.highlight:
            cls.append("board-card--highlight")
        transform = (f' transform="rotate({num(TILT)} {num(rect.cx)} {num(rect.cy)})"'
                     if o.tapped else "")
        return (f'<g class="{" ".join(cls)}" data-object="{esc(o.id)}"{transform}'
                + self.focusable(o.id, self.details(o)))

    def focusable(self, oid: str, label: str) -> str:
        """The rest of a piece's opening tag: with a card text, a focusable button named
        by the words drawn on it (as seen; axe's label-content-name-mismatch) and
        described by that text; without one, a ``<title>`` tooltip, ``label``."""
        dom_id = self.card_ids.get(oid)
        if dom_id is None:
            return f"><title>{esc(label)}</title>"
        return (f' tabindex="0" role="button" aria-describedby="{esc(dom_id)}" '
                f'data-card-text="{esc(dom_id)}">')

    def _badges(self, o: Obj, x: float, y: float, h: float) -> list[str]:
        """Power/toughness, loyalty and defense, bottom right, right to left."""
        out = []
        right = x + CARD_W - 7
        pt = self.pt(o)
        if pt is not None:
            bw = max(34.0, text_width(pt, 13, True) + 12)
            out.append(f'<g class="board-badge board-badge--pt"><rect x="{num(right - bw)}" '
                       f'y="{num(y + h - 29)}" width="{num(bw)}" height="22" rx="5"/>'
                       + text(right - bw / 2, y + h - 13.5, pt, "board-badge-text", "middle")
                       + "</g>")
            right -= bw + 5
        if o.is_planeswalker:
            out.append(f'<g class="board-badge board-badge--loyalty"><path d="'
                       f'{shield(right - 13, y + h - 34, 26, 27)}"/>'
                       + text(right - 13, y + h - 17, str(o.current_loyalty),
                              "board-badge-text", "middle") + "</g>")
            right -= 33
        if o.is_battle:
            out.append(f'<g class="board-badge board-badge--defense"><path d="'
                       f'{octagon(right - 13, y + h - 20, 12.5)}"/>'
                       + text(right - 13, y + h - 15.5, str(o.current_defense),
                              "board-badge-text", "middle") + "</g>")
        return out

    def _pills(self, o: Obj, x: float, y: float, h: float, outer: str) -> list[str]:
        """Tapped, summoning sick, blocked: on the outer edge, in more lines outwards."""
        combat = self.state.combat
        pills = []
        if o.tapped:
            pills.append((_("tapped"), "board-pill--tapped"))
        if o.sick:
            pills.append((_("summoning sick"), "board-pill--sick"))
        if (combat is not None and o.id in combat.blocked and o.id in combat.attackers
                and not any(b in self.state.objects and self.state.objects[b].on_battlefield
                            for b in combat.blockers.get(o.id, ()))):
            pills.append((_("blocked"), "board-pill--blocked"))
        out = []
        edge = y if outer == "top" else y + h
        sign = -1 if outer == "top" else 1
        row: list[tuple[str, str, float]] = []  # label, class, width
        rows = [row]
        px = x + 6
        for label, pcls in pills:
            lines, size, _cls = pill_lines(label, CARD_W - 12)
            width = max(text_width(line, size, True) for line in lines) + 10
            if px + width > x + CARD_W - 6 and row:  # no room left: a row further out
                row = []
                rows.append(row)
                px = x + 6
            row.append((label, pcls, px))
            px += width + 4
        offset = 0.0  # from the card's edge to the centre of the row, outwards
        for i, row in enumerate(rows):
            height = max((pill_height(label, CARD_W - 12) for label, _c, _x in row),
                         default=PILL_H)
            # the first row reaches as far into the card as a one-line pill does
            offset += height / 2 + 2 if i else (height - PILL_H) / 2
            for label, pcls, px in row:
                out.append(pill(px, edge + sign * offset, label, pcls, CARD_W - 12)[0])
            offset += height / 2
        return out

    # -- players ---------------------------------------------------------------------------
    def zone_lines(self, g: Group, width: float) -> list[str]:
        """The counts of the cards each player holds outside the battlefield ("Hand: 2"),
        wrapped to ``width``; in a team each member's counts after their name."""
        lines = []
        for m in g.members:
            counts = [zone_label(z, len(objs)) for z, objs in zones_of(self.state, m.pid).items()
                      if z != "stack"]
            if counts and g.team:
                counts[0] = f"{player_name(m.pid)}: {counts[0]}"
            if counts:
                lines += wrap_items(counts, width, FONT_ZONES, " ·")
        return lines

    def panel_height(self, g: Group) -> float:
        """The least height of a wide panel: name, pills, counts and the life box."""
        if g.team:
            used = 53.0
        else:
            used = 24.0 + (16 if self._pills_own_line(g) else 0)
        lines = self.zone_lines(g, PANEL_W - 24)
        return used + 14 * len(lines) + 6 + (48 if g.team else 38) + 10

    def strip_height(self, g: Group) -> float:
        """The height of a narrow strip: name and the counts under it."""
        lines = self.zone_lines(g, STRIP_ROOM)
        return max(50.0, 22 + (15 if g.team else 0) + 14 * len(lines) + 10)

    def _pills_own_line(self, g: Group) -> bool:
        """Whether a wide panel's hexproof / lost pills go under the name (no room
        beside it)."""
        player = self.state.players[g.members[0].pid]
        pills, end = self.badges(player.hexproof, player.lost, 0, 0, PANEL_W - 24)
        return bool(pills) and end > PANEL_W - 24 - 46

    def _panel_open(self, g: Group, r: Rect) -> str:
        st = self.state
        active = any(m.pid == st.turn.active for m in g.members)
        cls = "board-panel" + (" board-panel--active" if active else "")
        if g.gid in self.highlight:
            cls += " board-panel--highlight"
        return (f'<g class="{cls}" data-player="{esc(g.gid)}">'
                f"<title>{esc(life_sentence(st, g.gid, g.team))}</title>"
                f'<rect class="board-panel-frame" x="{num(r.x)}" y="{num(r.y)}" '
                f'width="{num(r.w)}" height="{num(r.h)}" rx="10"/>')

    def _life(self, g: Group) -> tuple[str, int]:
        if g.team:
            return _("Team life"), self.state.teams[g.gid].life
        return _("Life"), self.state.life(g.members[0].pid)

    def panel(self, g: Group, r: Rect) -> None:
        """A wide panel: the name, the counts and the life box at the bottom."""
        x, y, h = r.x, r.y, r.h
        out = [self._panel_open(g, r)]
        room: float = PANEL_W - 24
        cursor = y + 24
        if g.team:
            title = self.name(g.gid)
            out.append(text(x + 12, cursor, fit(title, room, FONT_PLAYER, True),
                            "board-player-name"))
            for i, line in enumerate(wrap(_("Two-Headed Giant"), room, 10.5, 2)):
                out.append(text(x + 12, y + 40 + 13 * i, line, "board-panel-caption"))
            cursor = y + 53
        else:
            player = self.state.players[g.members[0].pid]
            if self._pills_own_line(g):
                pills, _end = self.badges(player.hexproof, player.lost, x + 12, cursor + 12,
                                          room)
                if pills:
                    cursor += 16
            else:
                _pills, end = self.badges(player.hexproof, player.lost, 0, 0, room)
                pills, _end = self.badges(player.hexproof, player.lost,
                                          x + PANEL_W - 12 - end + 4, y + 19, room)
                room -= end + 2
            out += pills
            out.append(text(x + 12, y + 24, fit(player_name(g.gid), room, FONT_PLAYER, True),
                            "board-player-name"))
        for line in self.zone_lines(g, PANEL_W - 24):
            cursor += 14
            out.append(text(x + 12, cursor, line, "board-zones"))
        caption, life = self._life(g)
        number = str(life)
        beside = PANEL_W - 20 - 18 - text_width(number, 22, True) - 8
        if fits(caption, beside, 11, True) and not g.team:
            box = Rect(x + 10, y + h - 44, PANEL_W - 20, 34)
            out.append(text(box.x + 9, box.y + 21, caption, "board-life-caption"))
        else:
            tall = 48 if g.team else 38
            box = Rect(x + 10, y + h - 10 - tall, PANEL_W - 20, tall)
            out.append(text(box.x + 9, box.y + (15 if g.team else 13),
                            fit(caption, box.w - 18, 11 if g.team else 9.5, True),
                            "board-life-caption" + ("" if g.team
                                                    else " board-life-caption--small")))
        out.insert(len(out) - 1, f'<rect class="board-life" x="{num(box.x)}" '
                   f'y="{num(box.y)}" width="{num(box.w)}" height="{num(box.h)}" rx="7"/>')
        out += [text(box.x + box.w - 9, box.y + box.h - 8, number, "board-life-value", "end"),
                "</g>"]
        self.parts.extend(out)
        self.rects[g.gid] = box
        if not g.team:
            self.rects[g.members[0].pid] = box

    def strip(self, g: Group, r: Rect) -> None:
        """A narrow strip: the name and the counts on the left, the life box right."""
        x, y = r.x, r.y
        out = [self._panel_open(g, r)]
        box = Rect(x + r.w - STRIP_LIFE_W - 6, y + 6, STRIP_LIFE_W, 38)
        room = box.x - x - 18
        title = self.name(g.gid) if g.team else player_name(g.gid)
        out.append(text(x + 12, y + 22, fit(title, room, FONT_PLAYER, True),
                        "board-player-name"))
        cursor = y + 22
        if g.team:
            cursor += 15
            out.append(text(x + 12, cursor, fit(_("Two-Headed Giant"), room, 10.5),
                            "board-panel-caption"))
        else:
            player = self.state.players[g.members[0].pid]
            end = x + 12 + text_width(player_name(g.gid), FONT_PLAYER, True) + 6
            pills, _end = self.badges(player.hexproof, player.lost, end, y + 17,
                                      box.x - end - 6)
            out += pills
        for line in self.zone_lines(g, STRIP_ROOM):
            cursor += 14
            out.append(text(x + 12, cursor, line, "board-zones"))
        caption, life = self._life(g)
        out += [f'<rect class="board-life" x="{num(box.x)}" y="{num(box.y)}" '
                f'width="{num(box.w)}" height="{num(box.h)}" rx="7"/>',
                text(box.x + 7, box.y + 13, fit(caption, box.w - 14, 9.5, True),
                     "board-life-caption board-life-caption--small"),
                text(box.x + box.w - 8, box.y + box.h - 7, str(life), "board-life-value",
                     "end"), "</g>"]
        self.parts.extend(out)
        self.rects[g.gid] = box
        if not g.team:
            self.rects[g.members[0].pid] = box

    def badges(self, hexproof: bool, lost: bool, x: float, cy: float,
               room: float) -> tuple[list[str], float]:
        """The hexproof / lost pills of a player from ``x``; and where they end."""
        out = []
        for on, label, cls in ((hexproof, _("hexproof"), "board-pill--hexproof"),
                               (lost, _("lost the game"), "board-pill--lost")):
            if on and room > 24:
                svg, w = pill(x, cy, label, cls, room)
                out.append(svg)
                x += w + 4
                room -= w + 4
        return out, x

    def tag(self, m: Member, r: Rect) -> None:
        """The name tag of one player of a Two-Headed Giant team."""
        x, y = r.x, r.y
        player = self.state.players[m.pid]
        name = fit(player_name(m.pid), r.w - 20, FONT_TAG, True)
        end = x + 10 + text_width(name, FONT_TAG, True) + 8
        pills, pills_end = self.badges(player.hexproof, player.lost, end, y + TAG_H / 2,
                                       x + r.w - end - 6)
        width = (pills_end + 2 if pills else end + 2) - x
        cls = "board-tag" + (" board-tag--active" if m.pid == self.state.turn.active else "")
        if m.pid in self.highlight:
            cls += " board-tag--highlight"
        self.parts.append(
            f'<g class="{cls}" data-player="{esc(m.pid)}"><title>{esc(player_name(m.pid))}'
            f'</title><rect class="board-tag-frame" x="{num(x)}" y="{num(y)}" '
            f'width="{num(width)}" height="{TAG_H}" rx="{TAG_H / 2}"/>'
            + text(x + 10, y + 16.5, name, "board-tag-name") + "".join(pills) + "</g>")
        self.rects[m.pid] = Rect(x, y, width, TAG_H)
