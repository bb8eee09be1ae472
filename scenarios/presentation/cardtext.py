"""Card texts as of a rules era, and scenario texts whose card names open them.

A question often turns on a card's exact wording: Lightning Bolt deals 3 damage to
"target creature or player" until Dominaria and to "any target" from then on. The card
text shown with a question is the Oracle wording of the question's era (the engine's
catalog keeps one wording per era, for spells and for each loyalty ability), in English
as Oracle text is, under the card's name in the reader's language.

``story_html`` renders an author text like ``engine.notation.render_text`` does, but as
safe HTML: the author's words escaped, each card it names a button that opens that card's
text. ``render_text`` itself stays the plain-text renderer for every other caller.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from django.utils.html import escape, format_html
from django.utils.safestring import SafeString, mark_safe
from django.utils.text import capfirst
from django.utils.translation import gettext as _

from engine import (
    PLACEHOLDER,
    Card,
    Era,
    Named,
    Obj,
    UnknownCard,
    Variant,
    find_card,
    find_era,
    resolve_placeholder,
)
from scenarios.presentation.board.words import keyword_word, object_keywords, type_line

SUPERTYPE_ORDER = ("basic", "legendary", "snow", "world")
TYPE_ORDER = ("kindred", "tribal", "artifact", "enchantment", "land", "planeswalker", "battle",
              "creature", "instant", "sorcery", "plane", "phenomenon")
_CHAOS = re.compile(r"^Whenever chaos ensues\b")


@dataclass(frozen=True, slots=True)
class Oracle:
    """One wording of a card, and the eras it holds in ("" when only one era is shown)."""

    eras: str
    lines: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class CardText:
    """What the page shows of one card: its name in the reader's language and, in
    English, its Oracle name, cost, type line, wording(s) and stats."""

    key: str
    """``card:<slug>`` for a catalog card, ``object:<id>`` for an object the scenario
    defines itself."""
    dom_id: str
    name: str
    english: str
    """The English name when it differs from ``name``, else ""."""
    mana_cost: str
    type_line: str
    oracle: tuple[Oracle, ...]
    stats: str
    note: str
    printed: bool
    """False for an object the scenario defines (no Oracle text: its characteristics)."""


# -- card texts -------------------------------------------------------------------------------

def _cost(cost: str) -> str:
    """A loyalty cost as printed: ``−2`` with a minus sign."""
    return cost.replace("-", "−")


def _oracle_type_line(card: Card, era: type[Era]) -> str:
    """The English type line as of ``era``: planeswalkers are legendary from Ixalan."""
    if card.type_line:
        return card.type_line.get("en", "")
    supers = set(card.supertypes)
    if "planeswalker" in card.types and era.planeswalkers_legendary:
        supers.add("legendary")
    words = [s for s in SUPERTYPE_ORDER if s in supers] + sorted(supers - set(SUPERTYPE_ORDER))
    words += [t for t in TYPE_ORDER if t in card.types] + sorted(card.types - set(TYPE_ORDER))
    line = " ".join(w.capitalize() for w in words)
    return f"{line} — {' '.join(card.subtypes)}" if card.subtypes else line


def oracle_lines(card: Card, era: type[Era]) -> tuple[str, ...]:
    """The card's rules text as worded in ``era``."""
    if card.wordings and not card.is_spell_card:
        # A permanent whose whole text is worded by era (The Chain Veil: a triggered and
        # an activated ability), one line per paragraph.
        return tuple(line for line in card.wording(era.key).text.splitlines() if line)
    if card.abilities:
        return tuple(f"{_cost(a.cost)}: {a.wording(era.key).text if a.wordings else ''}"
                     for a in card.abilities)
    if card.wordings:
        return (card.wording(era.key).text,)
    lines = card.text.splitlines()
    if card.chaos_text:
        chaos = card.chaos_text
        if not era.chaos_ensues:  # before March of the Machine (901.9b)
            chaos = _CHAOS.sub("Whenever you roll {CHAOS}", chaos)
        lines.append(chaos)
    if card.encounter_text:
        lines.append(card.encounter_text)
    return tuple(line for line in lines if line)


def _stats(card: Card) -> str:
    if card.power is not None and card.toughness is not None:
        return f"{card.power}/{card.toughness}"
    if card.loyalty is not None:
        return f"Loyalty: {card.loyalty}"
    if card.defense is not None:
        return f"Defense: {card.defense}"
    return ""


def _era_span(first: type[Era], last: type[Era]) -> str:
    return first.name if first is last else f"{first.name} – {last.name}"


def card_text(card: Card, eras: Iterable[str], language: str, dom_id: str) -> CardText:
    """The text of a catalog card in each of ``eras`` (consecutive eras with the same
    wording shown once, with the span of eras it holds in)."""
    runs: list[tuple[type[Era], type[Era], tuple[str, ...]]] = []
    for key in eras:
        era = find_era(key)
        lines = oracle_lines(card, era)
        if runs and runs[-1][2] == lines:
            runs[-1] = (runs[-1][0], era, lines)
        else:
            runs.append((era, era, lines))
    one = len(runs) == 1
    oracle = tuple(Oracle("" if one else _era_span(a, b), lines) for a, b, lines in runs)
    era = runs[-1][1]
    if one:
        note = _("Oracle text, in English, as worded under the %(era)s rules.") % {
            "era": _era_span(runs[0][0], era)}
    else:
        note = _("Oracle text, in English, as worded in each rules era of this question.")
    name = card.name.get(language) or card.name["en"]
    return CardText(
        key=f"card:{card.slug}", dom_id=dom_id, name=name,
        english=card.name["en"] if card.name["en"] != name else "",
        mana_cost=card.mana_cost, type_line=_oracle_type_line(card, era), oracle=oracle,
        stats=_stats(card), note=note, printed=True)


def object_text(obj: Obj, language: str, dom_id: str) -> CardText:
    """The text of an object the scenario defines itself: its characteristics, in the
    reader's language (there is no Oracle text to show)."""
    words = [capfirst(keyword_word(k)) for k in object_keywords(obj)]
    stats = ""
    if obj.power is not None and obj.toughness is not None:
        stats = f"{obj.power}/{obj.toughness}"
    elif obj.loyalty is not None:
        stats = str(obj.loyalty)
    return CardText(
        key=f"object:{obj.id}", dom_id=dom_id, name=obj.display_name(language), english="",
        mana_cost="", type_line=type_line(obj), oracle=(Oracle("", tuple(words)),) if words
        else (), stats=stats,
        note=_("Made up for this scenario: not a printed card, so it has no Oracle text."),
        printed=False)


def text_key(obj: Obj) -> str:
    """The card text an object shows: its catalog card's, or its own."""
    if obj.card:
        try:
            find_card(obj.card)
        except UnknownCard:
            return f"object:{obj.id}"
        return f"card:{obj.card}"
    return f"object:{obj.id}"


def build_text(key: str, objects: Mapping[str, Obj], eras: Iterable[str], language: str,
               dom_id: str) -> CardText:
    kind, _sep, ref = key.partition(":")
    if kind == "card":
        return card_text(find_card(ref), eras, language, dom_id)
    return object_text(objects[ref], language, dom_id)


# -- author texts -----------------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class Ref:
    """A card named in an author text: its name there and the key of its card text."""

    name: str
    key: str


def variant_objects(variant: Variant) -> dict[str, Obj]:
    """Every object a variant names: the board's and those its actions bring in."""
    objects = dict(variant.state.objects)
    objects.update({o.id: o for o in variant.new_objects.values()})
    return objects


def text_segments(text: Mapping[str, str], language: str, variant: Variant) -> list[str | Ref]:
    """An author text in ``language`` (English when missing) as plain pieces and card
    references, resolved exactly as ``engine.notation.render_text`` resolves them: a
    parameter first (a card slug names the card), then an object, then a player."""
    raw = text.get(language) or text.get("en", "")
    objects = variant_objects(variant)
    out: list[str | Ref] = []
    pos = 0
    for match in PLACEHOLDER.finditer(raw):
        out.append(raw[pos:match.start()])
        pos = match.end()
        out.append(_placeholder(match, language, variant, objects))
    out.append(raw[pos:])
    return [piece for piece in out if piece != ""]


def _placeholder(match: re.Match[str], language: str, variant: Variant,
                 objects: Mapping[str, Obj]) -> str | Ref:
    out = resolve_placeholder(match, language, variant, objects)
    if not isinstance(out, Named):
        return out
    if out.obj is not None:
        return Ref(out.name, text_key(out.obj))
    return Ref(out.name, f"card:{out.card}")


def segments_html(segments: Iterable[str | Ref], dom_ids: Mapping[str, str]) -> SafeString:
    """Safe HTML of a text's pieces: the words escaped, each card a button that opens
    (``popovertarget``) and is described by (``aria-describedby``) its card text.

    A button is one box for line breaking, so the punctuation touching it ("Bolt's",
    "(Bolt)") goes with it in a span that doesn't break: no line starts with a comma."""
    pieces = list(segments)
    out: list[str] = []
    for i, piece in enumerate(pieces):
        if not isinstance(piece, Ref) or piece.key not in dom_ids:
            out.append(escape(piece.name if isinstance(piece, Ref) else piece))
            continue
        before = _GLUE_BEFORE.search(out[-1]) if out else None
        following = pieces[i + 1] if i + 1 < len(pieces) else None
        after = _GLUE_AFTER.match(following) if isinstance(following, str) else None
        if before is not None:
            out[-1] = out[-1][:before.start()]
        button = format_html(
            '<button type="button" class="card-ref" popovertarget="{}" '
            'aria-describedby="{}">{}</button>', dom_ids[piece.key], dom_ids[piece.key],
            piece.name)
        if before is None and after is None:
            out.append(button)
            continue
        glued = (before.group(0) if before else "") + button + (
            escape(after.group(0)) if after else "")
        out.append(f'<span class="card-ref-glue">{glued}</span>')
        if after is not None:
            rest = pieces[i + 1]
            assert isinstance(rest, str)
            pieces[i + 1] = rest[after.end():]
    return mark_safe("".join(out))  # noqa: S308 -- every piece escaped above


_GLUE_BEFORE = re.compile(r"[^\s>]+$")
"""The escaped non-space run just before a card's button."""
_GLUE_AFTER = re.compile(r"\S+")
"""The non-space run just after it."""
