"""The board's words: translated type and keyword names, player names, and the sentences
of the board in words (the picture's text alternative).

A board asks for the same few dozen words again and again; Django's gettext costs
microseconds a call, so the words are kept per language (translations are fixed for the
life of the process, as Django's own catalogues are; a board uses a few hundred strings
per language, the memo keeps the 4,096 most recently used).
"""

from __future__ import annotations

import threading

from django.utils.text import capfirst
from django.utils.translation import get_language, gettext, gettext_noop
from django.utils.translation import ngettext as django_ngettext

from engine import GameState, Obj, UnknownCard, effective_power, find_card
from scenarios.caches import memo

LOCAL = threading.local()
"""``LOCAL.language``: the language whose words may be memoized ("" while none is)."""


@memo(maxsize=4096)
def _word(language: str, message: str) -> str:
    """``message`` in ``language`` (the active language while a board is drawn)."""
    return gettext(message)


@memo(maxsize=4096)
def _plural(language: str, singular: str, plural: str, n: int) -> str:
    return django_ngettext(singular, plural, n)


def _(message: str) -> str:
    language = getattr(LOCAL, "language", "")
    return _word(language, message) if language else gettext(message)


def ngettext(singular: str, plural: str, n: int) -> str:
    language = getattr(LOCAL, "language", "")
    if language and -100 <= n <= 100:
        return _plural(language, singular, plural, n)
    return django_ngettext(singular, plural, n)


TYPE_ORDER = ("artifact", "enchantment", "land", "planeswalker", "battle", "creature")
KEYWORD_ORDER = ("flying", "reach", "first-strike", "double-strike", "trample-over-planeswalkers",
                 "trample", "deathtouch", "lifelink", "vigilance", "haste", "menace",
                 "indestructible", "defender", "hexproof", "shroud", "infect", "wither",
                 "annihilator")
ZONE_ORDER = ("hand", "graveyard", "exile", "library", "stack")

TYPE_WORDS = {
    "creature": gettext_noop("creature"), "planeswalker": gettext_noop("planeswalker"),
    "battle": gettext_noop("battle"), "artifact": gettext_noop("artifact"),
    "enchantment": gettext_noop("enchantment"), "land": gettext_noop("land"),
    "instant": gettext_noop("instant"), "sorcery": gettext_noop("sorcery"),
}
KEYWORD_WORDS = {
    "trample": gettext_noop("trample"),
    "trample-over-planeswalkers": gettext_noop("trample over planeswalkers"),
    "deathtouch": gettext_noop("deathtouch"), "first-strike": gettext_noop("first strike"),
    "double-strike": gettext_noop("double strike"), "lifelink": gettext_noop("lifelink"),
    "vigilance": gettext_noop("vigilance"), "haste": gettext_noop("haste"),
    "flying": gettext_noop("flying"), "reach": gettext_noop("reach"),
    "menace": gettext_noop("menace"), "indestructible": gettext_noop("indestructible"),
    "defender": gettext_noop("defender"), "hexproof": gettext_noop("hexproof"),
    "shroud": gettext_noop("shroud"), "infect": gettext_noop("infect"),
    "wither": gettext_noop("wither"), "annihilator": gettext_noop("annihilator"),
}
PROTECTION_WORDS = {
    "white": gettext_noop("protection from white"), "blue": gettext_noop("protection from blue"),
    "black": gettext_noop("protection from black"), "red": gettext_noop("protection from red"),
    "green": gettext_noop("protection from green"),
    "everything": gettext_noop("protection from everything"),
    "creatures": gettext_noop("protection from creatures"),
    "planeswalkers": gettext_noop("protection from planeswalkers"),
    "artifacts": gettext_noop("protection from artifacts"),
    "enchantments": gettext_noop("protection from enchantments"),
    "instants": gettext_noop("protection from instants"),
    "sorceries": gettext_noop("protection from sorceries"),
    "lands": gettext_noop("protection from lands"),
    "battles": gettext_noop("protection from battles"),
}
"""Protection (702.16) as the board shows it; from a card's name: "protection from NAME"."""
ZONE_LABELS = {
    "hand": gettext_noop("Hand: %(n)d"), "graveyard": gettext_noop("Graveyard: %(n)d"),
    "exile": gettext_noop("Exile: %(n)d"), "library": gettext_noop("Library: %(n)d"),
}
"""The short counts in a player's panel; the stack is drawn as cards of its own."""


def type_word(t: str) -> str:
    return _(TYPE_WORDS[t]) if t in TYPE_WORDS else t


def _card_name(slug: str) -> str:
    """A catalog card's printed name in the reader's language (its slug if unknown)."""
    try:
        names = find_card(slug).name
    except UnknownCard:
        return slug
    language = getattr(LOCAL, "language", "") or get_language() or "en"
    return names.get(language.split("-")[0]) or names.get("en") or slug


def keyword_word(k: str) -> str:
    if k.startswith("protection:"):
        quality = k.split(":", 1)[1]
        if quality in PROTECTION_WORDS:
            return _(PROTECTION_WORDS[quality])
        return _("protection from %(name)s") % {"name": _card_name(quality)}
    return _(KEYWORD_WORDS[k]) if k in KEYWORD_WORDS else k.replace("-", " ")


def zone_label(zone: str, n: int) -> str:
    return _(ZONE_LABELS[zone]) % {"n": n}


def zone_sentence(zone: str, player: str, cards: str) -> str:
    if zone == "hand":
        return _("%(player)s's hand: %(cards)s.") % {"player": player, "cards": cards}
    if zone == "graveyard":
        return _("%(player)s's graveyard: %(cards)s.") % {"player": player, "cards": cards}
    if zone == "exile":
        return _("Exiled, owned by %(player)s: %(cards)s.") % {"player": player, "cards": cards}
    if zone == "library":
        return _("%(player)s's library: %(cards)s.") % {"player": player, "cards": cards}
    return _("On the stack, owned by %(player)s: %(cards)s.") % {"player": player,
                                                                "cards": cards}


def player_name(pid: str) -> str:
    return pid[:1].upper() + pid[1:]


def player_label(state: GameState, pid: str) -> str:
    """A player's name, or a Two-Headed Giant team's (its members: "Bob & Dave")."""
    if pid in state.teams:
        return " & ".join(player_name(m) for m in state.teams[pid].members)
    return player_name(pid)


def object_keywords(o: Obj) -> list[str]:
    """The object's keywords in a fixed order (trample over planeswalkers implies
    trample, so only the former is named)."""
    kws = set(o.keywords) | set(o.eot_keywords)
    if "trample-over-planeswalkers" in kws:
        kws.discard("trample")
    known = [k for k in KEYWORD_ORDER if k in kws]
    return known + sorted(kws - set(known)) + [f"protection:{q}" for q in sorted(o.protection)]


def object_types(o: Obj) -> list[str]:
    known = [t for t in TYPE_ORDER if t in o.types]
    return known + sorted(set(o.types) - set(known))


def type_line(o: Obj) -> str:
    """``Artifact · Creature`` in the reader's language."""
    return " · ".join(capfirst(type_word(t)) for t in object_types(o))


def name_of(state: GameState, oid: str | None, language: str) -> str:
    """An object's printed name in ``language``, or a player's or team's name."""
    if oid is None:
        return ""
    if oid in state.objects:
        return state.objects[oid].display_name(language)
    return player_label(state, oid)


def details(state: GameState, o: Obj, language: str) -> str:
    """``Name (creature 2/2, trample, 1 damage)``: what the board shows of one object."""
    parts: list[str] = []
    for t in object_types(o):
        word = type_word(t)
        if t == "creature" and o.power is not None and o.toughness is not None:
            word = f"{word} {effective_power(state, o)}/{o.toughness}"
        parts.append(word)
    parts += [keyword_word(k) for k in object_keywords(o)]
    if o.is_planeswalker:
        parts.append(_("%(n)d loyalty") % {"n": o.current_loyalty})
    if o.is_battle:
        parts.append(_("%(n)d defense") % {"n": o.current_defense})
        if o.protector:
            parts.append(_("protected by %(name)s") % {
                "name": name_of(state, o.protector, language)})
    if o.damage:
        parts.append(ngettext("%(n)d damage", "%(n)d damage", o.damage) % {"n": o.damage})
    if o.tapped:
        parts.append(_("tapped"))
    if o.sick:
        parts.append(_("summoning sick"))
    return f"{o.display_name(language)} ({', '.join(parts)})"


def card_sentence(state: GameState, o: Obj, language: str) -> str:
    combat = state.combat
    values = {"player": player_name(o.controller), "card": details(state, o, language)}
    if combat is not None and o.id in combat.attackers:
        target = combat.attackers[o.id]
        if target is None:
            return _("%(player)s controls %(card)s, attacking nothing.") % values
        values["target"] = name_of(state, target, language)
        return _("%(player)s controls %(card)s, attacking %(target)s.") % values
    return _("%(player)s controls %(card)s.") % values


def life_sentence(state: GameState, gid: str, team: bool) -> str:
    """``Bob: 20 life.`` or ``Team Bob & Dave: 30 life.``"""
    if team:
        life = state.teams[gid].life
        return ngettext("Team %(names)s: %(life)d life.", "Team %(names)s: %(life)d life.",
                        abs(life)) % {"names": player_label(state, gid), "life": life}
    life = state.life(gid)
    return ngettext("%(name)s: %(life)d life.", "%(name)s: %(life)d life.",
                    abs(life)) % {"name": player_name(gid), "life": life}


def zones_of(state: GameState, pid: str) -> dict[str, list[Obj]]:
    """The objects ``pid`` owns outside the battlefield and the command zone, by zone,
    zones in their usual order."""
    zones: dict[str, list[Obj]] = {}
    for o in state.objects.values():
        if o.zone not in ("battlefield", "command", "outside") and o.owner == pid:
            zones.setdefault(o.zone, []).append(o)
    order = [z for z in ZONE_ORDER if z in zones] + sorted(set(zones) - set(ZONE_ORDER))
    return {z: zones[z] for z in order}


def zone_sentences(state: GameState, pid: str, language: str) -> list[str]:
    """Sentences for the cards ``pid`` owns outside the battlefield."""
    return [zone_sentence(z, player_name(pid), ", ".join(o.display_name(language) for o in objs))
            for z, objs in zones_of(state, pid).items()]
