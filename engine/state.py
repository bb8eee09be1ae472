"""Game state as immutable values.

A :class:`GameState` is never changed in place: every action makes a new one with
``evolve`` (a fast ``dataclasses.replace``). Mappings inside are plain dicts that the
engine never mutates after construction (``with_object`` and friends copy), so one
stored board can be resolved under every era.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import MISSING, dataclass, field, fields
from typing import Any, NamedTuple


def evolve[T](obj: T, **changes: Any) -> T:
    """A copy of a frozen state value with some fields changed: what
    ``dataclasses.replace`` does, without running ``__init__`` (the engine makes tens of
    thousands of these per second). State classes are frozen dataclasses without
    ``__slots__`` so that this stays cheap. Two ways, chosen per class by measuring the
    engine bench with callgrind (issue 14): most values get a new ``__dict__`` in one dict
    merge, set past the frozen ``__setattr__`` (cheapest to make); the game state and
    combat, read far more than copied, have their fields written into their own
    ``__dict__``, which keeps the class's shared keys and CPython's faster attribute
    reads."""
    cls = obj.__class__
    new: T = object.__new__(cls)
    if cls in _SHARED_KEYS:
        attrs = new.__dict__
        attrs.update(obj.__dict__)
        attrs.update(changes)
        return new
    _set_attr(new, "__dict__", obj.__dict__ | changes)
    return new


_set_attr = object.__setattr__
_SHARED_KEYS: set[type] = set()
"""Classes whose copies are written key by key into their own ``__dict__`` (filled in at
the end of this module): the game state and combat, read far more often than they are
copied, keep CPython's faster attribute reads that way."""


STEPS: tuple[str, ...] = (
    "untap", "upkeep", "draw", "main1", "beginning-of-combat", "declare-attackers",
    "declare-blockers", "combat-damage", "end-of-combat", "main2", "end", "cleanup",
)
MAIN_STEPS = frozenset({"main1", "main2"})
OUTSIDE = "outside"
"""The zone of an object that left the game with its owner (800.4a, engine.departure)."""
ZONES = ("battlefield", "graveyard", "exile", "hand", "library", "stack", "command", OUTSIDE)
KEYWORDS = frozenset({
    "trample", "trample-over-planeswalkers", "deathtouch", "first-strike", "double-strike",
    "lifelink", "vigilance", "haste", "flying", "reach", "menace", "indestructible",
    "defender", "hexproof", "shroud", "infect", "wither",
})
COLORS = ("white", "blue", "black", "red", "green")
"""The five colors, in WUBRG order (105.1)."""
PERMANENT_TYPES = frozenset({"creature", "planeswalker", "artifact", "enchantment", "land",
                             "battle"})
CARD_TYPES = tuple(sorted(PERMANENT_TYPES | {"instant", "sorcery", "plane", "phenomenon"}))
"""Every card type an object of a scenario may have (sorted)."""


@dataclass(frozen=True)
class Player:
    id: str
    life: int = 20
    hexproof: bool = False
    team: str | None = None
    lost: bool = False
    protection: frozenset[str] = frozenset()
    """Qualities the player has protection from (a color, a card type in the plural,
    ``everything``, or a card slug), given by the document (702.16)."""
    poison: int = 0
    """Poison counters (infect, 704.5c)."""
    drew_from_empty: bool = False
    """Attempted to draw from an empty library since state-based actions were last
    checked (704.5b; 420.5g in Lorwyn)."""


@dataclass(frozen=True)
class Team:
    """A Two-Headed Giant team: two players and one shared life total (810.4)."""

    id: str
    members: tuple[str, ...]
    life: int = 30
    lost: bool = False


@dataclass(frozen=True)
class Obj:
    """A card or token, in any zone. ``generation`` grows on each zone change (400.7)."""

    id: str
    name: Mapping[str, str]
    types: frozenset[str]
    controller: str
    owner: str
    zone: str = "battlefield"
    card: str | None = None
    subtypes: tuple[str, ...] = ()
    supertypes: frozenset[str] = frozenset()
    power: int | None = None
    toughness: int | None = None
    loyalty: int | None = None
    defense: int | None = None
    keywords: frozenset[str] = frozenset()
    counters: Mapping[str, int] = field(default_factory=dict)
    damage: int = 0
    deathtouched: bool = False
    tapped: bool = False
    sick: bool = False
    protector: str | None = None
    generation: int = 0
    pw_errata: bool = True
    """Whether it is legendary by the Ixalan Oracle errata when it is a planeswalker (every
    planeswalker card legendary, xln-2017 on): true unless the document states its
    supertypes, an effect sets them, or a copy effect says it isn't legendary (707.9b)."""
    printed: Mapping[str, Any] | None = None
    """The characteristics it has again when it leaves the battlefield, kept while a copy
    effect (707) or a `become` effect (613) has replaced its own; None when unchanged."""
    copiable: Mapping[str, Any] | None = None
    """Its copiable values (707.2) when an effect that is not a copy effect (`become`) has
    changed its characteristics since; None when its characteristics are its copiable
    values."""
    last_defense_removed: bool = False
    """A Siege whose last defense counter was removed: its own trigger (310.11b) is
    waiting, so the 0-defense state-based action (704.5v) does not apply to it."""
    eot_controller: str | None = None
    """The controller to return to at cleanup, for "until end of turn" control."""
    eot_keywords: frozenset[str] = frozenset()
    """Keywords granted until end of turn."""
    eot_pt: tuple[int, int] = (0, 0)
    """+X/+Y given until end of turn, already included in ``power``/``toughness``: the
    cleanup step (514.2) and a zone change take it away."""
    colors: frozenset[str] = frozenset()
    """Its colors (202.2: from its mana cost, or a color indicator / the document)."""
    protection: frozenset[str] = frozenset()
    """Qualities it has protection from (702.16): a color, a card type in the plural,
    ``everything``, or a card slug."""
    instances: Mapping[str, int] = field(default_factory=dict)
    """Keywords listed more than once: keyword -> number of instances (only where more
    than one; see ``instances_of``)."""
    chosen_name: str | None = None
    """A card name chosen as it entered (Runed Halo), as a catalog slug."""

    def instances_of(self, keyword: str) -> int:
        """How many instances of ``keyword`` it has (0 if none): it matters where each
        instance triggers (lifelink and deathtouch before Magic 2010)."""
        if keyword not in self.keywords:
            return 0
        return self.instances.get(keyword, 1)

    @property
    def current_power(self) -> int | None:
        """Power with +1/+1 and -1/-1 counters (613.4c)."""
        counters = self.counters
        if not counters or self.power is None:
            return self.power
        return self.power + counters.get("+1/+1", 0) - counters.get("-1/-1", 0)

    @property
    def current_toughness(self) -> int | None:
        """Toughness with +1/+1 and -1/-1 counters (613.4c)."""
        counters = self.counters
        if not counters or self.toughness is None:
            return self.toughness
        return self.toughness + counters.get("+1/+1", 0) - counters.get("-1/-1", 0)

    def is_(self, card_type: str) -> bool:
        return card_type in self.types

    @property
    def is_creature(self) -> bool:
        return "creature" in self.types

    @property
    def is_planeswalker(self) -> bool:
        return "planeswalker" in self.types

    @property
    def is_battle(self) -> bool:
        return "battle" in self.types

    @property
    def on_battlefield(self) -> bool:
        return self.zone == "battlefield"

    def has(self, keyword: str) -> bool:
        return keyword in self.keywords

    def counter(self, kind: str) -> int:
        return self.counters.get(kind, 0)

    @property
    def current_loyalty(self) -> int:
        """306.5c: on the battlefield loyalty is the number of loyalty counters;
        elsewhere (306.5a) the printed loyalty."""
        if self.on_battlefield:
            return self.counter("loyalty")
        return self.loyalty or 0

    @property
    def current_defense(self) -> int:
        if self.on_battlefield:
            return self.counter("defense")
        return self.defense or 0

    def display_name(self, language: str = "en") -> str:
        return self.name.get(language) or self.name.get("en") or self.id


@dataclass(frozen=True)
class Turn:
    active: str
    step: str = "main1"
    number: int = 1


class Source(NamedTuple):
    """Last known information about a source of damage: what the rules ask of it as the
    damage is dealt (keyword instances where each one triggers, colors and types for
    protection, its card for protection from a name). A named tuple: built for every
    damage event, and a tuple is the cheapest immutable value to build."""

    id: str
    controller: str
    deathtouch: int = 0
    """Instances of deathtouch (0: none)."""
    lifelink: int = 0
    """Instances of lifelink (0: none)."""
    infect: bool = False
    wither: bool = False
    colors: frozenset[str] = frozenset()
    types: frozenset[str] = frozenset()
    name: str = ""
    """Its card's slug (or its own id for an inline object): protection from a name."""

    @classmethod
    def of(cls, obj: Obj) -> Source:
        keywords = obj.keywords
        if obj.instances:
            return cls(obj.id, obj.controller, obj.instances_of("deathtouch"),
                       obj.instances_of("lifelink"), "infect" in keywords,
                       "wither" in keywords, obj.colors, obj.types, obj.card or obj.id)
        # tuple.__new__ directly: the named tuple's own __new__ is a Python function
        return tuple.__new__(cls, (obj.id, obj.controller, 1 if "deathtouch" in keywords else 0,
                                   1 if "lifelink" in keywords else 0, "infect" in keywords,
                                   "wither" in keywords, obj.colors, obj.types,
                                   obj.card or obj.id))


@dataclass(frozen=True)
class PendingDamage:
    """lrw-2007: one combat damage assignment waiting on the stack (310.1)."""

    source: str
    source_generation: int
    recipient: str
    recipient_generation: int | None  # None for a player
    amount: int
    info: Source
    """Last known information about the source, used when the damage resolves (310.3)."""

    @property
    def source_controller(self) -> str:
        return self.info.controller


@dataclass(frozen=True, slots=True)
class Shield:
    """A prevention effect created by a resolving spell or ability (615.7; 419.7b in
    Lorwyn): it prevents the next ``amount`` damage (None: all damage) that would be
    dealt this turn to ``to`` (a player, or an object of that ``to_generation``), from
    the source ``source`` only if given, combat damage only if ``combat_only``."""

    id: str
    to: str
    to_generation: int | None
    amount: int | None
    source: str | None = None
    combat_only: bool = False


@dataclass(frozen=True, slots=True)
class Trigger:
    """A triggered ability waiting to be put on the stack (603.2): Lorwyn's lifelink and
    deathtouch (each instance triggers), an attack trigger. It resolves once the
    state-based actions are done, before the next action (the engine's actions happen
    with an empty stack)."""

    kind: str
    """``lifelink``, ``deathtouch`` or ``attack-damage``."""
    source: Source
    amount: int = 0
    target: str | None = None
    target_generation: int | None = None
    combat: bool = False


@dataclass(frozen=True)
class Combat:
    """Who attacks what, who blocks whom (506-510)."""

    attackers: Mapping[str, str | None] = field(default_factory=dict)
    """attacker id -> what it attacks (player, planeswalker, battle or team id), or None
    when that planeswalker or battle was removed from combat (506.4c)."""
    defending: Mapping[str, str] = field(default_factory=dict)
    """attacker id -> its defending player (508.5), kept when the target leaves."""
    blockers: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    """attacker id -> the creatures blocking it, in damage assignment order."""
    blocked: frozenset[str] = frozenset()
    blocks_declared: bool = False
    assignments: Mapping[str, Mapping[str, int]] = field(default_factory=dict)
    """Explicit ``assign`` actions waiting for the next combat damage step."""
    assign_paths: Mapping[str, str] = field(default_factory=dict)
    """attacker id -> path of the ``assign`` action, for precise errors."""
    first_strike_done: bool = False
    regular_done: bool = False
    struck_first: frozenset[str] = frozenset()
    pending: tuple[PendingDamage, ...] = ()
    pending_first_strike: bool = False

    def blocking(self, blocker: str) -> str | None:
        for attacker, blockers in self.blockers.items():
            if blocker in blockers:
                return attacker
        return None


@dataclass(frozen=True)
class Planechase:
    """Planar decks (top card first), the face-up planes and phenomena, and how many times
    each player rolled the planar die this turn as a special action (901.9)."""

    decks: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    face_up: tuple[str, ...] = ()
    rolls: Mapping[str, int] = field(default_factory=dict)
    communal: bool = False
    """The single planar deck option (901.15): ``decks`` has one key, ``communal``."""


@dataclass(frozen=True, slots=True)
class Delayed:
    """A delayed triggered ability (603.7): "return it to the battlefield under its owner's
    control at the beginning of the next end step" (Oath of Teferi). It triggers at the
    first end step that begins after turn ``created_turn``'s ``created_step`` (513.2: one
    created during an end step waits for the next turn's)."""

    kind: str
    """``return-at-end-step``."""
    source: str
    controller: str
    object: str
    generation: int
    """The object it returns, as the new object it became in exile (400.7)."""
    created_turn: int
    created_step: str


@dataclass(frozen=True)
class GameState:
    players: Mapping[str, Player]
    objects: Mapping[str, Obj]
    turn: Turn
    teams: Mapping[str, Team] = field(default_factory=dict)
    combat: Combat | None = None
    activated: Mapping[tuple[str, int], int] = field(default_factory=dict)
    """(object id, generation) of each permanent whose loyalty abilities were activated
    this turn, by any player (606.3) -> how many times (more than once only where a card
    allows it: Oath of Teferi, The Chain Veil)."""
    loyalty_activators: frozenset[str] = frozenset()
    """The players who activated a loyalty ability of a planeswalker this turn (The Chain
    Veil's end-step trigger asks)."""
    extra_activations: Mapping[str, int] = field(default_factory=dict)
    """player -> how many extra loyalty activations per planeswalker an effect gave them
    this turn (each resolved ability of The Chain Veil gives one)."""
    delayed: tuple[Delayed, ...] = ()
    """Delayed triggered abilities waiting for their event (603.7)."""
    planechase: Planechase | None = None
    """The Planechase variant (901), when the game uses it."""
    libraries: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    """Player -> the cards known to be on top of their library, top first. For a player
    in ``listed_libraries`` that is the whole library; for any other player the rest of
    the library is unknown (never empty: a draw from it gives an unknown card)."""
    listed_libraries: frozenset[str] = frozenset()
    """The players whose library the document lists (`setup.library`): exactly those
    cards, so drawing from it when it is empty loses the game (704.5b)."""
    shields: tuple[Shield, ...] = ()
    """Prevention shields in force this turn (615.7), oldest first."""
    triggers: tuple[Trigger, ...] = ()
    """Triggered abilities waiting to be put on the stack (603.3)."""

    # -- lookups --------------------------------------------------------------------
    def obj(self, oid: str) -> Obj:
        return self.objects[oid]

    def battlefield(self) -> list[Obj]:
        return [o for o in self.objects.values() if o.zone == "battlefield"]

    def team_of(self, player: str) -> Team | None:
        team = self.players[player].team
        return self.teams.get(team) if team else None

    def teammates(self, player: str) -> tuple[str, ...]:
        team = self.team_of(player)
        return team.members if team else (player,)

    def are_opponents(self, a: str, b: str) -> bool:
        """102.3: in Two-Headed Giant your teammate is not your opponent."""
        if a == b:
            return False
        return b not in self.teammates(a)

    def opponents(self, player: str) -> list[str]:
        return [p for p in self.players if self.are_opponents(player, p)]

    def life(self, player_or_team: str) -> int:
        if player_or_team in self.teams:
            return self.teams[player_or_team].life
        team = self.team_of(player_or_team)
        return team.life if team else self.players[player_or_team].life

    def is_player(self, oid: str) -> bool:
        return oid in self.players

    # -- building new states ----------------------------------------------------------
    def with_object(self, obj: Obj) -> GameState:
        objects = dict(self.objects)
        objects[obj.id] = obj
        return evolve(self, objects=objects)

    def with_player(self, player: Player) -> GameState:
        players = dict(self.players)
        players[player.id] = player
        return evolve(self, players=players)

    def with_team(self, team: Team) -> GameState:
        teams = dict(self.teams)
        teams[team.id] = team
        return evolve(self, teams=teams)

    def with_life_change(self, player: str, delta: int) -> GameState:
        """Life gain or loss of a player; in Two-Headed Giant it applies to the team's
        shared life total (810.9)."""
        team = self.team_of(player)
        if team is not None:
            return self.with_team(evolve(team, life=team.life + delta))
        p = self.players[player]
        return self.with_player(evolve(p, life=p.life + delta))


def without_until_end_of_turn(obj: Obj) -> Obj:
    """The object with its "until end of turn" power, toughness and keywords gone (the
    cleanup step ends them, 514.2; a zone change too, 400.7); its controller is left to
    the caller. The same object when it has none."""
    if obj.eot_pt == (0, 0) and not obj.eot_keywords:
        return obj
    dp, dt = obj.eot_pt
    return evolve(obj, power=None if obj.power is None else obj.power - dp,
                  toughness=None if obj.toughness is None else obj.toughness - dt,
                  eot_pt=(0, 0), keywords=obj.keywords - obj.eot_keywords,
                  eot_keywords=frozenset())


def with_counters(obj: Obj, kind: str, delta: int) -> Obj:
    """Add (or remove) counters; a permanent never has fewer than zero (122.1)."""
    counters = dict(obj.counters)
    value = max(0, counters.get(kind, 0) + delta)
    if value:
        counters[kind] = value
    else:
        counters.pop(kind, None)
    if kind == "defense" and obj.is_battle:
        # 310.11b: removing a Siege's last defense counter triggers its own ability.
        return evolve(obj, counters=counters, last_defense_removed=value == 0 and (
            obj.last_defense_removed or delta < 0 < obj.counters.get(kind, 0)))
    return evolve(obj, counters=counters)


def step_index(step: str) -> int:
    return STEPS.index(step)



_OBJ_FIELDS = {f.name: f for f in fields(Obj)}
_OBJ_DEFAULTS = {name: f.default for name, f in _OBJ_FIELDS.items()
                 if f.default is not MISSING}
_OBJ_FACTORIES = {name: f.default_factory for name, f in _OBJ_FIELDS.items()
                  if f.default_factory is not MISSING}
_OBJ_REQUIRED = frozenset(_OBJ_FIELDS) - frozenset(_OBJ_DEFAULTS) - frozenset(_OBJ_FACTORIES)
_OBJ_TEMPLATE: dict[str, Any] = {name: _OBJ_DEFAULTS.get(name) for name in _OBJ_FIELDS}
"""Every field, in the order the dataclass declares them: each object's ``__dict__`` keeps
that order (``evolve`` merges keep it too), so an attribute is at the same index in every
object and CPython's specialized attribute reads (which remember that index) keep
hitting; objects whose keys came in different orders sent every read on the slow
path (issue 14, measured with callgrind)."""


def make_obj(**values: Any) -> Obj:
    """``Obj(**values)`` without the frozen dataclass's ``__init__`` (one
    ``object.__setattr__`` per field: about three times slower), for the setup of every
    variant; the same checks of the field names."""
    if not values.keys() <= _OBJ_FIELDS.keys() or not _OBJ_REQUIRED <= values.keys():
        raise TypeError(f"Obj fields: unknown {sorted(values.keys() - _OBJ_FIELDS.keys())}, "
                        f"missing {sorted(_OBJ_REQUIRED - values.keys())}")
    attrs = _OBJ_TEMPLATE.copy()  # every field, in the class's order (_OBJ_TEMPLATE)
    for k, f in _OBJ_FACTORIES.items():
        if k not in values:
            attrs[k] = f()
    attrs.update(values)
    new: Obj = object.__new__(Obj)
    _set_attr(new, "__dict__", attrs)
    return new


_SHARED_KEYS.update((GameState, Combat))


def _instance_fields_only(*classes: type) -> None:
    """Take the defaults of these dataclasses' fields off the class (``__init__`` keeps
    them as parameter defaults, ``fields()`` keeps them too, and every instance holds
    every field). A default left as a class attribute makes every read of that field
    on an instance unspecializable for CPython (the instance shadows the class
    attribute), so each such read took the slow generic path: measured with callgrind on
    the engine bench (issue 14)."""
    for cls in classes:
        for f in fields(cls):
            if f.name in cls.__dict__ and f.default is not MISSING:
                delattr(cls, f.name)


_instance_fields_only(Player, Team, Obj, Turn, PendingDamage, Combat, Planechase, GameState)
