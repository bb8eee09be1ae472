"""The board before the actions: ``setup`` of a scenario document -> a game state.

Players and Two-Headed Giant teams, the objects in each zone, the turn, and Planechase's
planar decks. Every error names the path of its field (``setup.battlefield[2].power``).
The parser of one object is also the parser of an ``enter`` action's new object.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from engine.cards import UnknownCard, find_card
from engine.document import MAX_NUMBER, MAX_OBJECTS, OBJECT_ID, IdDict, is_int
from engine.errors import CapExceeded, DocumentError, ErrorItem, Errors
from engine.params import PRUNED
from engine.protection import QUALITIES
from engine.state import (
    CARD_TYPES,
    COLORS,
    KEYWORDS,
    STEPS,
    GameState,
    Obj,
    Planechase,
    Player,
    Team,
    Turn,
    make_obj,
)
from engine.texts import parse_text

ZONE_LISTS = ("battlefield", "hand", "graveyard", "exile", "library", "command")
"""The zones ``setup`` lists objects in."""


def parse_setup(setup: Any) -> GameState:
    """The board of ``setup``; raises :class:`DocumentError` with every error found."""
    err = Errors()
    if not isinstance(setup, dict):
        raise DocumentError.at("setup", "`setup` must be a mapping")
    for key in setup:
        if key not in ("turn", "players", "teams", "battlefield", "hand", "graveyard",
                       "exile", "library", "command", "planechase"):
            err.add(f"setup.{key}", f"unknown field {key!r}")
    players, teams = _players(setup, err)
    err.raise_if_any()
    objects: dict[str, Obj] = IdDict()
    for zone in ZONE_LISTS:
        entries = setup.get(zone, [])
        if not isinstance(entries, list):
            err.add(f"setup.{zone}", f"`{zone}` must be a list of objects")
            continue
        for i, raw in enumerate(entries):
            if raw is PRUNED:  # switched off by its `when:` in this variant
                continue
            obj = parse_object(raw, f"setup.{zone}[{i}]", zone, players, err)
            if obj is None:
                continue
            if obj.id in objects or obj.id in players or obj.id in teams:
                err.add(f"setup.{zone}[{i}].id", f"duplicate id {obj.id!r}")
                continue
            objects[obj.id] = obj
    if len(objects) > MAX_OBJECTS:
        raise CapExceeded(ErrorItem("setup", f"at most {MAX_OBJECTS} objects"))
    turn = _turn(setup.get("turn"), players, err)
    err.raise_if_any()
    for o in objects.values():
        if o.protector is not None and o.protector not in players:
            err.add("setup", f"{o.id}: protector {o.protector!r} is not a player")
    planechase = _planechase(setup.get("planechase"), objects, players, err)
    err.raise_if_any()
    # Plain dicts in the state: IdDict's forgiving lookups are for parsing only (its
    # Python-level `in` would slow every lookup of every run).
    # A player's library is exactly the cards `setup.library` lists for them, top first;
    # a player with none listed has an unknown library (see GameState.libraries).
    libraries: dict[str, tuple[str, ...]] = {}
    for o in objects.values():
        if o.zone == "library":
            libraries[o.owner] = (*libraries.get(o.owner, ()), o.id)
    return GameState(players=dict(players), objects=dict(objects), turn=turn,
                     teams=dict(teams), planechase=planechase, libraries=libraries,
                     listed_libraries=frozenset(libraries))


def _players(setup: Mapping[str, Any], err: Errors) -> tuple[dict[str, Player],
                                                              dict[str, Team]]:
    raw_players = setup.get("players")
    players: dict[str, Player] = IdDict()
    if not isinstance(raw_players, list) or len(raw_players) < 2:
        err.add("setup.players", "`players` must list at least two players")
        return players, IdDict()
    for i, p in enumerate(raw_players):
        path = f"setup.players[{i}]"
        if not isinstance(p, dict):
            err.add(path, "a player is a mapping {id, life}")
            continue
        for k in p:
            if k not in ("id", "life", "hexproof", "protection"):
                err.add(f"{path}.{k}", f"unknown field {k!r}; expected id, life, hexproof, "
                                       f"protection")
        pid = p.get("id")
        if not isinstance(pid, str) or not OBJECT_ID.match(pid):
            err.add(f"{path}.id", "a player id is a short identifier (letters, digits, -, _)")
            continue
        if pid in players:
            err.add(f"{path}.id", f"duplicate id {pid!r}")
            continue
        life = p.get("life", 20)
        if not is_int(life) or abs(life) > MAX_NUMBER:
            err.add(f"{path}.life", "`life` must be a whole number")
            life = 20
        hexproof = p.get("hexproof", False)
        if not isinstance(hexproof, bool):
            err.add(f"{path}.hexproof", "`hexproof` must be true or false")
        protection = parse_qualities(p.get("protection"), f"{path}.protection", err)
        players[pid] = Player(pid, life, bool(hexproof), protection=protection)
    teams: dict[str, Team] = IdDict()
    raw_teams = setup.get("teams")
    if raw_teams is not None:
        if not isinstance(raw_teams, list) or len(raw_teams) != 2:
            err.add("setup.teams", "Two-Headed Giant needs exactly two teams")
            return players, teams
        for i, t in enumerate(raw_teams):
            path = f"setup.teams[{i}]"
            if not isinstance(t, dict):
                err.add(path, "a team is a mapping {id, members, life}")
                continue
            for k in t:
                if k not in ("id", "members", "life"):
                    err.add(f"{path}.{k}", f"unknown field {k!r}; expected id, members, life")
            tid = t.get("id")
            members = t.get("members")
            if not isinstance(tid, str) or not OBJECT_ID.match(tid) or tid in players:
                err.add(f"{path}.id", "a team id is a short identifier, not a player's id")
                continue
            if not isinstance(members, list) or len(members) != 2:
                err.add(f"{path}.members", "a team has exactly two members")
                continue
            for j, m in enumerate(members):
                if m not in players:
                    err.add(f"{path}.members[{j}]", f"{m!r} is not a player")
                elif players[m].team is not None:
                    err.add(f"{path}.members[{j}]", f"{m} is already in a team")
                else:
                    players[m] = replace(players[m], team=tid)
            life = t.get("life", 30)
            if not is_int(life):
                err.add(f"{path}.life", "`life` must be a whole number")
                life = 30
            teams[tid] = Team(tid, tuple(members), life)
        if len(players) != 4 or any(p.team is None for p in players.values()):
            err.add("setup.teams", "Two-Headed Giant: four players, each in one of the teams")
    return players, teams


def _planechase(raw: Any, objects: Mapping[str, Obj], players: Mapping[str, Player],
                err: Errors) -> Planechase | None:
    """``setup.planechase``: planar decks (top card first), the face-up plane, the rolls
    already made this turn, and whether one communal deck is used (901.15)."""
    planar = [o for o in objects.values() if o.zone == "command"]
    if raw is None:
        if planar:
            err.add("setup.planechase", "planes and phenomena need `setup.planechase` "
                                        "(their planar decks and the face-up plane)")
        return None
    path = "setup.planechase"
    if not isinstance(raw, dict):
        err.add(path, "`planechase` is a mapping {decks, face_up, rolls, communal}")
        return None
    for k in raw:
        if k not in ("decks", "face_up", "rolls", "communal"):
            err.add(f"{path}.{k}", f"unknown field {k!r}; expected decks, face_up, rolls, "
                                   f"communal")
    communal = raw.get("communal", False)
    if not isinstance(communal, bool):
        err.add(f"{path}.communal", "`communal` must be true or false")
        communal = False
    decks_raw = raw.get("decks", {})
    decks: dict[str, tuple[str, ...]] = {}
    placed: dict[str, str] = {}  # plane or phenomenon id -> where the setup puts it

    def planar_card(oid: Any, at: str) -> Obj | None:
        """The plane or phenomenon ``oid``, if it is one of `setup.command` not placed
        yet (else an error at ``at``)."""
        obj = objects.get(oid)
        if obj is None or obj.zone != "command":
            err.add(at, f"{oid!r} is not a plane or phenomenon of `setup.command`")
            return None
        if oid in placed:
            err.add(at, f"{oid} is already in {placed[oid]}")
            return None
        return obj

    if not isinstance(decks_raw, dict):
        err.add(f"{path}.decks", "`decks` is a mapping player -> list of plane ids, top first")
        decks_raw = {}
    for owner, ids in decks_raw.items():
        at = f"{path}.decks.{owner}"
        if communal and owner != "communal":
            err.add(at, "with `communal: true` the one deck is named `communal`")
        elif not communal and owner not in players:
            err.add(at, f"{owner!r} is not a player")
        if not isinstance(ids, list):
            err.add(at, "a planar deck is a list of plane or phenomenon ids, top first")
            continue
        for j, oid in enumerate(ids):
            obj = planar_card(oid, f"{at}[{j}]")
            if obj is None:
                continue
            if not communal and obj.owner != owner:
                err.add(f"{at}[{j}]", f"{oid} is owned by {obj.owner}: it goes in their deck")
            else:
                placed[oid] = at
        decks[str(owner)] = tuple(ids)
    face_up_raw = raw.get("face_up")
    face_up: tuple[str, ...] = ()
    if face_up_raw is not None:
        items = face_up_raw if isinstance(face_up_raw, list) else [face_up_raw]
        for oid in items:
            if planar_card(oid, f"{path}.face_up") is not None:
                placed[oid] = "face_up"
        face_up = tuple(items)
    for obj in planar:
        if obj.id not in placed:
            err.add("setup.command", f"{obj.id} is neither face up nor in a planar deck")
    rolls_raw = raw.get("rolls", {})
    rolls: dict[str, int] = {}
    if not isinstance(rolls_raw, dict):
        err.add(f"{path}.rolls", "`rolls` is a mapping player -> rolls already made this turn")
    else:
        for pl, n in rolls_raw.items():
            if pl not in players or not is_int(n) or not 0 <= n <= 50:
                err.add(f"{path}.rolls.{pl}", "a player and a whole number of rolls from 0")
            else:
                rolls[pl] = n
    return Planechase(decks=decks, face_up=face_up, rolls=rolls, communal=communal)


def _turn(raw: Any, players: Mapping[str, Player], err: Errors) -> Turn:
    if raw is None:
        return Turn(next(iter(players)), "main1", 1)
    if not isinstance(raw, dict):
        err.add("setup.turn", "`turn` is a mapping {active, step, number}")
        return Turn(next(iter(players)))
    for k in raw:
        if k not in ("active", "step", "number"):
            err.add(f"setup.turn.{k}", f"unknown field {k!r}; expected active, step, number")
    active = raw.get("active", next(iter(players)))
    if active not in players:
        err.add("setup.turn.active", f"{active!r} is not a player")
        active = next(iter(players))
    step = raw.get("step", "main1")
    if step not in STEPS:
        err.add("setup.turn.step", f"unknown step {step!r}; expected one of: {', '.join(STEPS)}")
        step = "main1"
    number = raw.get("number", 1)
    if not is_int(number) or number < 1:
        err.add("setup.turn.number", "`number` must be a whole number from 1")
        number = 1
    return Turn(active, step, number)


OBJECT_FIELDS = ("id", "card", "name", "types", "subtypes", "supertypes", "power", "toughness",
                 "loyalty", "keywords", "damage", "counters", "tapped", "sick", "controller",
                 "owner", "protector", "defense", "colors", "protection", "chosen_name")


def parse_object(raw: Any, path: str, zone: str, players: Mapping[str, Player],
                 err: Errors, *, in_setup: bool = True, is_copy: bool = False,
                 ) -> Obj | None:
    """One object (a catalog card or an inline one) in ``zone``; None after an error."""
    if not isinstance(raw, dict):
        err.add(path, "an object is a mapping with at least `id`")
        return None
    n_before = len(err.items)
    for k in raw:
        if k not in OBJECT_FIELDS:
            err.add(f"{path}.{k}", f"unknown field {k!r}")
    oid = raw.get("id")
    if not isinstance(oid, str) or not OBJECT_ID.match(oid):
        err.add(f"{path}.id", "an object id is a letter, then at most 39 letters, digits, "
                              "`_` or `-`")
        oid = "?"  # the object's other fields are still checked (n_before: no object)
    card = None
    if "card" in raw:
        try:
            card = find_card(str(raw["card"]))
        except UnknownCard:
            err.add(f"{path}.card", f"unknown card {raw['card']!r}")
            return None
    elif "name" in raw and not isinstance(raw["name"], dict):
        err.add(f"{path}.name", "`name` is a text mapping, e.g. {en: Bear}")
    elif "name" in raw:
        parse_text(raw["name"], f"{path}.name", err, required=True)
    if card is not None and "name" in raw:
        err.add(f"{path}.name", "`name` is only for inline objects; a catalog card has its own")
    owner = raw.get("owner", raw.get("controller"))
    controller = raw.get("controller", owner)
    if zone != "battlefield" and "controller" in raw and "owner" not in raw:
        owner = controller
    if owner is None:
        err.add(f"{path}.controller" if zone == "battlefield" else f"{path}.owner",
                "who controls (or owns) this object?")
        return None
    for key, val in (("controller", controller), ("owner", owner)):
        if val not in players:
            err.add(f"{path}.{key}", f"{val!r} is not a player")
    def listf(key: str, default: Any) -> Any:
        v = raw.get(key)
        if v is None:
            return default
        if not isinstance(v, list) or not all(isinstance(x, str) for x in v):
            err.add(f"{path}.{key}", f"`{key}` must be a list of words")
            return default
        return v
    types = listf("types", sorted(card.types) if card else None)
    if types is None:
        if not is_copy:  # a copy takes the types of what it copies (707.2)
            err.add(f"{path}.types", "an inline object needs `types` (e.g. [creature])")
        types = []
    keywords = listf("keywords", sorted(card.keywords) if card else [])
    for i, kw in enumerate(keywords):
        if kw not in KEYWORDS:
            err.add(f"{path}.keywords[{i}]", f"unknown keyword {kw!r}; known: "
                                             f"{', '.join(sorted(KEYWORDS))}")
    kwset = frozenset(keywords)
    if "trample-over-planeswalkers" in kwset:
        kwset |= {"trample"}
    instances = ({kw: keywords.count(kw) for kw in kwset if keywords.count(kw) > 1}
                 if len(keywords) != len(kwset) else {})  # a keyword listed twice
    colors = listf("colors", None)
    if colors is None:  # the card's own (202.2), known to be right
        colors = card.colors if card else ()
    else:
        for i, color in enumerate(colors):
            if color not in COLORS:
                err.add(f"{path}.colors[{i}]", f"unknown color {color!r}; known: "
                                               f"{', '.join(COLORS)}")
    protection = parse_qualities(raw.get("protection"), f"{path}.protection", err,
                                 card.protection if card else frozenset())
    chosen_name = raw.get("chosen_name")
    if chosen_name is not None:
        try:
            find_card(str(chosen_name))
        except UnknownCard:
            err.add(f"{path}.chosen_name", f"{chosen_name!r} is not a catalog card's slug: "
                                           f"the name chosen is a card's name")
    def intf(key: str, default: int | None, lo: int = -MAX_NUMBER) -> int | None:
        v = raw.get(key, default)
        if v is None:
            return None
        if not is_int(v) or not lo <= v <= MAX_NUMBER:
            err.add(f"{path}.{key}", f"`{key}` must be a whole number"
                                     + (f" from {lo}" if lo > -MAX_NUMBER else ""))
            return default
        return int(v)
    counters_raw = raw.get("counters", {})
    counters: dict[str, int] = {}
    if not isinstance(counters_raw, dict):
        err.add(f"{path}.counters", "`counters` is a mapping kind -> number")
    else:
        for kind, n in counters_raw.items():
            if not isinstance(kind, str) or not is_int(n) or not 0 <= n <= MAX_NUMBER:
                err.add(f"{path}.counters.{kind}", "a counter count is a whole number from 0")
            elif n:
                counters[kind] = n
    for key in ("tapped", "sick"):
        if key in raw and not isinstance(raw[key], bool):
            err.add(f"{path}.{key}", f"`{key}` must be true or false")
    name = dict(card.name) if card else dict(raw.get("name") or {"en": oid}) if isinstance(
        raw.get("name", {}), dict) else {"en": oid}
    for t in types:
        if t not in CARD_TYPES:
            err.add(f"{path}.types", f"unknown card type {t!r}")
        elif t in ("plane", "phenomenon") and zone != "command":
            err.add(f"{path}.types", f"a {t} card is never anywhere but the command zone "
                                     f"(list it in `setup.command`)")
    protector = raw.get("protector")
    if len(err.items) > n_before:
        return None
    obj = make_obj(  # Obj(...), faster: every variant of a check builds its objects
        id=oid, name=name, types=frozenset(types), controller=str(controller),
        owner=str(owner), zone=zone, card=card.slug if card else None,
        subtypes=tuple(listf("subtypes", list(card.subtypes) if card else [])),
        supertypes=frozenset(listf("supertypes", sorted(card.supertypes) if card else [])),
        power=intf("power", card.power if card else None),
        toughness=intf("toughness", card.toughness if card else None),
        loyalty=intf("loyalty", card.loyalty if card else None, 0),
        defense=intf("defense", card.defense if card else None, 0),
        keywords=kwset, instances=instances, colors=frozenset(colors),
        protection=protection,
        chosen_name=str(chosen_name) if chosen_name is not None else None,
        counters=counters, damage=intf("damage", 0, 0) or 0,
        tapped=bool(raw.get("tapped", False)), sick=bool(raw.get("sick", False)),
        protector=str(protector) if protector is not None else None,
        # Supertypes the document states are exactly those (a planeswalker without
        # `legendary` isn't legendary); otherwise the Ixalan errata applies (sba).
        pw_errata="supertypes" not in raw,
    )
    if obj.is_creature and (obj.power is None or obj.toughness is None) and not is_copy:
        err.add(path, f"{oid} is a creature: it needs `power` and `toughness`")
    if in_setup and zone == "battlefield" and obj.is_planeswalker and "loyalty" not in counters:
        err.add(f"{path}.counters", f"{oid} is a planeswalker on the battlefield: it has exactly "
                                    f"the counters written in setup, so give "
                                    f"`counters: {{loyalty: N}}` (N at least 1)")
    if (zone == "battlefield" and card is not None and card.statics
            and obj.chosen_name is None
            and any(e.kind == "protection-from-chosen-name" for e in card.statics)):
        err.add(f"{path}.chosen_name", f"{oid} is {card.name['en']}: give the card name chosen "
                                       f"as it entered, `chosen_name: SLUG`")
    if zone == "battlefield" and obj.is_battle and obj.protector is None:
        err.add(f"{path}.protector", f"{oid} is a battle: name its `protector`")
    return obj



def parse_qualities(raw: Any, path: str, err: Errors,
                    default: frozenset[str] = frozenset()) -> frozenset[str]:
    """A ``protection`` list: each a color, a card type in the plural, ``everything`` or a
    catalog card's slug (protection from that card's name)."""
    if raw is None:
        return default
    if not isinstance(raw, list) or not all(isinstance(q, str) for q in raw):
        err.add(path, "`protection` is a list of qualities (a color, a card type in the "
                      "plural, `everything`, or a card's slug)")
        return default
    for i, quality in enumerate(raw):
        if quality in QUALITIES:
            continue
        try:
            find_card(quality)
        except UnknownCard:
            err.add(f"{path}[{i}]", f"unknown quality {quality!r}: protection is from a "
                                    f"color ({', '.join(COLORS)}), a card type in the plural "
                                    f"(creatures, planeswalkers, ...), everything, or a "
                                    f"catalog card's slug")
    return frozenset(raw)
