"""Protection (702.16; 502.7 in Lorwyn; 702.14 from Magic 2010, 702.15 from mid-2011).

A permanent or player with protection from a quality: damage that sources with the
quality would deal to it is prevented (702.16e), it can't be the target of spells with
the quality or abilities from sources with it (702.16b), and an attacking creature with
it can't be blocked by creatures with it (702.16f). Enchanting and equipping are not
modelled (no Auras or Equipment are objects of this engine).

Qualities: a color, a card type in the plural (``creatures``, ``planeswalkers``, ...),
``everything`` (702.16j) or a card's name, written as its catalog slug (Runed Halo gives
its controller protection from the card name chosen as it entered).
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import cache
from operator import attrgetter

from engine.cards import Effect, catalog, find_card
from engine.errors import DocumentError
from engine.state import CARD_TYPES, COLORS, GameState, Obj, Source

_IRREGULAR = {"sorcery": "sorceries", "phenomenon": "phenomena"}
TYPE_PLURALS = {_IRREGULAR.get(t, f"{t}s"): t for t in CARD_TYPES}
"""A card type in the plural (a protection quality) -> the card type."""
QUALITIES = frozenset(COLORS) | frozenset(TYPE_PLURALS) | {"everything"}
"""The qualities protection can name besides a card's name (702.16a)."""


def has_quality(source: Source, quality: str) -> bool:
    """Whether ``source`` has ``quality`` (702.16a: a card type applies to permanents of
    that type and to sources of that type not on the battlefield)."""
    if quality == "everything":
        return True
    if quality in COLORS:
        return quality in source.colors
    card_type = TYPE_PLURALS.get(quality)
    if card_type is not None:
        return card_type in source.types
    return source.name == quality


def matching(qualities: frozenset[str], source: Source) -> str | None:
    """The quality of ``qualities`` that ``source`` has (the first in sorted order), if
    any: each quality is a protection ability of its own (702.16g)."""
    if not qualities:
        return None
    for quality in sorted(qualities):
        if has_quality(source, quality):
            return quality
    return None


@cache
def _static_kinds() -> dict[str, frozenset[str]]:
    """Slug -> the kinds of the modelled static abilities, for the catalog cards that
    have any (few do: a board without them is answered by one set lookup per object)."""
    return {slug: frozenset(e.kind for e in card.statics)
            for slug, card in catalog().items() if card.statics}


_card_of = attrgetter("card")


def card_statics(state: GameState, kind: str) -> Iterator[tuple[Obj, Effect]]:
    """The modelled static abilities of this kind of the catalog cards on the battlefield
    (they apply while the permanent is on the battlefield), with their permanents."""
    kinds = _static_kinds()
    if kinds.keys().isdisjoint(map(_card_of, state.objects.values())):
        return  # the common case, looked at in one pass in C: no such card in the game
    for obj in state.objects.values():
        if obj.card in kinds and obj.zone == "battlefield" and kind in kinds[obj.card]:
            for effect in find_card(obj.card).statics:
                if effect.kind == kind:
                    yield obj, effect


def has_statics(state: GameState, kinds: tuple[str, ...]) -> bool:
    """Whether a permanent on the battlefield has a modelled static ability of one of these
    kinds (one pass, for the common case of none)."""
    static_kinds = _static_kinds()
    if static_kinds.keys().isdisjoint(map(_card_of, state.objects.values())):
        return False  # the common case, looked at in one pass in C
    for obj in state.objects.values():
        if (obj.card in static_kinds and obj.zone == "battlefield"
                and not static_kinds[obj.card].isdisjoint(kinds)):
            return True
    return False


def protections(state: GameState, recipient: str) -> list[tuple[str, frozenset[str]]]:
    """Each protection ``recipient`` has, as (who grants it, its qualities): a permanent's
    own (its id); a player's from the document (the player's id) and from each permanent
    they control whose static ability gives them protection (that permanent's id)."""
    player = state.players.get(recipient)
    if player is None:
        obj = state.objects.get(recipient)
        if obj is None or not obj.protection:
            return []
        return [(obj.id, obj.protection)]
    out: list[tuple[str, frozenset[str]]] = []
    if player.protection:
        out.append((recipient, player.protection))
    for obj, _effect in card_statics(state, "protection-from-chosen-name"):
        if obj.controller != recipient:
            continue
        if obj.chosen_name is None:
            raise DocumentError.at("", f"{obj.id} ({obj.display_name()}) gives protection "
                                       f"from the card name chosen as it entered: give it "
                                       f"`chosen_name: SLUG`")
        out.append((obj.id, frozenset({obj.chosen_name})))
    return out


def protected_from(state: GameState, recipient: str, source: Source,
                   ) -> list[tuple[str, str]]:
    """(who grants it, the matching quality) for each protection of ``recipient`` from
    ``source``."""
    out: list[tuple[str, str]] = []
    for grantor, qualities in protections(state, recipient):
        quality = matching(qualities, source)
        if quality is not None:
            out.append((grantor, quality))
    return out
