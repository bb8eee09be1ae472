"""Dealing damage, and the planeswalker redirection rule.

Results of damage (119.3 / 120.3): to a player, that much life is lost (in Two-Headed
Giant, from the team's shared total, 810.9); to a planeswalker, that many loyalty counters
are removed (306.8); to a creature, it is marked (and remembered as deathtouch damage);
to a battle, defense counters are removed (310.6). Lifelink: the source's controller
gains that much life.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from engine.eras import Era
from engine.errors import Violation
from engine.state import GameState, Obj, evolve, with_counters
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
        keywords = obj.keywords
        return cls(obj.id, obj.controller, "deathtouch" in keywords, "lifelink" in keywords)


def deal_damage(era: type[Era], state: GameState, trace: Trace, source: Source,
                recipient: str, amount: int, *, combat: bool) -> GameState:
    """One damage event, already redirected if it was going to be."""
    return deal_damage_all(era, state, trace, ((source, recipient, amount, combat),))


DamageEvent = tuple[Source, str, int, bool]


def deal_damage_all(era: type[Era], state: GameState, trace: Trace,
                    events: Iterable[DamageEvent]) -> GameState:
    """Damage events dealt at the same time (510.2 for combat damage), in one new state."""
    objects = dict(state.objects)
    players = dict(state.players)
    teams = dict(state.teams)

    def change_life(pid: str, delta: int) -> int:
        player = players[pid]
        if player.team is not None:
            team = teams[player.team] = evolve(teams[player.team],
                                               life=teams[player.team].life + delta)
            return team.life
        player = players[pid] = evolve(player, life=player.life + delta)
        return player.life

    for source, recipient, amount, combat in events:
        if amount <= 0:
            continue
        if recipient in players:
            life = change_life(recipient, -amount)
            key = "twohg.damage-to-team" if players[recipient].team else "damage.to-player"
            trace.add(key, "damage.player", source=source.id, player=recipient,
                      amount=amount, combat=combat, life=life)
        else:
            obj = objects[recipient]
            if obj.zone != "battlefield":
                trace.add(None, "damage.recipient-gone", source=source.id, object=recipient,
                          amount=amount, kind="combat" if combat else "noncombat")
                continue
            if obj.is_planeswalker:
                obj = with_counters(obj, "loyalty", -amount)
                trace.add("pw.damage-removes-loyalty", "damage.planeswalker",
                          source=source.id, object=recipient, amount=amount, combat=combat,
                          loyalty=obj.counter("loyalty"))
            if obj.is_battle and era.battles:
                obj = with_counters(obj, "defense", -amount)
                trace.add("damage.battle", "damage.battle", source=source.id,
                          object=recipient, amount=amount, combat=combat,
                          defense=obj.counter("defense"))
            if obj.is_creature:
                obj = evolve(obj, damage=obj.damage + amount,
                             deathtouched=obj.deathtouched or source.deathtouch)
                trace.add("damage.to-creature", "damage.creature", source=source.id,
                          object=recipient, amount=amount, combat=combat, marked=obj.damage)
            objects[recipient] = obj
        if source.lifelink:
            life = change_life(source.controller, amount)
            trace.add("keyword.lifelink", "damage.lifelink", source=source.id,
                      player=source.controller, amount=amount, life=life)
    return evolve(state, objects=objects, players=players, teams=teams)


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
