"""Dealing damage, and the planeswalker redirection rule.

Results of damage (119.3 / 120.3): to a player, that much life is lost (in Two-Headed
Giant, from the team's shared total, 810.9); to a planeswalker, that many loyalty counters
are removed (306.8); to a creature, it is marked (and remembered as deathtouch damage);
to a battle, defense counters are removed (310.6). Lifelink: the source's controller
gains that much life.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from engine.eras import Era
from engine.errors import Violation
from engine.state import GameState, Obj, with_counters
from engine.trace import Trace


@dataclass(frozen=True, slots=True)
class Source:
    """Last known information about a source of damage."""

    id: str
    controller: str
    deathtouch: bool = False
    lifelink: bool = False

    @classmethod
    def of(cls, obj: Obj) -> Source:
        return cls(obj.id, obj.controller, obj.has("deathtouch"), obj.has("lifelink"))


def deal_damage(era: type[Era], state: GameState, trace: Trace, source: Source,
                recipient: str, amount: int, *, combat: bool) -> GameState:
    """One damage event, already redirected if it was going to be."""
    if amount <= 0:
        return state
    kind = "combat" if combat else "noncombat"
    if state.is_player(recipient):
        state = state.with_life_change(recipient, -amount)
        key = "twohg.damage-to-team" if state.team_of(recipient) else "damage.to-player"
        trace.add(key, "damage.player", source=source.id, player=recipient,
                  amount=amount, combat=combat, life=state.life(recipient))
    else:
        obj = state.obj(recipient)
        if not obj.on_battlefield:
            trace.add(None, "damage.recipient-gone", source=source.id, object=recipient,
                      amount=amount, kind=kind)
            return state
        if obj.is_planeswalker:
            obj = with_counters(obj, "loyalty", -amount)
            trace.add("pw.damage-removes-loyalty", "damage.planeswalker", source=source.id,
                      object=recipient, amount=amount, combat=combat,
                      loyalty=obj.counter("loyalty"))
        if obj.is_battle and era.battles:
            obj = with_counters(obj, "defense", -amount)
            trace.add("damage.battle", "damage.battle", source=source.id, object=recipient,
                      amount=amount, combat=combat, defense=obj.counter("defense"))
        if obj.is_creature:
            obj = replace(obj, damage=obj.damage + amount,
                          deathtouched=obj.deathtouched or source.deathtouch)
            trace.add("damage.to-creature", "damage.creature", source=source.id,
                      object=recipient, amount=amount, combat=combat, marked=obj.damage)
        state = state.with_object(obj)
    if source.lifelink:
        state = state.with_life_change(source.controller, amount)
        trace.add("keyword.lifelink", "damage.lifelink", source=source.id,
                  player=source.controller, amount=amount,
                  life=state.life(source.controller))
    return state


def redirection_violation(era: type[Era], state: GameState, source: Source, player: str,
                          planeswalker: str, *, combat: bool) -> Violation | None:
    """Why the redirection rule can't send this damage to ``planeswalker``.

    Only noncombat damage that an opponent's source would deal to a player, and only to
    a planeswalker that player controls (212.9g, then 306.7). A planeswalker that has
    left the battlefield is not a violation: the redirection then does nothing (614.9).
    """
    def v(code: str, message: str) -> Violation:
        return Violation("pw.redirection", era.rule("pw.redirection"), code, message,
                         {"player": player, "planeswalker": planeswalker})

    if combat:
        return v("redirect.combat", "combat damage can't be redirected to a planeswalker")
    if not state.are_opponents(source.controller, player):
        return v("redirect.not-opponent",
                 f"{source.controller} can't redirect damage their own source deals to "
                 f"{player}: only damage to an opponent can be redirected")
    obj = state.objects.get(planeswalker)
    if obj is None:
        return v("redirect.unknown", f"{planeswalker!r} is not an object of this scenario")
    if obj.on_battlefield and obj.is_planeswalker and obj.controller != player:
        return v("redirect.not-controlled",
                 f"{planeswalker} is controlled by {obj.controller}, not by {player}: "
                 f"damage can only be redirected to a planeswalker the damaged player controls")
    if not obj.is_planeswalker and obj.on_battlefield:
        return v("redirect.not-planeswalker", f"{planeswalker} is not a planeswalker")
    return None


def damage_to_player(era: type[Era], state: GameState, trace: Trace, source: Source,
                     player: str, amount: int, redirect_to: str | None,
                     ) -> tuple[GameState, str]:
    """Noncombat damage to a player, applying the redirection rule where it exists.

    Returns the new state and what was actually dealt the damage. The whole event moves:
    it is never split between the player and a planeswalker.
    """
    if redirect_to is None:
        return deal_damage(era, state, trace, source, player, amount, combat=False), player
    if not era.redirection_rule:
        trace.add(None, "redirect.no-rule", player=player, planeswalker=redirect_to,
                  removed_rule="pw.redirection")
        return deal_damage(era, state, trace, source, player, amount, combat=False), player
    target = state.objects[redirect_to]
    if not (target.on_battlefield and target.is_planeswalker and target.controller == player):
        trace.add("replacement.redirection-gone", "redirect.target-gone", player=player,
                  planeswalker=redirect_to)
        return deal_damage(era, state, trace, source, player, amount, combat=False), player
    trace.add("pw.redirection", "redirect.applied", source=source.id, player=player,
              planeswalker=redirect_to, amount=amount, chosen_by=source.controller)
    return deal_damage(era, state, trace, source, redirect_to, amount, combat=False), redirect_to
