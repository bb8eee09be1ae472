"""Scenario documents <-> engine values.

Parses and validates a scenario document (format 1, see docs/scenario-format.md): every
error names the path of the field it concerns (``actions[2].block.bears``). Parameters
are expanded from a seed; seed 0 is the default variant.
"""

from __future__ import annotations

import itertools
import math
import random
import re
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from engine.actions import Action
from engine.cards import UnknownCard, find_card
from engine.characters import printable, text_problem
from engine.errors import CapExceeded, DocumentError, ErrorItem
from engine.state import (
    KEYWORDS,
    STEPS,
    GameState,
    Obj,
    Planechase,
    Player,
    Team,
    Turn,
)

FORMAT = 1
LANGUAGES = ("en", "it", "es")
TOPICS = ("trample-into-planeswalkers", "removed-attack-target", "redirection-era",
          "combat-damage-assignment", "loyalty", "loyalty-abilities", "uniqueness-and-legend",
          "two-headed-giant", "planechase")
QUESTION_KINDS = ("number", "yesno", "choice", "multi", "assign", "eras")
ACTION_KINDS = ("attack", "block", "order", "assign", "combat_damage", "cast", "damage",
                "activate", "enter", "move", "control", "counters", "become", "choose",
                "step", "next_turn", "roll_planar_die", "planeswalk")
DIE_RESULTS = ("blank", "chaos", "planeswalk")
BECOME_FIELDS = ("types", "subtypes", "supertypes", "power", "toughness", "keywords")
QUERY_KINDS = {"life": "int", "loyalty": "int", "damage": "int", "counters": "int",
               "zone": "str", "controller": "str", "attacking": "str", "blocked": "bool",
               "legal": "bool", "max_damage_to": "int", "attack_targets": "list",
               "face_up_plane": "str", "planar_controller": "str", "roll_cost": "int",
               "subtypes": "list"}
MOVE_ZONES = ("graveyard", "exile", "hand", "library")

# Caps: any accepted document runs in well under 10 ms.
MAX_OBJECTS = 40
MAX_ACTIONS = 40
MAX_QUESTIONS = 20
MAX_OPTIONS = 8
MAX_PARAMS = 8
MAX_PARAM_VALUES = 64
MAX_DEPTH = 12
MAX_NODES = 4000
MAX_TEXT = 5000
MAX_NUMBER = 1000
VARIANTS_EXHAUSTIVE = 64
VARIANT_SAMPLE = 24
KEPT_VARIANTS = 256  # per scenario, in memory; past that the kept ones are dropped

SLUG = re.compile(r"^[a-z0-9][a-z0-9-]{0,63}$")
OBJECT_ID = re.compile(r"^[A-Za-z][A-Za-z0-9_-]{0,39}$")
PARAM_REF = re.compile(r"^\$([a-z_][a-z0-9_]*)$")


# -- value objects -------------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class Param:
    name: str
    values: tuple[Any, ...]
    default: Any


@dataclass(frozen=True, slots=True)
class Query:
    kind: str
    arg: Any
    path: str
    action: Action | None = None

    @property
    def value_type(self) -> str:
        return QUERY_KINDS[self.kind]


@dataclass(frozen=True, slots=True)
class Claim:
    query: Query
    value: Any


@dataclass(frozen=True, slots=True)
class Option:
    id: str
    text: Mapping[str, str]
    claim: Claim


@dataclass(frozen=True, slots=True)
class Question:
    id: str
    kind: str
    ask: Mapping[str, str]
    path: str
    query: Query | None = None
    options: tuple[Option, ...] = ()
    attacker: str | None = None
    goal: str | None = None
    claim: Claim | None = None
    expect: Any = None
    has_expect: bool = False


@dataclass(frozen=True, slots=True)
class Variant:
    """One concrete variant of a scenario: parameters bound, board built. ``seed`` is a
    seed that draws ``values`` (the first one asked for, see :meth:`Scenario.variant`)."""

    seed: int
    values: Mapping[str, Any]
    state: GameState
    actions: tuple[Action, ...]
    new_objects: Mapping[int, Obj]
    questions: tuple[Question, ...]


@dataclass(frozen=True, slots=True, eq=False)
class Scenario:
    """A parsed scenario document (compared and hashed by identity: parse once, keep)."""

    id: str
    topic: str
    difficulty: int
    eras: tuple[str, ...] | None
    title: Mapping[str, str]
    story: Mapping[str, str]
    explain: Mapping[str, str]
    params: tuple[Param, ...]
    document: Mapping[str, Any]
    warnings: tuple[ErrorItem, ...] = field(default=())
    _variants: dict[tuple[tuple[str, str], ...], Variant] = field(
        default_factory=dict, compare=False, repr=False)

    def values_for(self, seed: int) -> dict[str, Any]:
        """Parameter values of a variant; seed 0 is every parameter at its default."""
        if seed == 0 or not self.params:
            return {p.name: p.default for p in self.params}
        rng = random.Random(f"{self.id}:{seed}")
        return {p.name: rng.choice(p.values) for p in self.params}

    def variant_count(self) -> int:
        n = 1
        for p in self.params:
            n *= len(p.values)
        return n

    def all_value_sets(self) -> list[dict[str, Any]]:
        """Every variant when the space is small, else the default and a fixed sample."""
        if self.variant_count() <= VARIANTS_EXHAUSTIVE:
            names = [p.name for p in self.params]
            return [dict(zip(names, combo, strict=True))
                    for combo in itertools.product(*(p.values for p in self.params))]
        return [self.values_for(s) for s in range(VARIANT_SAMPLE)]

    def variant(self, seed: int = 0) -> Variant:
        """The variant of ``seed``. Many seeds draw the same parameter values, and a
        variant is immutable, so one is built per set of values and kept: its ``seed`` is
        the first seed that drew those values, the key callers cache its outcomes under."""
        values = self.values_for(seed)
        key = tuple((name, repr(value)) for name, value in values.items())
        cached = self._variants.get(key)
        if cached is None:
            if len(self._variants) >= KEPT_VARIANTS:
                self._variants.clear()
            cached = self._variants[key] = self.bind(values, seed)
        return cached

    def bind(self, values: Mapping[str, Any], seed: int = 0) -> Variant:
        doc = _substitute(self.document, values, "")
        return _build(doc, seed, values)


# -- parsing ---------------------------------------------------------------------------------

class _Errors:
    def __init__(self) -> None:
        self.items: list[ErrorItem] = []

    def add(self, path: str, message: str, rule: str | None = None) -> None:
        self.items.append(ErrorItem(path, message, rule))

    def raise_if_any(self) -> None:
        if self.items:
            raise DocumentError(self.items)


def _check_size(node: Any, path: str, depth: int = 0, counter: list[int] | None = None,
                problems: list[ErrorItem] | None = None) -> None:
    """The caps (raised at once) and the characters of every key and text (collected in
    ``problems``), over the whole document before any field is read: a document dict from
    the form editor or a JSON body is checked as one read from YAML is."""
    counter = counter if counter is not None else [0]
    problems = problems if problems is not None else []
    counter[0] += 1
    if counter[0] > MAX_NODES:
        raise CapExceeded(ErrorItem(path or "(document)",
                                    f"the document is too large (more than {MAX_NODES} values)"))
    if depth > MAX_DEPTH:
        raise CapExceeded(ErrorItem(path, f"the document is nested too deeply "
                                          f"(more than {MAX_DEPTH} levels)"))
    if isinstance(node, dict):
        for k, v in node.items():
            name = str(k)
            why = text_problem(k) if isinstance(k, str) else None
            if why:
                name = printable(k)
                problems.append(ErrorItem(path or "(document)", f'the key "{name}" {why}'))
            _check_size(v, f"{path}.{name}" if path else name, depth + 1, counter, problems)
    elif isinstance(node, list):
        for i, v in enumerate(node):
            _check_size(v, f"{path}[{i}]", depth + 1, counter, problems)
    elif isinstance(node, str):
        if len(node) > MAX_TEXT:
            raise CapExceeded(ErrorItem(path, f"text longer than {MAX_TEXT} characters"))
        why = text_problem(node)
        if why:
            problems.append(ErrorItem(path, why))
    elif isinstance(node, float) and not math.isfinite(node):
        problems.append(ErrorItem(path, "must be a finite number"))


def parse(document: Any) -> Scenario:
    """Validate a document's shape and parameters and return the scenario; variants are
    built (and their boards and actions checked) by ``Scenario.variant``."""
    if not isinstance(document, dict):
        raise DocumentError.at("", "a scenario document is a mapping of fields")
    problems: list[ErrorItem] = []
    _check_size(document, "", problems=problems)
    if problems:
        raise DocumentError(problems)
    err = _Errors()
    allowed = {"format", "id", "topic", "difficulty", "eras", "title", "story", "setup",
               "actions", "questions", "explain", "params"}
    for key in document:
        if key not in allowed:
            err.add(str(key), f"unknown field {key!r}; expected one of: "
                              f"{', '.join(sorted(allowed))}")
    if document.get("format") != FORMAT:
        err.add("format", f"`format` must be {FORMAT}")
    sid = document.get("id")
    if not isinstance(sid, str) or not SLUG.match(sid):
        err.add("id", "`id` must be a slug: lowercase letters, digits and hyphens")
    topic = document.get("topic")
    if topic not in TOPICS:
        err.add("topic", f"unknown topic {topic!r}; expected one of: {', '.join(TOPICS)}")
    difficulty = document.get("difficulty")
    if not (isinstance(difficulty, int) and not isinstance(difficulty, bool)
            and 1 <= difficulty <= 5):
        err.add("difficulty", "`difficulty` must be a whole number from 1 to 5")
    eras = document.get("eras")
    era_tuple: tuple[str, ...] | None = None
    if eras is not None:
        from engine.eras import ERA_KEYS
        if not isinstance(eras, list) or not eras:
            err.add("eras", "`eras` must be a non-empty list of era ids")
        else:
            for i, e in enumerate(eras):
                if e not in ERA_KEYS:
                    err.add(f"eras[{i}]", f"unknown era {e!r}; known eras: "
                                          f"{', '.join(ERA_KEYS)}")
            if len(set(map(str, eras))) != len(eras):
                err.add("eras", "an era is listed twice")
            era_tuple = tuple(e for e in ERA_KEYS if e in eras)
    title = _text(document.get("title"), "title", err, required=True)
    story = _text(document.get("story"), "story", err, required=False)
    explain = _text(document.get("explain"), "explain", err, required=False)
    params = _params(document.get("params"), err)
    for key in ("setup", "actions", "questions"):
        if key not in document:
            err.add(key, f"`{key}` is required")
    if not isinstance(document.get("actions", []), list):
        err.add("actions", "`actions` must be a list")
    elif len(document.get("actions", [])) > MAX_ACTIONS:
        err.add("actions", f"at most {MAX_ACTIONS} actions")
    questions = document.get("questions", [])
    if not isinstance(questions, list) or not questions:
        err.add("questions", "`questions` must be a non-empty list")
    elif len(questions) > MAX_QUESTIONS:
        err.add("questions", f"at most {MAX_QUESTIONS} questions")
    err.raise_if_any()
    assert isinstance(difficulty, int)
    scenario = Scenario(str(sid), str(topic), difficulty, era_tuple, title, story,
                        explain, params, document)
    # Build the default variant now: every structural error surfaces at parse time.
    scenario.variant(0)
    return scenario


def _text(value: Any, path: str, err: _Errors, *, required: bool) -> dict[str, str]:
    if value is None:
        if required:
            err.add(path, f"`{path}` is required: a mapping language -> text with at least `en`")
        return {}
    if not isinstance(value, dict):
        err.add(path, "a text is a mapping language -> text, e.g. {en: ..., it: ..., es: ...}")
        return {}
    out: dict[str, str] = {}
    for lang, text in value.items():
        if lang not in LANGUAGES:
            err.add(f"{path}.{lang}", f"unknown language {lang!r}; expected en, it or es")
        elif not isinstance(text, str) or not text.strip():
            err.add(f"{path}.{lang}", "must be a non-empty string")
        else:
            out[lang] = text
    if "en" not in out and isinstance(value, dict) and "en" not in value:
        err.add(f"{path}.en", "the English text (`en`) is required")
    return out


def _params(value: Any, err: _Errors) -> tuple[Param, ...]:
    if value is None:
        return ()
    if not isinstance(value, dict):
        err.add("params", "`params` is a mapping name -> {range: [lo, hi]} or {choice: [...]}")
        return ()
    if len(value) > MAX_PARAMS:
        err.add("params", f"at most {MAX_PARAMS} parameters")
    out = []
    for name, spec in value.items():
        path = f"params.{name}"
        if not isinstance(name, str) or not re.match(r"^[a-z_][a-z0-9_]*$", name):
            err.add(path, "a parameter name is lowercase letters, digits and underscores")
            continue
        if not isinstance(spec, dict) or not ({"range", "choice"} & spec.keys()):
            err.add(path, "a parameter needs `range: [lo, hi]` or `choice: [...]`")
            continue
        for k in spec:
            if k not in ("range", "choice", "default"):
                err.add(f"{path}.{k}", f"unknown field {k!r}; expected range, choice, default")
        if "range" in spec and "choice" in spec:
            err.add(path, "give `range` or `choice`, not both")
            continue
        values: tuple[Any, ...]
        if "range" in spec:
            r = spec["range"]
            if (not isinstance(r, list) or len(r) != 2
                    or not all(isinstance(v, int) and not isinstance(v, bool) for v in r)
                    or r[0] > r[1]):
                err.add(f"{path}.range", "`range` is [lo, hi], two whole numbers, lo <= hi")
                continue
            if r[1] - r[0] + 1 > MAX_PARAM_VALUES:
                err.add(f"{path}.range", f"at most {MAX_PARAM_VALUES} values")
                continue
            values = tuple(range(r[0], r[1] + 1))
        else:
            c = spec["choice"]
            if not isinstance(c, list) or not c or len(c) > MAX_PARAM_VALUES or not all(
                    isinstance(v, (str, int)) and not isinstance(v, bool) for v in c):
                err.add(f"{path}.choice", "`choice` is a non-empty list of strings or numbers")
                continue
            values = tuple(c)
        default = spec.get("default", values[0])
        if default not in values:
            err.add(f"{path}.default", f"the default {default!r} is not one of the values")
            continue
        out.append(Param(name, values, default))
    return tuple(out)


def _substitute(node: Any, values: Mapping[str, Any], path: str) -> Any:
    if isinstance(node, str):
        m = PARAM_REF.match(node)
        if m:
            if m.group(1) not in values:
                raise DocumentError.at(path, f"unknown parameter ${m.group(1)}")
            return values[m.group(1)]
        return node
    if isinstance(node, dict):
        if path == "" and "params" in node:
            node = {k: v for k, v in node.items() if k != "params"}
        return {k: _substitute(v, values, f"{path}.{k}" if path else str(k))
                for k, v in node.items()}
    if isinstance(node, list):
        return [_substitute(v, values, f"{path}[{i}]") for i, v in enumerate(node)]
    return node


# -- building a variant -------------------------------------------------------------------------

def _is_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _build(doc: Mapping[str, Any], seed: int, values: Mapping[str, Any]) -> Variant:
    err = _Errors()
    setup = doc.get("setup")
    if not isinstance(setup, dict):
        raise DocumentError.at("setup", "`setup` must be a mapping")
    for key in setup:
        if key not in ("turn", "players", "teams", "battlefield", "hand", "graveyard",
                       "exile", "library", "command", "planechase"):
            err.add(f"setup.{key}", f"unknown field {key!r}")
    players, teams = _players(setup, err)
    err.raise_if_any()
    objects: dict[str, Obj] = {}
    for zone in ("battlefield", "hand", "graveyard", "exile", "library", "command"):
        entries = setup.get(zone, [])
        if not isinstance(entries, list):
            err.add(f"setup.{zone}", f"`{zone}` must be a list of objects")
            continue
        for i, raw in enumerate(entries):
            obj = _object(raw, f"setup.{zone}[{i}]", zone, players, err)
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
    state = GameState(players=players, objects=objects, turn=turn, teams=teams,
                      planechase=planechase)
    actions, new_objects = _actions(doc.get("actions", []), state, err)
    known = set(objects) | {o.id for o in new_objects.values()}
    questions = _questions(doc.get("questions", []), state, known, err)
    err.raise_if_any()
    return Variant(seed, dict(values), state, tuple(actions), new_objects, tuple(questions))


def _players(setup: Mapping[str, Any], err: _Errors) -> tuple[dict[str, Player],
                                                              dict[str, Team]]:
    raw_players = setup.get("players")
    players: dict[str, Player] = {}
    if not isinstance(raw_players, list) or len(raw_players) < 2:
        err.add("setup.players", "`players` must list at least two players")
        return players, {}
    for i, p in enumerate(raw_players):
        path = f"setup.players[{i}]"
        if not isinstance(p, dict):
            err.add(path, "a player is a mapping {id, life}")
            continue
        for k in p:
            if k not in ("id", "life", "hexproof"):
                err.add(f"{path}.{k}", f"unknown field {k!r}; expected id, life, hexproof")
        pid = p.get("id")
        if not isinstance(pid, str) or not OBJECT_ID.match(pid):
            err.add(f"{path}.id", "a player id is a short identifier (letters, digits, -, _)")
            continue
        if pid in players:
            err.add(f"{path}.id", f"duplicate id {pid!r}")
            continue
        life = p.get("life", 20)
        if not _is_int(life) or abs(life) > MAX_NUMBER:
            err.add(f"{path}.life", "`life` must be a whole number")
            life = 20
        hexproof = p.get("hexproof", False)
        if not isinstance(hexproof, bool):
            err.add(f"{path}.hexproof", "`hexproof` must be true or false")
        players[pid] = Player(pid, life, bool(hexproof))
    teams: dict[str, Team] = {}
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
            if not _is_int(life):
                err.add(f"{path}.life", "`life` must be a whole number")
                life = 30
            teams[tid] = Team(tid, tuple(members), life)
        if len(players) != 4 or any(p.team is None for p in players.values()):
            err.add("setup.teams", "Two-Headed Giant: four players, each in one of the teams")
    return players, teams


def _planechase(raw: Any, objects: Mapping[str, Obj], players: Mapping[str, Player],
                err: _Errors) -> Planechase | None:
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
            if pl not in players or not _is_int(n) or not 0 <= n <= 50:
                err.add(f"{path}.rolls.{pl}", "a player and a whole number of rolls from 0")
            else:
                rolls[pl] = n
    return Planechase(decks=decks, face_up=face_up, rolls=rolls, communal=communal)


def _turn(raw: Any, players: Mapping[str, Player], err: _Errors) -> Turn:
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
    if not _is_int(number) or number < 1:
        err.add("setup.turn.number", "`number` must be a whole number from 1")
        number = 1
    return Turn(active, step, number)


OBJECT_FIELDS = ("id", "card", "name", "types", "subtypes", "supertypes", "power", "toughness",
                 "loyalty", "keywords", "damage", "counters", "tapped", "sick", "controller",
                 "owner", "protector", "defense")


def _object(raw: Any, path: str, zone: str, players: Mapping[str, Player], err: _Errors,
            *, in_setup: bool = True) -> Obj | None:
    if not isinstance(raw, dict):
        err.add(path, "an object is a mapping with at least `id`")
        return None
    n_before = len(err.items)
    for k in raw:
        if k not in OBJECT_FIELDS:
            err.add(f"{path}.{k}", f"unknown field {k!r}")
    oid = raw.get("id")
    if not isinstance(oid, str) or not OBJECT_ID.match(oid):
        err.add(f"{path}.id", "an object id is a short identifier (letters, digits, -, _)")
        return None
    card = None
    if "card" in raw:
        try:
            card = find_card(str(raw["card"]))
        except UnknownCard:
            err.add(f"{path}.card", f"unknown card {raw['card']!r}")
            return None
    elif "name" in raw and not isinstance(raw["name"], dict):
        err.add(f"{path}.name", "`name` is a text mapping, e.g. {en: Bear}")
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
    def intf(key: str, default: int | None, lo: int = -MAX_NUMBER) -> int | None:
        v = raw.get(key, default)
        if v is None:
            return None
        if not _is_int(v) or not lo <= v <= MAX_NUMBER:
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
            if not isinstance(kind, str) or not _is_int(n) or not 0 <= n <= MAX_NUMBER:
                err.add(f"{path}.counters.{kind}", "a counter count is a whole number from 0")
            elif n:
                counters[kind] = n
    for key in ("tapped", "sick"):
        if key in raw and not isinstance(raw[key], bool):
            err.add(f"{path}.{key}", f"`{key}` must be true or false")
    name = dict(card.name) if card else dict(raw.get("name") or {"en": oid}) if isinstance(
        raw.get("name", {}), dict) else {"en": oid}
    for t in types:
        if t not in ("creature", "planeswalker", "artifact", "enchantment", "land", "battle",
                     "instant", "sorcery", "plane", "phenomenon"):
            err.add(f"{path}.types", f"unknown card type {t!r}")
        elif t in ("plane", "phenomenon") and zone != "command":
            err.add(f"{path}.types", f"a {t} card is never anywhere but the command zone "
                                     f"(list it in `setup.command`)")
    protector = raw.get("protector")
    if len(err.items) > n_before:
        return None
    obj = Obj(
        id=oid, name=name, types=frozenset(types), controller=str(controller),
        owner=str(owner), zone=zone, card=card.slug if card else None,
        subtypes=tuple(listf("subtypes", list(card.subtypes) if card else [])),
        supertypes=frozenset(listf("supertypes", sorted(card.supertypes) if card else [])),
        power=intf("power", card.power if card else None),
        toughness=intf("toughness", card.toughness if card else None),
        loyalty=intf("loyalty", card.loyalty if card else None, 0),
        defense=intf("defense", card.defense if card else None, 0),
        keywords=kwset, counters=counters, damage=intf("damage", 0, 0) or 0,
        tapped=bool(raw.get("tapped", False)), sick=bool(raw.get("sick", False)),
        protector=str(protector) if protector is not None else None,
    )
    if obj.is_creature and (obj.power is None or obj.toughness is None):
        err.add(path, f"{oid} is a creature: it needs `power` and `toughness`")
    if in_setup and zone == "battlefield" and obj.is_planeswalker and "loyalty" not in counters:
        err.add(f"{path}.counters", f"{oid} is a planeswalker on the battlefield: it has exactly "
                                    f"the counters written in setup, so give "
                                    f"`counters: {{loyalty: N}}` (N at least 1)")
    if zone == "battlefield" and obj.is_battle and obj.protector is None:
        err.add(f"{path}.protector", f"{oid} is a battle: name its `protector`")
    return obj


# -- actions ---------------------------------------------------------------------------------

def _actions(raw: Any, state: GameState, err: _Errors) -> tuple[list[Action], dict[int, Obj]]:
    actions: list[Action] = []
    new_objects: dict[int, Obj] = {}
    known: set[str] = set(state.objects)
    if not isinstance(raw, list):
        return actions, new_objects
    for i, item in enumerate(raw):
        path = f"actions[{i}]"
        action = parse_action(item, path, state, known, err, new_objects, i)
        if action is not None:
            actions.append(action)
    return actions, new_objects


def parse_action(item: Any, path: str, state: GameState, known: set[str], err: _Errors,
                 new_objects: dict[int, Obj] | None = None, index: int = 0) -> Action | None:
    """Check one action's shape and references (not its legality: that is per era)."""
    if not isinstance(item, dict) or len(item) != 1:
        err.add(path, f"an action is a mapping with one key, the action's kind: "
                      f"{', '.join(ACTION_KINDS)}")
        return None
    kind, args = next(iter(item.items()))
    if kind not in ACTION_KINDS:
        err.add(path, f"unknown action {kind!r}; expected one of: {', '.join(ACTION_KINDS)}")
        return None
    p = f"{path}.{kind}"
    players = state.players
    n_before = len(err.items)

    def obj_ref(v: Any, at: str) -> None:
        if v not in known:
            err.add(at, f"unknown object {v!r}")

    def any_ref(v: Any, at: str) -> None:
        if v not in known and v not in players and v not in state.teams:
            err.add(at, f"unknown player, team or object {v!r}")

    def mapping(v: Any) -> bool:
        if not isinstance(v, dict) or not v:
            err.add(p, f"`{kind}` takes a non-empty mapping")
            return False
        return True

    def fields(v: Mapping[str, Any], allowed: tuple[str, ...], required: tuple[str, ...]) -> None:
        for k in v:
            if k not in allowed:
                err.add(f"{p}.{k}", f"unknown field {k!r}; expected: {', '.join(allowed)}")
        for k in required:
            if k not in v:
                err.add(f"{p}.{k}", f"`{k}` is required")

    def int_field(v: Mapping[str, Any], k: str, lo: int = 0) -> None:
        if k in v and (not _is_int(v[k]) or not lo <= v[k] <= MAX_NUMBER):
            err.add(f"{p}.{k}", f"`{k}` must be a whole number from {lo}")

    def redirect_map(v: Any, at: str) -> None:
        if v is None:
            return
        if not isinstance(v, dict):
            err.add(at, "`redirect_to` is a mapping player -> planeswalker")
            return
        for pl, pw in v.items():
            if pl not in players:
                err.add(f"{at}.{pl}", f"{pl!r} is not a player")
            obj_ref(pw, f"{at}.{pl}")

    if kind == "attack" and mapping(args):
        for a, t in args.items():
            obj_ref(a, f"{p}.{a}")
            any_ref(t, f"{p}.{a}")
    elif kind == "block" and mapping(args):
        for b, a in args.items():
            obj_ref(b, f"{p}.{b}")
            obj_ref(a, f"{p}.{b}")
    elif kind == "order" and mapping(args):
        for a, order in args.items():
            obj_ref(a, f"{p}.{a}")
            if not isinstance(order, list):
                err.add(f"{p}.{a}", "an order is a list of blocker ids")
            else:
                for j, b in enumerate(order):
                    obj_ref(b, f"{p}.{a}[{j}]")
    elif kind == "assign" and mapping(args):
        for a, amounts in args.items():
            obj_ref(a, f"{p}.{a}")
            if not isinstance(amounts, dict) or not amounts:
                err.add(f"{p}.{a}", "an assignment is a mapping recipient -> amount")
                continue
            for r, n in amounts.items():
                any_ref(r, f"{p}.{a}.{r}")
                if not _is_int(n) or not 0 <= n <= MAX_NUMBER:
                    err.add(f"{p}.{a}.{r}", "an amount of damage is a whole number from 0")
    elif kind == "combat_damage":
        if args is None:
            args = {}
        if not isinstance(args, dict):
            err.add(p, "`combat_damage` takes {} or {step: first-strike}")
        else:
            fields(args, ("step",), ())
            if "step" in args and args["step"] != "first-strike":
                err.add(f"{p}.step", "the only step to name is `first-strike`")
    elif kind == "cast":
        if not isinstance(args, dict):
            err.add(p, "`cast` takes a mapping {card, by, targets, x, redirect_to}")
        else:
            fields(args, ("card", "by", "targets", "x", "mode", "redirect_to"), ("card", "by"))
            card = args.get("card")
            if card not in known:
                try:
                    find_card(str(card))
                except UnknownCard:
                    err.add(f"{p}.card", f"unknown card or object {card!r}")
            if "by" in args and args["by"] not in players:
                err.add(f"{p}.by", f"{args['by']!r} is not a player")
            targets = args.get("targets", [])
            if isinstance(targets, list):
                for j, t in enumerate(targets):
                    any_ref(t, f"{p}.targets[{j}]")
            elif isinstance(targets, dict):
                for t, n in targets.items():
                    any_ref(t, f"{p}.targets.{t}")
                    if not _is_int(n) or not 0 <= n <= MAX_NUMBER:
                        err.add(f"{p}.targets.{t}", "an amount is a whole number")
            else:
                err.add(f"{p}.targets", "`targets` is a list of ids (or, for a spell that "
                                        "divides damage, a mapping id -> amount)")
            int_field(args, "x")
            int_field(args, "mode", 1)
            redirect_map(args.get("redirect_to"), f"{p}.redirect_to")
    elif kind == "damage":
        if not isinstance(args, dict):
            err.add(p, "`damage` takes a mapping {source, to, amount}")
        else:
            fields(args, ("source", "to", "amount", "combat", "redirect_to"),
                   ("source", "to", "amount"))
            if "source" in args:
                obj_ref(args["source"], f"{p}.source")
            if "to" in args:
                any_ref(args["to"], f"{p}.to")
            int_field(args, "amount")
            if "combat" in args and not isinstance(args["combat"], bool):
                err.add(f"{p}.combat", "`combat` must be true or false")
            if args.get("redirect_to") is not None:
                obj_ref(args["redirect_to"], f"{p}.redirect_to")
    elif kind == "activate":
        if not isinstance(args, dict):
            err.add(p, "`activate` takes a mapping {permanent, ability, targets, x}")
        else:
            fields(args, ("permanent", "ability", "targets", "x", "redirect_to"),
                   ("permanent", "ability"))
            if "permanent" in args:
                obj_ref(args["permanent"], f"{p}.permanent")
            int_field(args, "ability", 1)
            int_field(args, "x")
            targets = args.get("targets", [])
            if not isinstance(targets, list):
                err.add(f"{p}.targets", "`targets` is a list of ids")
            else:
                for j, t in enumerate(targets):
                    any_ref(t, f"{p}.targets[{j}]")
            redirect_map(args.get("redirect_to"), f"{p}.redirect_to")
    elif kind == "enter":
        if not isinstance(args, dict) or "id" not in args:
            err.add(p, "`enter` takes an object (with a new `id`) or {id: ID} of an object "
                       "in another zone")
        elif args["id"] in known:
            fields(args, ("id", "controller", "counters"), ("id",))
            if "controller" in args and args["controller"] not in players:
                err.add(f"{p}.controller", f"{args['controller']!r} is not a player")
        else:
            obj = _object(args, p, "battlefield", players, err, in_setup=False)
            if obj is not None:
                if obj.id in players or obj.id in state.teams:
                    err.add(f"{p}.id", f"duplicate id {obj.id!r}")
                known.add(obj.id)
                if new_objects is not None:
                    new_objects[index] = obj
            args = dict(args)
            args["_new"] = True
    elif kind == "move" and mapping(args):
        for o, z in args.items():
            obj_ref(o, f"{p}.{o}")
            if z not in MOVE_ZONES:
                err.add(f"{p}.{o}", f"unknown zone {z!r}; expected one of: "
                                    f"{', '.join(MOVE_ZONES)}")
    elif kind == "control" and mapping(args):
        for o, pl in args.items():
            obj_ref(o, f"{p}.{o}")
            if pl not in players:
                err.add(f"{p}.{o}", f"{pl!r} is not a player")
    elif kind == "counters" and mapping(args):
        for o, kinds in args.items():
            obj_ref(o, f"{p}.{o}")
            if not isinstance(kinds, dict):
                err.add(f"{p}.{o}", "counters are a mapping kind -> change (+/-)")
                continue
            for k, d in kinds.items():
                if not _is_int(d) or abs(d) > MAX_NUMBER:
                    err.add(f"{p}.{o}.{k}", "a counter change is a whole number")
    elif kind == "become" and mapping(args):
        for o, change in args.items():
            obj_ref(o, f"{p}.{o}")
            if not isinstance(change, dict) or not change:
                err.add(f"{p}.{o}", f"a change is a mapping of: {', '.join(BECOME_FIELDS)}")
                continue
            for k, v in change.items():
                if k not in BECOME_FIELDS:
                    err.add(f"{p}.{o}.{k}", f"unknown field {k!r}; expected: "
                                            f"{', '.join(BECOME_FIELDS)}")
                elif k in ("power", "toughness"):
                    if not _is_int(v) or abs(v) > MAX_NUMBER:
                        err.add(f"{p}.{o}.{k}", f"`{k}` must be a whole number")
                elif not isinstance(v, list) or not all(isinstance(x, str) for x in v):
                    err.add(f"{p}.{o}.{k}", f"`{k}` must be a list of words")
                elif k == "keywords":
                    for x in v:
                        if x not in KEYWORDS:
                            err.add(f"{p}.{o}.{k}", f"unknown keyword {x!r}")
                elif k == "types":
                    for x in v:
                        if x not in ("creature", "planeswalker", "artifact", "enchantment",
                                     "land", "battle"):
                            err.add(f"{p}.{o}.{k}", f"unknown permanent type {x!r}")
    elif kind == "choose":
        if not isinstance(args, dict):
            err.add(p, "`choose` takes {keep: ID}")
        else:
            fields(args, ("keep",), ("keep",))
            if "keep" in args:
                obj_ref(args["keep"], f"{p}.keep")
    elif kind == "step":
        if args not in STEPS:
            err.add(p, f"unknown step {args!r}; expected one of: {', '.join(STEPS)}")
        args = {"step": args}
    elif kind == "next_turn":
        if args not in (None, {}):
            err.add(p, "`next_turn` takes {}")
        args = {}
    elif kind == "roll_planar_die":
        if not isinstance(args, dict):
            err.add(p, "`roll_planar_die` takes {by: PLAYER, result: blank|chaos|planeswalk}")
        else:
            fields(args, ("by", "result", "effect"), ("by", "result"))
            if "by" in args and args["by"] not in players:
                err.add(f"{p}.by", f"{args['by']!r} is not a player")
            if "result" in args and args["result"] not in DIE_RESULTS:
                err.add(f"{p}.result", f"the planar die shows {', '.join(DIE_RESULTS)}")
            if "effect" in args and not isinstance(args["effect"], bool):
                err.add(f"{p}.effect", "`effect` (a roll caused by an effect) is true or false")
    elif kind == "planeswalk":
        if args not in (None, {}):
            err.add(p, "`planeswalk` takes {}")
        args = {}
    if len(err.items) > n_before:
        return None
    return Action(kind, p if kind != "step" else p, dict(args or {}))


# -- questions and queries ---------------------------------------------------------------------

def _questions(raw: Any, state: GameState, known: set[str], err: _Errors) -> list[Question]:
    out: list[Question] = []
    seen: set[str] = set()
    if not isinstance(raw, list):
        return out
    for i, q in enumerate(raw):
        path = f"questions[{i}]"
        if not isinstance(q, dict):
            err.add(path, "a question is a mapping {id, kind, ask, ...}")
            continue
        allowed = ("id", "kind", "ask", "answer", "options", "attacker", "goal", "claim",
                   "expect")
        for k in q:
            if k not in allowed:
                err.add(f"{path}.{k}", f"unknown field {k!r}; expected: {', '.join(allowed)}")
        qid = q.get("id")
        if not isinstance(qid, str) or not SLUG.match(qid):
            err.add(f"{path}.id", "a question id is a slug")
            continue
        if qid in seen:
            err.add(f"{path}.id", f"duplicate question id {qid!r}")
        seen.add(qid)
        kind = q.get("kind")
        if kind not in QUESTION_KINDS:
            err.add(f"{path}.kind", f"unknown kind {kind!r}; expected one of: "
                                    f"{', '.join(QUESTION_KINDS)}")
            continue
        ask = _text(q.get("ask"), f"{path}.ask", err, required=True)
        expect = q.get("expect")
        question = Question(qid, kind, ask, path, expect=expect, has_expect="expect" in q)
        if kind in ("number", "yesno"):
            query = parse_query(q.get("answer"), f"{path}.answer", state, known, err)
            want = "int" if kind == "number" else "bool"
            if query is not None and query.value_type != want:
                err.add(f"{path}.answer", f"a {kind} question needs a query with a "
                                          f"{'number' if want == 'int' else 'yes/no'} answer")
            question = replace(question, query=query)
        elif kind in ("choice", "multi"):
            options = q.get("options")
            if not isinstance(options, list) or len(options) < 2:
                err.add(f"{path}.options", "a choice needs at least two options")
                continue
            if len(options) > MAX_OPTIONS:
                err.add(f"{path}.options", f"at most {MAX_OPTIONS} options")
            opts: list[Option] = []
            ids: set[str] = set()
            for j, o in enumerate(options):
                op = f"{path}.options[{j}]"
                if not isinstance(o, dict):
                    err.add(op, "an option is {id, text, claim}")
                    continue
                for k in o:
                    if k not in ("id", "text", "claim"):
                        err.add(f"{op}.{k}", f"unknown field {k!r}; expected id, text, claim")
                oid = o.get("id")
                if not isinstance(oid, str) or not SLUG.match(oid):
                    err.add(f"{op}.id", "an option id is a slug")
                    continue
                if oid in ids:
                    err.add(f"{op}.id", f"duplicate option id {oid!r}")
                ids.add(oid)
                text = _text(o.get("text"), f"{op}.text", err, required=True)
                claim = parse_claim(o.get("claim"), f"{op}.claim", state, known, err)
                if claim is not None:
                    opts.append(Option(oid, text, claim))
            question = replace(question, options=tuple(opts))
        elif kind == "assign":
            attacker = q.get("attacker")
            if attacker not in known:
                err.add(f"{path}.attacker", f"unknown object {attacker!r}")
            goal = q.get("goal")
            most_to = None
            if goal is not None:
                if not isinstance(goal, dict) or set(goal) != {"most_to"}:
                    err.add(f"{path}.goal", "`goal` is {most_to: RECIPIENT}")
                else:
                    most_to = goal["most_to"]
                    if most_to not in known and most_to not in state.players:
                        err.add(f"{path}.goal.most_to", f"unknown player or object {most_to!r}")
            question = replace(question, attacker=attacker, goal=most_to)
        elif kind == "eras":
            claim = parse_claim(q.get("claim"), f"{path}.claim", state, known, err)
            question = replace(question, claim=claim)
        out.append(question)
    return out


def parse_claim(raw: Any, path: str, state: GameState, known: set[str], err: _Errors,
                ) -> Claim | None:
    if not isinstance(raw, dict) or set(raw) != {"query", "is"}:
        err.add(path, "a claim is {query: QUERY, is: VALUE}")
        return None
    query = parse_query(raw["query"], f"{path}.query", state, known, err)
    if query is None:
        return None
    value = raw["is"]
    ok = {
        "int": _is_int(value), "bool": isinstance(value, bool),
        "str": value is None or isinstance(value, str),
        "list": isinstance(value, list),
    }[query.value_type]
    if not ok:
        kind_name = {"int": "number", "bool": "true/false", "str": "name",
                     "list": "list"}[query.value_type]
        err.add(f"{path}.is", f"the query {query.kind!r} answers a {kind_name}")
        return None
    return Claim(query, value)


def parse_query(raw: Any, path: str, state: GameState, known: set[str], err: _Errors,
                ) -> Query | None:
    if not isinstance(raw, dict) or len(raw) != 1:
        err.add(path, f"a query is a mapping with one key: {', '.join(QUERY_KINDS)}")
        return None
    kind, arg = next(iter(raw.items()))
    if kind not in QUERY_KINDS:
        err.add(path, f"unknown query {kind!r}; expected one of: {', '.join(QUERY_KINDS)}")
        return None
    p = f"{path}.{kind}"
    players = state.players
    n_before = len(err.items)
    action = None
    if kind == "life":
        if arg not in players and arg not in state.teams:
            err.add(p, f"{arg!r} is not a player or team")
    elif kind in ("loyalty", "damage", "zone", "controller", "attacking", "blocked",
                  "attack_targets"):
        if arg not in known:
            err.add(p, f"unknown object {arg!r}")
    elif kind == "counters":
        if not isinstance(arg, list) or len(arg) != 2 or not isinstance(arg[1], str):
            err.add(p, "`counters` takes [OBJECT, KIND]")
        elif arg[0] not in known:
            err.add(f"{p}[0]", f"unknown object {arg[0]!r}")
    elif kind == "max_damage_to":
        if not isinstance(arg, list) or len(arg) != 2:
            err.add(p, "`max_damage_to` takes [ATTACKER, RECIPIENT]")
        else:
            if arg[0] not in known:
                err.add(f"{p}[0]", f"unknown object {arg[0]!r}")
            if arg[1] not in known and arg[1] not in players:
                err.add(f"{p}[1]", f"unknown player or object {arg[1]!r}")
    elif kind == "legal":
        action = parse_action(arg, p, state, set(known), err)
    elif kind in ("face_up_plane", "planar_controller"):
        if arg not in (None, {}, True):
            err.add(p, f"`{kind}` takes {{}}")
    elif kind == "roll_cost":
        if arg not in players:
            err.add(p, f"{arg!r} is not a player")
    elif kind == "subtypes":
        if arg not in known:
            err.add(p, f"unknown object {arg!r}")
    if len(err.items) > n_before:
        return None
    return Query(kind, arg, p, action)


# -- texts ---------------------------------------------------------------------------------------

PLACEHOLDER = re.compile(r"\{([A-Za-z_][A-Za-z0-9_-]*)\}")


def render_text(text: Mapping[str, str], language: str, variant: Variant) -> str:
    """A text in ``language`` (English when missing) with ``{param}`` replaced by the
    variant's value and ``{object}`` by that object's printed name in the language.
    A parameter whose value is a catalog card's slug shows the card's name."""
    raw = text.get(language) or text.get("en", "")
    objects = dict(variant.state.objects)
    objects.update({o.id: o for o in variant.new_objects.values()})

    def name_of(value: Any) -> str:
        if isinstance(value, str):
            try:
                card = find_card(value)
            except UnknownCard:
                return value
            return card.name.get(language) or card.name["en"]
        return str(value)

    def sub(match: re.Match[str]) -> str:
        key = match.group(1)
        if key in variant.values:
            return name_of(variant.values[key])
        if key in objects:
            return objects[key].display_name(language)
        if key in variant.state.players:
            return key.capitalize()
        return match.group(0)

    return PLACEHOLDER.sub(sub, raw)
