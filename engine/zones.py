"""Moving objects between zones and changing control, with what that does to combat.

A permanent that leaves the battlefield or changes controller is removed from combat
(506.4). If it was an attacked planeswalker or battle, the creatures attacking it stay
attacking, attacking nothing (506.4c). An object that changes zones becomes a new object
(400.7): its ``generation`` grows, its damage and counters are gone.
"""

from __future__ import annotations

from collections.abc import Mapping

from engine.eras import Era
from engine.errors import DocumentError
from engine.state import OUTSIDE, Combat, GameState, Obj, evolve, without_until_end_of_turn
from engine.trace import Trace


def remove_from_combat(state: GameState, oid: str, trace: Trace, reason: str) -> GameState:
    combat = state.combat
    if combat is None:
        return state
    if (oid not in combat.attackers and oid not in combat.attackers.values()
            and combat.blocking(oid) is None):
        return state
    attackers = dict(combat.attackers)
    defending = dict(combat.defending)
    blockers = dict(combat.blockers)
    changed = False
    if oid in attackers:
        del attackers[oid]
        defending.pop(oid, None)
        blockers.pop(oid, None)
        changed = True
        trace.add("combat.removed-from-combat", "combat.removed", object=oid, reason=reason)
    for attacker, target in list(attackers.items()):
        if target == oid:
            attackers[attacker] = None
            changed = True
            trace.add("combat.attacking-nothing", "combat.target-removed",
                      attacker=attacker, target=oid, reason=reason)
    for attacker, bs in list(blockers.items()):
        if oid in bs:
            blockers[attacker] = tuple(b for b in bs if b != oid)
            changed = True
            trace.add("combat.removed-from-combat", "combat.removed", object=oid,
                      reason=reason, was_blocking=attacker)
    if not changed:
        return state
    new_combat: Combat = evolve(combat, attackers=attackers, defending=defending,
                                 blockers=blockers)
    return evolve(state, combat=new_combat)


def _libraries_after(state: GameState, obj: Obj, zone: str) -> GameState:
    """Keep the known order of libraries (``GameState.libraries``): a card leaving a
    library leaves it; a card put into a library goes on top (the format's `move` to
    `library`, and every effect the engine models that puts a card there)."""
    libraries = dict(state.libraries)
    owner = obj.owner
    if obj.zone == "library" and obj.id in libraries.get(owner, ()):
        libraries[owner] = tuple(c for c in libraries[owner] if c != obj.id)
    if zone == "library":
        libraries[owner] = (obj.id, *libraries.get(owner, ()))
    return evolve(state, libraries=libraries)


def move_object(state: GameState, oid: str, zone: str, trace: Trace, *,
                rule_key: str | None, event: str, **data: object) -> GameState:
    """Put an object into ``zone`` as a new object (400.7): what it had as a permanent
    (damage, counters, "until end of turn" changes, a borrowed controller) is gone."""
    obj = state.obj(oid)
    if obj.zone == zone:
        return state
    _in_game(obj)
    trace.add(rule_key, event, object=oid, **{"from": obj.zone, "to": zone}, **data)
    if obj.zone == "battlefield":
        state = remove_from_combat(state, oid, trace, "left-battlefield")
    if zone == "library" or obj.zone == "library":
        state = _libraries_after(state, obj, zone)
    moved = without_until_end_of_turn(evolve(
        obj, zone=zone, generation=obj.generation + 1, damage=0, deathtouched=False,
        counters={}, tapped=False, controller=obj.owner, sick=False, eot_controller=None,
    ))
    if obj.printed is not None or obj.last_defense_removed:
        # A copy effect or `become` changed it: off the battlefield it is its card again.
        moved = evolve(moved, **(obj.printed or {}), printed=None, copiable=None,
                       last_defense_removed=False)
    return state.with_object(moved)


def _in_game(obj: Obj) -> None:
    """An object that left the game with its owner (800.4a) is gone for good."""
    if obj.zone == OUTSIDE:
        raise DocumentError.at("", f"{obj.id} has left the game with its owner (800.4a)")


def change_control(state: GameState, oid: str, player: str, trace: Trace) -> GameState:
    obj = state.obj(oid)
    _in_game(obj)
    if state.players[player].lost:
        raise DocumentError.at("", f"{player} has left the game: control can't pass to "
                                   f"them (800.4b)")
    if obj.controller == player:
        trace.add(None, "control.unchanged", object=oid, controller=player)
        return state
    state = remove_from_combat(state, oid, trace, "control-changed")
    # 302.6: a creature that came under a player's control this turn can't attack (or
    # use {T} abilities) unless it has haste.
    state = state.with_object(evolve(obj, controller=player, sick=True))
    trace.add("combat.summoning-sickness", "control.changed", object=oid, controller=player,
              previous=obj.controller)
    return state


def enter_battlefield(era: type[Era], state: GameState, trace: Trace, oid: str, *,
                      controller: str | None, counters: Mapping[str, int] | None,
                      ) -> GameState:
    """An object enters the battlefield as a new object (400.7); a planeswalker with its
    printed loyalty in loyalty counters (306.5b), a battle with its defense (310.4b)."""
    obj = state.obj(oid)
    _in_game(obj)
    new_counters: dict[str, int] = dict(counters or {})
    if counters is None:
        if obj.is_planeswalker and obj.loyalty is not None:
            new_counters["loyalty"] = obj.loyalty
        if obj.is_battle and obj.defense is not None and era.battles:
            new_counters["defense"] = obj.defense
    if obj.zone == "library":
        state = _libraries_after(state, obj, "battlefield")
    entered = evolve(obj, zone="battlefield", generation=obj.generation + 1,
                      controller=controller or obj.owner, damage=0, deathtouched=False,
                      tapped=False, sick=True, counters=new_counters)
    state = state.with_object(entered)
    trace.add("zone.new-object", "zone.enters", object=oid, controller=entered.controller)
    if obj.is_planeswalker and counters is None:
        trace.add("pw.loyalty-enters", "loyalty.enters", object=oid,
                  loyalty=new_counters.get("loyalty", 0))
    if obj.is_battle and counters is None and era.battles:
        trace.add("battle.defense", "battle.enters", object=oid,
                  defense=new_counters.get("defense", 0))
    return state
