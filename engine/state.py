"""Game state as immutable values.

A :class:`GameState` is never changed in place: every action makes a new one with
``evolve`` (a fast ``dataclasses.replace``). Mappings inside are plain dicts that the
engine never mutates after construction (``with_object`` and friends copy), so one
stored board can be resolved under every era.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any


def evolve[T](obj: T, **changes: Any) -> T:
    """A copy of a frozen state value with some fields changed: what
    ``dataclasses.replace`` does, at the cost of two dict copies. State classes are
    frozen dataclasses without ``__slots__`` precisely so that this stays cheap (the
    engine makes tens of thousands of these per second)."""
    new: T = object.__new__(obj.__class__)
    attrs = new.__dict__
    attrs.update(obj.__dict__)
    attrs.update(changes)
    return new


STEPS: tuple[str, ...] = (
    "untap", "upkeep", "draw", "main1", "beginning-of-combat", "declare-attackers",
    "declare-blockers", "combat-damage", "end-of-combat", "main2", "end", "cleanup",
)
MAIN_STEPS = frozenset({"main1", "main2"})
ZONES = ("battlefield", "graveyard", "exile", "hand", "library", "stack", "command")
KEYWORDS = frozenset({
    "trample", "trample-over-planeswalkers", "deathtouch", "first-strike", "double-strike",
    "lifelink", "vigilance", "haste", "flying", "reach", "menace", "indestructible",
    "defender", "hexproof", "shroud",
})
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
    eot_controller: str | None = None
    """The controller to return to at cleanup, for "until end of turn" control."""
    eot_keywords: frozenset[str] = frozenset()
    """Keywords granted until end of turn."""

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


@dataclass(frozen=True)
class PendingDamage:
    """lrw-2007: one combat damage assignment waiting on the stack (310.1)."""

    source: str
    source_generation: int
    recipient: str
    recipient_generation: int | None  # None for a player
    amount: int
    # Last known information about the source, used when the damage resolves (310.3).
    source_controller: str
    deathtouch: bool
    lifelink: bool


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


@dataclass(frozen=True)
class GameState:
    players: Mapping[str, Player]
    objects: Mapping[str, Obj]
    turn: Turn
    teams: Mapping[str, Team] = field(default_factory=dict)
    combat: Combat | None = None
    activated: frozenset[tuple[str, int]] = frozenset()
    """(object id, generation) of each permanent whose loyalty ability was activated this
    turn, by any player (606.3)."""
    planechase: Planechase | None = None
    """The Planechase variant (901), when the game uses it."""

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


def with_counters(obj: Obj, kind: str, delta: int) -> Obj:
    """Add (or remove) counters; a permanent never has fewer than zero (122.1)."""
    counters = dict(obj.counters)
    value = max(0, counters.get(kind, 0) + delta)
    if value:
        counters[kind] = value
    else:
        counters.pop(kind, None)
    return evolve(obj, counters=counters)


def step_index(step: str) -> int:
    return STEPS.index(step)
