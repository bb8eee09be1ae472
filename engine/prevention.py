"""Prevention shields (615.7; 419.7b in Lorwyn).

A resolving spell or ability (Healing Salve), or a `prevent` action standing for an
effect the scenario doesn't model as a card, creates a shield for a player or a
permanent: it prevents the next N damage that would be dealt to it this turn (or all of
it, ``amount: all``), optionally only from one source or only combat damage. A shield is
applied as damage would be dealt (615.7), in the order the affected player chooses among
the replacement and prevention effects that apply (616.1, see ``engine.replacement``);
shields end at the cleanup step (514.2). Prevented damage is not dealt (615.6): it
removes no loyalty, gains no life through lifelink and triggers nothing.
"""

from __future__ import annotations

from engine.eras import Era
from engine.state import GameState, Shield, Source, evolve
from engine.trace import Trace


def shield_rule(shield: Shield) -> str:
    """The rule a shield applies: 615.7 for "the next N damage", 615.1 for "all"."""
    return "prevention.effect" if shield.amount is None else "prevention.shield"


def add_shield(state: GameState, trace: Trace, shield: Shield) -> GameState:
    if shield.amount is None:
        trace.add(shield_rule(shield), "prevention.shield-all-created", shield=shield.id,
                  to=shield.to, source=shield.source or "", combat_only=shield.combat_only)
    else:
        trace.add(shield_rule(shield), "prevention.shield-created", shield=shield.id,
                  to=shield.to, amount=shield.amount, source=shield.source or "",
                  combat_only=shield.combat_only)
    return evolve(state, shields=(*state.shields, shield))


def shield_id(state: GameState, base: str) -> str:
    """A shield id not used yet this turn: ``base``, else ``base-2``, ``base-3``, ..."""
    used = {s.id for s in state.shields}
    if base not in used:
        return base
    n = 2
    while f"{base}-{n}" in used:
        n += 1
    return f"{base}-{n}"


def shield_from_effect(era: type[Era], state: GameState, trace: Trace, source: Source,
                       target: str, amount: int | None) -> GameState:
    """A resolving spell or ability's "prevent the next N damage that would be dealt to
    target ... this turn" (Healing Salve): the shield's id is the spell's id (its object
    id, or its slug when cast from the catalog)."""
    generation = None if target in state.players else state.obj(target).generation
    shield = Shield(shield_id(state, source.id), target, generation, amount)
    return add_shield(state, trace, shield)


def applies(shield: Shield, state: GameState, recipient: str, source: Source,
            combat: bool) -> bool:
    """Whether ``shield`` applies to damage ``source`` would deal to ``recipient``."""
    if shield.to != recipient or (shield.amount is not None and shield.amount <= 0):
        return False
    if shield.to_generation is not None:
        obj = state.objects.get(recipient)
        if obj is None or obj.generation != shield.to_generation or not obj.on_battlefield:
            return False
    if shield.source is not None and shield.source != source.id:
        return False
    return combat or not shield.combat_only
