"""The first rules era the engine knows: Lorwyn (2007-10-01).

Every later era subclasses the one before it and overrides only what its update
changed; the chain of classes is the history. Eras are stateless: class-level metadata
and small documented hooks that the combat, damage and state-based-action modules ask.
"""

from __future__ import annotations

from datetime import date
from typing import ClassVar, Literal

from engine import rulebook

DamageDivision = Literal["free", "ordered"]
DeathtouchRule = Literal["trigger", "m10", "m11"]
UniqueRule = Literal["global", "per-controller"]


class Era:
    """Lorwyn, CR effective 2007-10-01: the planeswalker card type arrives (212.9).

    - Planeswalkers (212.9): loyalty, loyalty abilities, attacked like players.
    - Combat damage uses the stack (310.1); a blocked creature divides its damage freely
      among its blockers (310.2c); trample is 502.9.
    - Uniqueness rule (212.9c, 420.5): planeswalkers sharing a subtype, whoever controls
      them, all go to the graveyard. Legend rule (420.5e): same name, any controller, all go.
    - Redirection rule (212.9g): noncombat damage an opponent's source would deal to a
      player may be dealt to a planeswalker that player controls instead.
    - Deathtouch and lifelink are triggered abilities.
    - Two-Headed Giant creatures attack the other team as a group.
    """

    key: ClassVar[str] = "lrw-2007"
    name: ClassVar[str] = "Lorwyn"
    set_code: ClassVar[str] = "LRW"
    effective: ClassVar[date] = date(2007, 10, 1)

    # -- combat damage -------------------------------------------------------------
    combat_damage_uses_stack: ClassVar[bool] = True
    """310.1 (old numbering): combat damage assignments go on the stack as one object."""

    blocker_division: ClassVar[DamageDivision] = "free"
    """How a blocked creature divides damage among several blockers (310.2c)."""

    deathtouch: ClassVar[DeathtouchRule] = "trigger"
    """What deathtouch means for damage assignment."""

    lifelink_trigger: ClassVar[bool] = True
    """Lifelink is a triggered ability (502.68): each instance triggers, and the life is
    gained when the trigger resolves, after state-based actions. Static from Magic 2010."""

    # -- planeswalkers and legends -------------------------------------------------
    uniqueness_rule: ClassVar[UniqueRule | None] = "global"
    legend_rule: ClassVar[UniqueRule] = "global"
    planeswalkers_legendary: ClassVar[bool] = False
    redirection_rule: ClassVar[bool] = True

    # -- later mechanics -----------------------------------------------------------
    trample_over_planeswalkers: ClassVar[bool] = False
    battles: ClassVar[bool] = False
    infect: ClassVar[bool] = False
    """Infect (Scars of Mirrodin, 2010-10-01, within the Magic 2011 rules era)."""
    chaos_ensues: ClassVar[bool] = False
    """Planechase chaos abilities read "Whenever chaos ensues" (311.7) from March of the
    Machine; before, "Whenever you roll {CHAOS}" (901.9b)."""
    twohg_attack_team: ClassVar[bool] = True
    """Two-Headed Giant: creatures attack the defending team as a group (810.7a)."""

    # -- hooks ---------------------------------------------------------------------
    @classmethod
    def rule(cls, key: str) -> str:
        """The number of rule ``key`` as it stood in this era's Comprehensive Rules."""
        return rulebook.number(key, cls.key)

    @classmethod
    def keyword_exists(cls, keyword: str) -> bool:
        """Whether a keyword exists in this era (trample over planeswalkers from MH2)."""
        if keyword == "trample-over-planeswalkers":
            return cls.trample_over_planeswalkers
        if keyword == "infect":
            return cls.infect
        return True

    @classmethod
    def describe(cls) -> dict[str, str]:
        return {
            "id": cls.key,
            "name": cls.name,
            "set": cls.set_code,
            "effective": cls.effective.isoformat(),
        }
