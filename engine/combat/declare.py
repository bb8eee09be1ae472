"""Declaring attackers and blockers, and the damage assignment order (508, 509).

Each declaration has its checker (``attacker_violation``, ``attack_violation``,
``blocker_violation``, ``block_violations``, ``order_violation``) and, for attacks, the
generator of the legal options (``attack_targets``, ``legal_targets``).
"""

from __future__ import annotations

from collections.abc import Iterator

from engine.damage_triggers import attack_triggers
from engine.eras import Era
from engine.errors import Violation
from engine.planechase import effective_power, plane_statics
from engine.protection import matching
from engine.state import Combat, GameState, Obj, Source, evolve
from engine.trace import Trace


def _v(era: type[Era], key: str, code: str, message: str, **data: object) -> Violation:
    """A violation of rule ``key`` as numbered in ``era`` (for every combat module)."""
    return Violation(key, era.rule(key), code, message, dict(data))


# -- attacking ------------------------------------------------------------------------

def defending_players(state: GameState) -> list[str]:
    """The active player's opponents (in Two-Headed Giant, the other team)."""
    return [p for p in state.opponents(state.turn.active) if not state.players[p].lost]


def _is_twohg(state: GameState) -> bool:
    return bool(state.teams)


def attacker_violation(era: type[Era], state: GameState, oid: str) -> Violation | None:
    """Why this object can't be declared as an attacker now (508.1a, 302.6, 702.3b)."""
    obj = state.objects.get(oid)
    if obj is None or not obj.on_battlefield or not obj.is_creature:
        return _v(era, "combat.declare-attackers", "attack.not-creature",
                  f"{oid} is not a creature on the battlefield", attacker=oid)
    if obj.controller not in state.teammates(state.turn.active):
        return _v(era, "combat.declare-attackers", "attack.not-active-player",
                  f"{oid} is controlled by {obj.controller}, not by the active player "
                  f"{state.turn.active}", attacker=oid)
    if obj.tapped:
        return _v(era, "combat.attack-untapped", "attack.tapped",
                  f"{oid} is tapped and can't attack", attacker=oid)
    if obj.sick and not obj.has("haste"):
        return _v(era, "combat.summoning-sickness", "attack.summoning-sick",
                  f"{oid} came under {obj.controller}'s control this turn and has no haste",
                  attacker=oid)
    if obj.has("defender"):
        return _v(era, "keyword.defender", "attack.defender",
                  f"{oid} has defender and can't attack", attacker=oid)
    plane = _power_restriction(state, obj)
    if plane is not None:
        return _v(era, "combat.attack-restriction", "attack.plane-restriction",
                  f"{oid} has power {effective_power(state, obj)}: {plane} says creatures "
                  f"with power {_min_power(state, plane)} or greater can't attack",
                  attacker=oid, plane=plane)
    return None


def _power_restriction(state: GameState, obj: Obj) -> str | None:
    """The face-up plane whose static ability stops this creature from attacking or
    blocking (Hedron Fields of Agadeem: power 7 or greater), if any."""
    if state.planechase is None:
        return None
    for plane, effect in plane_statics(state, "cant-attack-or-block"):
        if (effective_power(state, obj) or 0) >= int(effect.get("min_power", 0)):
            return plane
    return None


def _min_power(state: GameState, plane: str) -> int:
    return min(int(e.get("min_power", 0)) for p, e in
               plane_statics(state, "cant-attack-or-block") if p == plane)


def attack_targets(era: type[Era], state: GameState, oid: str) -> list[str]:
    """Everything this creature could legally attack now (508.1b, 306.6, 310.5)."""
    if attacker_violation(era, state, oid) is not None:
        return []
    return _targets(era, state)


def _targets(era: type[Era], state: GameState) -> list[str]:
    defenders = defending_players(state)
    out: list[str] = []
    if _is_twohg(state) and era.twohg_attack_team:
        out.extend(t.id for t in state.teams.values()
                   if any(m in defenders for m in t.members))
    else:
        out.extend(defenders)
    for obj in state.battlefield():
        if obj.is_planeswalker and obj.controller in defenders:
            out.append(obj.id)
        elif era.battles and obj.is_battle and obj.protector in defenders:
            out.append(obj.id)
    return out


def legal_targets(era: type[Era], state: GameState) -> list[str]:
    """What an attacking creature may attack in this state (the same for each one)."""
    return _targets(era, state)


def attack_violation(era: type[Era], state: GameState, oid: str, target: str,
                     targets: list[str] | None = None) -> Violation | None:
    why = attacker_violation(era, state, oid)
    if why is not None:
        return why
    if target in (targets if targets is not None else _targets(era, state)):
        return None
    defenders = defending_players(state)
    if target in state.teams:
        return _v(era, "twohg.attack-player", "attack.team",
                  f"{oid} can't attack the team {target}: since Dominaria each creature "
                  f"attacks a player or a planeswalker", attacker=oid, target=target)
    if target in state.players:
        if _is_twohg(state) and era.twohg_attack_team and target in defenders:
            return _v(era, "twohg.attack-team", "attack.team-player",
                      f"{oid} attacks the defending team, not one of its players",
                      attacker=oid, target=target)
        return _v(era, "combat.attack-target", "attack.not-opponent",
                  f"{target} is not a defending player", attacker=oid, target=target)
    obj = state.objects.get(target)
    if obj is None:
        return _v(era, "combat.attack-target", "attack.unknown-target",
                  f"{target!r} is not a player, team, planeswalker or battle",
                  attacker=oid, target=target)
    if obj.is_battle and obj.on_battlefield:
        if not era.battles:
            return _v(era, "combat.attack-target", "attack.no-battles",
                      "battles can't be attacked before March of the Machine",
                      attacker=oid, target=target)
        return _v(era, "battle.protector", "attack.battle-protector",
                  f"{target}'s protector {obj.protector} is not a defending player",
                  attacker=oid, target=target)
    if obj.is_planeswalker and obj.on_battlefield:
        return _v(era, "combat.attack-target", "attack.own-planeswalker",
                  f"{target} is controlled by {obj.controller}, not by a defending player",
                  attacker=oid, target=target)
    return _v(era, "pw.can-be-attacked", "attack.not-attackable",
              f"{target} is not a planeswalker or battle on the battlefield",
              attacker=oid, target=target)


def declare_attackers(era: type[Era], state: GameState, trace: Trace,
                      declaration: dict[str, str]) -> GameState:
    """Declare attackers (508.1; 308.1 in Lorwyn): assumes every pair was checked. The
    declaration is one turn-based action: one step of the trace, citing the rule of the
    declaration (in Two-Headed Giant, the variant's rule), with every attacker and what
    it attacks. `attack: {}` declares no attackers (508.1a: "which creatures, if any")."""
    attackers: dict[str, str | None] = {}
    defending: dict[str, str] = {}
    for oid, target in declaration.items():
        attackers[oid] = target
        defending[oid] = _defending_player_for(state, target)
        obj = state.obj(oid)
        if not obj.has("vigilance"):
            state = state.with_object(evolve(obj, tapped=True))
    if declaration:
        trace.add(_declaration_rule(era, state), "combat.attacks", player=state.turn.active,
                  attacks=dict(declaration))
    else:
        trace.add("combat.declare-attackers", "combat.no-attackers", player=state.turn.active)
    combat = Combat(attackers=attackers, defending=defending)
    state = evolve(state, combat=combat, turn=evolve(state.turn, step="declare-attackers"))
    # "Whenever a creature you control attacks" (Hellrider, 508.1m): they trigger now.
    return attack_triggers(era, state, trace, declaration)


def _declaration_rule(era: type[Era], state: GameState) -> str:
    """The rule of an attack declaration: Two-Headed Giant's own, else 508.1 (308.1)."""
    if _is_twohg(state):
        return "twohg.attack-team" if era.twohg_attack_team else "twohg.attack-player"
    return "combat.declare-attackers"


COMBAT_STEPS = frozenset({"declare-attackers", "declare-blockers", "combat-damage",
                          "end-of-combat"})


def enter_attacking(era: type[Era], state: GameState, trace: Trace, oid: str, target: str,
                    ) -> GameState:
    """``oid`` has just been put onto the battlefield attacking ``target`` (508.4): the
    controller's choice (or the effect's) among the defending players, planeswalkers they
    control and battles they protect. It is attacking but was never declared as an
    attacker; put onto the battlefield after blockers were declared, no creature was
    declared to block it, so it is unblocked (509.1h; said outright by 508.4d from 2025).
    It enters but is never attacking outside combat, if it isn't a creature (506.3a), if
    an attacking player doesn't control it (506.3b), or if what it would attack is gone
    (508.4a)."""
    obj = state.obj(oid)
    combat = state.combat
    why: tuple[str, str] | None = None
    if combat is None or state.turn.step not in COMBAT_STEPS:
        why = ("combat.enter-attacking", "combat.enters-outside-combat")
    elif not obj.is_creature:
        why = ("combat.enter-attacking-noncreature", "combat.enters-noncreature")
    elif obj.controller not in state.teammates(state.turn.active):
        why = ("combat.enter-attacking-not-attacker", "combat.enters-not-attacker")
    elif target not in _targets(era, state):
        t = state.objects.get(target)
        gone = (target in state.players and state.players[target].lost) or (
            t is not None and (not t.on_battlefield or not (
                t.is_planeswalker or (era.battles and t.is_battle))))
        why = ("combat.enter-attacking-target-gone", "combat.enters-target-gone") if gone \
            else ("combat.enter-attacking", "combat.enters-target-invalid")
    if why is not None or combat is None:
        key, event = why or ("combat.enter-attacking", "combat.enters-outside-combat")
        trace.add(key, event, object=oid, target=target)
        return state
    attackers = {**combat.attackers, oid: target}
    defending = {**combat.defending, oid: _defending_player_for(state, target)}
    blockers = dict(combat.blockers)
    if combat.blocks_declared:
        blockers[oid] = ()
    trace.add("combat.enter-attacking", "combat.enters-attacking-unblocked"
              if combat.blocks_declared else "combat.enters-attacking",
              attacker=oid, target=target)
    return evolve(state, combat=evolve(combat, attackers=attackers, defending=defending,
                                       blockers=blockers))


def _defending_player_for(state: GameState, target: str) -> str:
    """508.5: the player attacked, the planeswalker's controller, the battle's protector."""
    if target in state.players:
        return target
    if target in state.teams:
        return state.teams[target].members[0]
    obj = state.obj(target)
    if obj.is_battle and obj.protector:
        return obj.protector
    return obj.controller


# -- blocking -------------------------------------------------------------------------

def blocker_violation(era: type[Era], state: GameState, blocker: str, attacker: str,
                      ) -> Violation | None:
    """Why ``blocker`` can't block ``attacker`` (509.1a, 702.9b, 702.17b, 310.9)."""
    combat = state.combat
    b = state.objects.get(blocker)
    if b is None or not b.on_battlefield or not b.is_creature:
        return _v(era, "combat.declare-blockers", "block.not-creature",
                  f"{blocker} is not a creature on the battlefield", blocker=blocker)
    if combat is None or attacker not in combat.attackers:
        return _v(era, "combat.declare-blockers", "block.not-attacking",
                  f"{attacker} is not an attacking creature", blocker=blocker,
                  attacker=attacker)
    if b.tapped:
        return _v(era, "combat.declare-blockers", "block.tapped",
                  f"{blocker} is tapped and can't block", blocker=blocker)
    defender = combat.defending[attacker]
    target = combat.attackers[attacker]
    if _is_twohg(state):
        if b.controller not in state.teammates(defender):
            return _v(era, "twohg.block-any", "block.not-defending-team",
                      f"{blocker} is not controlled by a player of the defending team",
                      blocker=blocker, attacker=attacker)
    elif b.controller != defender:
        return _v(era, "combat.declare-blockers", "block.not-defending-player",
                  f"{blocker} is controlled by {b.controller}, not by {attacker}'s "
                  f"defending player {defender}", blocker=blocker, attacker=attacker)
    if target is not None and target in state.objects:
        t = state.obj(target)
        if era.battles and t.is_battle and b.controller != t.protector:
            return _v(era, "battle.protector", "block.not-protector",
                      f"only {target}'s protector {t.protector} can block creatures "
                      f"attacking it", blocker=blocker, attacker=attacker)
    a = state.obj(attacker)
    quality = matching(a.protection, Source.of(b)) if a.protection else None
    if quality is not None:
        return _v(era, "protection.block", "block.protection",
                  f"{attacker} has protection from {quality}: {blocker} can't block it",
                  blocker=blocker, attacker=attacker, quality=quality)
    if a.has("flying") and not (b.has("flying") or b.has("reach")):
        return _v(era, "keyword.flying", "block.flying",
                  f"{attacker} has flying: {blocker} needs flying or reach to block it",
                  blocker=blocker, attacker=attacker)
    plane = _power_restriction(state, b)
    if plane is not None:
        return _v(era, "combat.block-restriction", "block.plane-restriction",
                  f"{blocker} has power {effective_power(state, b)}: {plane} says creatures "
                  f"with power {_min_power(state, plane)} or greater can't block",
                  blocker=blocker, attacker=attacker, plane=plane)
    return None


def block_violations(era: type[Era], state: GameState, declaration: dict[str, str],
                     ) -> Iterator[tuple[str, Violation]]:
    """Every problem with a whole block declaration, as (blocker or attacker, why)."""
    combat = state.combat
    if combat is not None and combat.blocks_declared:
        yield "", _v(era, "combat.declare-blockers", "block.twice",
                     "blockers were already declared this combat")
        return
    for blocker, attacker in declaration.items():
        why = blocker_violation(era, state, blocker, attacker)
        if why is not None:
            yield blocker, why
    counts: dict[str, int] = {}
    for attacker in declaration.values():
        counts[attacker] = counts.get(attacker, 0) + 1
    for attacker, n in counts.items():
        obj = state.objects.get(attacker)
        if obj is not None and obj.has("menace") and n < 2:
            yield attacker, _v(era, "keyword.menace", "block.menace",
                               f"{attacker} has menace: it can't be blocked except by two or "
                               f"more creatures", attacker=attacker)


def declare_blockers(era: type[Era], state: GameState, trace: Trace,
                     declaration: dict[str, str]) -> GameState:
    assert state.combat is not None
    blockers: dict[str, tuple[str, ...]] = {a: () for a in state.combat.attackers}
    for blocker, attacker in declaration.items():
        blockers[attacker] = blockers[attacker] + (blocker,)
        trace.add("twohg.block-any" if _is_twohg(state) else "combat.declare-blockers",
                  "combat.blocks", blocker=blocker, attacker=attacker)
    if not declaration:  # 509.1a: "which creatures, if any, will block"
        trace.add("combat.declare-blockers", "combat.no-blockers")
    blocked = frozenset(a for a, bs in blockers.items() if bs)
    for attacker, bs in blockers.items():
        if len(bs) > 1 and era.blocker_division == "ordered":
            # 509.2: the order is announced right after blockers are declared: the
            # declaration's order, unless an `order` action announces another (it then
            # takes this step's place: one announcement, one step).
            trace.add("combat.damage-assignment-order", "combat.order", attacker=attacker,
                      order=list(bs), as_declared=True)
    combat = evolve(state.combat, blockers=blockers, blocked=blocked, blocks_declared=True)
    return evolve(state, combat=combat, turn=evolve(state.turn, step="declare-blockers"))


def order_violation(era: type[Era], state: GameState, attacker: str, order: list[str],
                    ) -> Violation | None:
    combat = state.combat
    if combat is None or attacker not in combat.attackers:
        return _v(era, "combat.damage-assignment-order", "order.not-attacking",
                  f"{attacker} is not an attacking creature", attacker=attacker)
    current = combat.blockers.get(attacker, ())
    if sorted(order) != sorted(current):
        return _v(era, "combat.damage-assignment-order", "order.not-blockers",
                  f"the order must list exactly the creatures blocking {attacker}: "
                  f"{', '.join(current) or 'none'}", attacker=attacker)
    return None
