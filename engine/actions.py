"""Actions as value objects, and performing them under an era's rules.

Each ``perform_*`` checks the action (raising :class:`IllegalAction` with the rule it
breaks), then returns the new state. State-based actions are checked by the runner
after every action, as the rules say.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from engine import combat as cb
from engine import sba
from engine.cards import Ability, Card, Effect, Wording, find_card
from engine.damage import Source, damage_to_player, deal_damage, redirection_violation
from engine.eras import Era, era_end
from engine.errors import DocumentError, IllegalAction, Violation
from engine.planechase import plane_statics
from engine.state import (
    MAIN_STEPS,
    GameState,
    Obj,
    evolve,
    step_index,
    with_counters,
)
from engine.targets import target_violation
from engine.trace import Trace
from engine.zones import change_control, move_object, remove_from_combat


@dataclass(frozen=True, slots=True)
class Action:
    kind: str
    path: str
    args: Mapping[str, Any] = field(default_factory=dict)


def _fail(path: str, era: type[Era], key: str, code: str, message: str,
          **data: Any) -> IllegalAction:
    return IllegalAction(path, Violation(key, era.rule(key), code, message, data), era.key)


def _raise(path: str, era: type[Era], why: Violation | None) -> None:
    if why is not None:
        raise IllegalAction(path, why, era.key)


# -- combat ---------------------------------------------------------------------------------

def perform_attack(era: type[Era], state: GameState, trace: Trace, action: Action) -> GameState:
    decl: dict[str, str] = dict(action.args)
    if state.combat is not None and state.combat.attackers:
        raise _fail(action.path, era, "combat.declare-attackers", "attack.twice",
                    "attackers were already declared this combat")
    if step_index(state.turn.step) > step_index("declare-attackers"):
        raise _fail(action.path, era, "combat.declare-attackers", "attack.too-late",
                    f"it is the {state.turn.step} step: attackers are declared in the "
                    f"declare attackers step")
    targets = cb.legal_targets(era, state)
    for attacker, target in decl.items():
        _raise(f"{action.path}.{attacker}", era,
               cb.attack_violation(era, state, attacker, target, targets))
    return cb.declare_attackers(era, state, trace, decl)


def perform_block(era: type[Era], state: GameState, trace: Trace, action: Action) -> GameState:
    decl: dict[str, str] = dict(action.args)
    if state.combat is None or not state.combat.attackers:
        raise _fail(action.path, era, "combat.declare-blockers", "block.no-attackers",
                    "no creature is attacking")
    for who, why in cb.block_violations(era, state, decl):
        raise IllegalAction(f"{action.path}.{who}" if who else action.path, why, era.key)
    return cb.declare_blockers(era, state, trace, decl)


def perform_order(era: type[Era], state: GameState, trace: Trace, action: Action) -> GameState:
    if era.blocker_division != "ordered":
        trace.add(None, "order.no-rule", removed_rule="combat.damage-assignment-order")
        return state
    combat = state.combat
    if combat is None:
        raise _fail(action.path, era, "combat.damage-assignment-order", "order.no-combat",
                    "there is no combat")
    blockers = dict(combat.blockers)
    for attacker, order in action.args.items():
        _raise(f"{action.path}.{attacker}", era,
               cb.order_violation(era, state, attacker, list(order)))
        blockers[attacker] = tuple(order)
        trace.add("combat.damage-assignment-order", "combat.order", attacker=attacker,
                  order=list(order))
    return evolve(state, combat=evolve(combat, blockers=blockers))


def perform_assign(era: type[Era], state: GameState, trace: Trace, action: Action) -> GameState:
    combat = state.combat
    if combat is None or not combat.attackers:
        raise _fail(action.path, era, "combat.damage-blocked", "assign.no-combat",
                    "no creature is attacking")
    assignments = dict(combat.assignments)
    paths = dict(combat.assign_paths)
    for attacker, amounts in action.args.items():
        if attacker not in combat.attackers:
            raise _fail(f"{action.path}.{attacker}", era, "combat.damage-blocked",
                        "assign.not-attacking", f"{attacker} is not an attacking creature")
        assignments[attacker] = dict(amounts)
        paths[attacker] = f"{action.path}.{attacker}"
    state = evolve(state, combat=evolve(combat, assignments=assignments, assign_paths=paths))
    # Check now what can be checked now: the assignments of the creatures that deal damage
    # in the next combat damage step (others wait for the step they belong to).
    first = cb.first_strike_step_needed(state)
    try:
        cb.assign_step(era, state, Trace(era), first_strike=first)
    except cb.AssignmentError as err:
        if err.attacker in action.args:
            raise IllegalAction(f"{action.path}.{err.attacker}", err.violation,
                                era.key) from None
    return state


def lock_in_combat_damage(era: type[Era], state: GameState, trace: Trace, path: str,
                          ) -> GameState:
    """Lorwyn: a combat damage step begins; every assignment goes on the stack (310.1)."""
    first = cb.first_strike_step_needed(state)
    if first:
        trace.add("combat.first-strike-step", "combat.damage-step", first_strike=True)
    assigned = _assign_or_fail(era, state, trace, first, path)
    pending = cb.to_pending(state, assigned)
    trace.add("combat.damage-on-stack", "combat.damage-on-stack", count=len(pending),
              first_strike=first)
    state = cb.mark_step_done(state, first, assigned)
    assert state.combat is not None
    return evolve(state, combat=evolve(state.combat, pending=pending,
                                         pending_first_strike=first))


def _assign_or_fail(era: type[Era], state: GameState, trace: Trace, first: bool,
                    path: str) -> list[cb.Assigned]:
    assert state.combat is not None
    paths = state.combat.assign_paths
    try:
        return cb.assign_step(era, state, trace, first_strike=first)
    except cb.AssignmentError as err:
        raise IllegalAction(paths.get(err.attacker, path), err.violation, era.key) from None


def perform_combat_damage(era: type[Era], state: GameState, trace: Trace, action: Action,
                          keep: tuple[str, ...]) -> GameState:
    """The remaining combat damage steps (510), or only the first-strike one (510.4)."""
    combat = state.combat
    if combat is None or not combat.attackers and not combat.pending:
        raise _fail(action.path, era, "combat.damage-dealt", "damage.no-combat",
                    "no creature is attacking: there is no combat damage step")
    only_first = action.args.get("step") == "first-strike"
    if combat.pending:
        # Lorwyn: damage already on the stack resolves first.
        was_first = combat.pending_first_strike
        state = cb.resolve_pending(era, state, trace)
        state, _ = sba.check(era, state, trace, keep)
        if only_first and not was_first:
            raise _no_first_strike(era, action.path)
        if only_first or not was_first:
            return state
    else:
        if combat.regular_done:
            raise _fail(action.path, era, "combat.damage-dealt", "damage.done",
                        "combat damage was already dealt this combat")
        first = cb.first_strike_step_needed(state)
        if only_first and not first:
            raise _no_first_strike(era, action.path)
        if first:
            state = _one_step(era, state, trace, True, action.path)
            state, _ = sba.check(era, state, trace, keep)
            if only_first:
                return state
    if state.combat is not None and not state.combat.regular_done:
        state = _one_step(era, state, trace, False, action.path)
    return state


def _no_first_strike(era: type[Era], path: str) -> IllegalAction:
    return _fail(path, era, "combat.first-strike-step", "damage.no-first-strike",
                 "there is no first-strike combat damage step: no attacking or blocking "
                 "creature has first strike or double strike")


def _one_step(era: type[Era], state: GameState, trace: Trace, first: bool,
              path: str) -> GameState:
    """One combat damage step: assign, then (off the stack) deal it all at once."""
    if era.combat_damage_uses_stack:
        state = lock_in_combat_damage(era, state, trace, path)
        state = cb.resolve_pending(era, state, trace)
        return state
    trace.add("combat.first-strike-step" if first else "combat.damage-dealt",
              "combat.damage-step", first_strike=first)
    assigned = _assign_or_fail(era, state, trace, first, path)
    state = cb.mark_step_done(state, first, assigned)
    return cb.deal_assigned(era, state, trace, assigned)


# -- spells, abilities and their effects ------------------------------------------------------

def _card_exists_violation(era: type[Era], card: Card) -> Violation | None:
    end = era_end(era)
    if end is not None and card.released >= end:
        return Violation("spell.targets", era.rule("spell.targets"), "card.not-yet-printed",
                         f"{card.name['en']} was first printed on {card.released.isoformat()},"
                         f" after the {era.name} rules ({era.key}) were replaced",
                         {"card": card.slug})
    return None


def _check_targets(era: type[Era], state: GameState, path: str, caster: str,
                   wording: Wording, targets: list[str], *, divided: bool = False,
                   max_targets: int = 1) -> None:
    if divided:
        spec = wording.targets[0] if wording.targets else frozenset()
        if not 1 <= len(targets) <= max_targets:
            raise _fail(path, era, "spell.targets", "target.count",
                        f"choose between 1 and {max_targets} targets (“{wording.text}”)")
        specs = [spec] * len(targets)
    else:
        specs = list(wording.targets)
        if len(targets) != len(specs):
            raise _fail(path, era, "spell.targets", "target.count",
                        f"this needs {len(specs)} target(s), {len(targets)} given "
                        f"(“{wording.text}”)")
    for i, (spec, target) in enumerate(zip(specs, targets, strict=True)):
        why = target_violation(era, state, caster, spec, target, wording.text)
        if why is not None:
            raise IllegalAction(f"{path}.targets[{i}]" if not divided
                                else f"{path}.targets.{target}", why, era.key)


def _redirects(era: type[Era], state: GameState, path: str, source: Source,
               redirect_to: Mapping[str, str]) -> None:
    if not era.redirection_rule:
        return
    for player, pw in redirect_to.items():
        if player not in state.players:
            raise _fail(f"{path}.redirect_to.{player}", era, "pw.redirection",
                        "redirect.not-player", f"{player!r} is not a player")
        why = redirection_violation(era, state, source, player, pw, combat=False)
        if why is not None:
            raise IllegalAction(f"{path}.redirect_to.{player}", why, era.key)


def _hit(era: type[Era], state: GameState, trace: Trace, source: Source, recipient: str,
         amount: int, redirect_to: Mapping[str, str]) -> GameState:
    if state.is_player(recipient):
        state, _ = damage_to_player(era, state, trace, source, recipient, amount,
                                    redirect_to.get(recipient))
        return state
    return deal_damage(era, state, trace, source, recipient, amount, combat=False)


def resolve_effect(era: type[Era], state: GameState, trace: Trace, path: str, effect: Effect,
                   source: Source, wording: Wording, targets: list[str] | dict[str, int],
                   x: int | None, redirect_to: Mapping[str, str]) -> GameState:
    """Resolve a modelled effect. A target that became illegal is not affected (608.2b)."""
    caster = source.controller
    kind = effect.kind
    target_list = list(targets) if not isinstance(targets, dict) else list(targets)

    def still_legal(i: int, t: str) -> bool:
        spec = wording.targets[min(i, len(wording.targets) - 1)] if wording.targets else None
        if spec is None:
            return True
        ok = target_violation(era, state, caster, spec, t) is None
        if not ok:
            trace.add("spell.targets", "effect.target-illegal", target=t)
        return ok

    amount_raw = effect.get("amount", 0)
    amount = (x or 0) if amount_raw == "X" else int(amount_raw or 0)
    if kind in ("damage", "damage-and-discard"):
        for i, t in enumerate(target_list):
            if still_legal(i, t):
                state = _hit(era, state, trace, source, t, amount, redirect_to)
        if kind == "damage-and-discard":
            trace.add(None, "effect.discard", amount=effect.get("discard", 0))
    elif kind == "damage-divided":
        assert isinstance(targets, dict)
        for i, (t, n) in enumerate(targets.items()):
            if still_legal(i, t):
                state = _hit(era, state, trace, source, t, n, redirect_to)
    elif kind == "damage-each":
        without = effect.get("creatures_without")
        for obj in state.battlefield():
            if obj.is_creature and not (without and obj.has(without)):
                state = deal_damage(era, state, trace, source, obj.id, amount, combat=False)
        if effect.get("players", False):
            for player in state.players:
                if not state.players[player].lost:
                    state = _hit(era, state, trace, source, player, amount, redirect_to)
    elif kind == "destroy":
        for i, t in enumerate(target_list):
            if not still_legal(i, t):
                continue
            if state.obj(t).has("indestructible"):
                trace.add_first(("keyword.indestructible", "spell.resolve"),
                                "effect.indestructible", object=t)
                continue
            state = move_object(state, t, "graveyard", trace, rule_key="spell.resolve",
                                event="effect.destroyed")
    elif kind == "gain-control":
        for i, t in enumerate(target_list):
            if not still_legal(i, t):
                continue
            before = state.obj(t).controller
            state = change_control(state, t, caster, trace)
            obj = state.obj(t)
            keywords = obj.keywords
            eot = obj.eot_keywords
            if effect.get("haste"):
                keywords, eot = keywords | {"haste"}, eot | {"haste"}
            state = state.with_object(evolve(
                obj, tapped=False if effect.get("untap") else obj.tapped,
                keywords=keywords, eot_keywords=eot,
                eot_controller=obj.eot_controller or before))
    elif kind == "gain-life":
        state = state.with_life_change(caster, amount)
        trace.add(None, "effect.gain-life", player=caster, amount=amount)
    else:
        trace.add(None, "effect.not-modelled", kind=kind)
    gain = effect.get("gain_life")
    if gain and kind != "gain-life":
        state = state.with_life_change(caster, int(gain))
        trace.add(None, "effect.gain-life", player=caster, amount=int(gain))
    self_damage = effect.get("self_damage")
    if self_damage:
        state = _hit(era, state, trace, source, caster, int(self_damage), {})
    return state


def perform_cast(era: type[Era], state: GameState, trace: Trace, action: Action) -> GameState:
    args = action.args
    ref: str = args["card"]
    by: str = args["by"]
    obj = state.objects.get(ref)
    if obj is not None:
        if obj.zone != "hand" or obj.owner != by:
            raise _fail(f"{action.path}.card", era, "spell.targets", "cast.not-in-hand",
                        f"{ref} is not in {by}'s hand")
        if obj.card is None:
            raise DocumentError.at(f"{action.path}.card",
                                   f"{ref} is an inline object: only catalog cards can be cast")
        card = find_card(obj.card)
    else:
        card = find_card(ref)
    _raise(f"{action.path}.card", era, _card_exists_violation(era, card))
    sorcery_speed = not card.types & {"instant"}
    if sorcery_speed:
        _check_sorcery_timing(era, state, action.path, by, card.name["en"])
    source = Source(obj.id if obj else card.slug, by)
    name = card.name["en"]
    if card.is_spell_card:
        effect = card.effect or Effect("none", {})
        wording = card.wording(era.key)
        raw_targets = args.get("targets") or []
        divided = effect.kind == "damage-divided"
        if divided and not isinstance(raw_targets, dict):
            raise DocumentError.at(f"{action.path}.targets",
                                   f"{name} divides its damage: write targets as a mapping "
                                   f"target -> amount")
        target_ids = list(raw_targets)
        _check_targets(era, state, action.path, by, wording, target_ids, divided=divided,
                       max_targets=int(effect.get("max_targets", 1)))
        if divided:
            assert isinstance(raw_targets, dict)
            total = sum(raw_targets.values())
            if total != int(effect.get("amount", 0)) or min(raw_targets.values()) < 1:
                raise _fail(f"{action.path}.targets", era, "spell.targets", "target.division",
                            f"{name} divides {effect.get('amount')} damage, at least 1 to "
                            f"each target (this gives {total})")
        if effect.get("amount") == "X" and args.get("x") is None:
            raise DocumentError.at(f"{action.path}.x", f"{name} needs a value for X")
        _redirects(era, state, action.path, source, args.get("redirect_to") or {})
        trace.add("spell.targets", "spell.cast", card=card.slug, by=by, targets=target_ids,
                  wording=wording.text)
        state = resolve_effect(era, state, trace, action.path, effect, source, wording,
                               raw_targets if divided else target_ids, args.get("x"),
                               args.get("redirect_to") or {})
        if obj is not None:
            state = move_object(state, obj.id, "graveyard", trace, rule_key="spell.resolve",
                                event="spell.to-graveyard")
        return state
    # A permanent spell: it resolves and enters the battlefield under the caster's control.
    if obj is None:
        raise DocumentError.at(f"{action.path}.card",
                               f"to cast the permanent {name}, put it in {by}'s hand in setup")
    trace.add("spell.resolve", "spell.cast", card=card.slug, by=by, targets=[])
    return enter_battlefield(era, state, trace, obj.id, controller=by, counters=None)


def _check_sorcery_timing(era: type[Era], state: GameState, path: str, player: str,
                          what: str) -> None:
    if player not in state.teammates(state.turn.active) or state.turn.step not in MAIN_STEPS:
        raise _fail(path, era, "spell.sorcery-timing", "cast.timing",
                    f"{what} can be cast only in a main phase of its caster's turn")
    if state.combat is not None and state.combat.pending:
        raise _fail(path, era, "spell.sorcery-timing", "cast.stack-not-empty",
                    f"{what} can be cast only while the stack is empty")


def perform_damage(era: type[Era], state: GameState, trace: Trace, action: Action) -> GameState:
    args = action.args
    src_id: str = args["source"]
    obj = state.objects.get(src_id)
    source = Source.of(obj) if obj is not None else Source(src_id, src_id)
    to: str = args["to"]
    amount = int(args["amount"])
    combat = bool(args.get("combat", False))
    redirect = args.get("redirect_to")
    if to not in state.players:
        target = state.obj(to)
        if not target.on_battlefield:
            raise _fail(f"{action.path}.to", era, "damage.to-creature", "damage.gone",
                        f"{to} is not on the battlefield")
    if redirect is not None and era.redirection_rule:
        if to not in state.players:
            raise _fail(f"{action.path}.redirect_to", era, "pw.redirection",
                        "redirect.not-player",
                        "only damage to a player can be redirected to a planeswalker")
        why = redirection_violation(era, state, source, to, redirect, combat=combat)
        if why is not None:
            raise IllegalAction(f"{action.path}.redirect_to", why, era.key)
    if to in state.players and not combat:
        state, _ = damage_to_player(era, state, trace, source, to, amount, redirect)
        return state
    if redirect is not None:
        trace.add(None, "redirect.no-rule", removed_rule="pw.redirection")
    return deal_damage(era, state, trace, source, to, amount, combat=combat)


def loyalty_violation(era: type[Era], state: GameState, permanent: str, index: int,
                      x: int | None) -> Violation | None:
    """Why loyalty ability ``index`` (1-based) of ``permanent`` can't be activated now
    (606.3 timing and once per turn; 606.5/606.6 enough loyalty for a negative cost)."""
    def v(key: str, code: str, message: str) -> Violation:
        return Violation(key, era.rule(key), code, message,
                         {"permanent": permanent, "ability": index})

    obj = state.objects.get(permanent)
    if obj is None or not obj.on_battlefield or not obj.is_planeswalker:
        return v("loyalty.ability-timing", "loyalty.not-planeswalker",
                 f"{permanent} is not a planeswalker on the battlefield")
    abilities = find_card(obj.card).abilities if obj.card else ()
    if not 1 <= index <= len(abilities):
        return v("loyalty.ability-timing", "loyalty.no-ability",
                 f"{permanent} has {len(abilities)} loyalty abilities; there is no ability "
                 f"{index}")
    controller = obj.controller
    if controller not in state.teammates(state.turn.active):
        return v("loyalty.ability-timing", "loyalty.not-your-turn",
                 f"{controller} can activate {permanent}'s loyalty abilities only in their own"
                 f" turn")
    if state.turn.step not in MAIN_STEPS:
        return v("loyalty.ability-timing", "loyalty.not-main-phase",
                 f"loyalty abilities are activated only in a main phase (now: "
                 f"{state.turn.step})")
    if state.combat is not None and state.combat.pending:
        return v("loyalty.ability-timing", "loyalty.stack-not-empty",
                 "loyalty abilities are activated only while the stack is empty")
    if (obj.id, obj.generation) in state.activated:
        return v("loyalty.ability-timing", "loyalty.once-per-turn",
                 f"a loyalty ability of {permanent} was already activated this turn")
    ability = abilities[index - 1]
    if ability.cost.replace("−", "-").strip() == "-X" and x is None:
        return v("loyalty.cost", "loyalty.x-missing", "this ability's cost is -X: give x")
    cost = ability.cost_value(x)
    if cost < 0 and -cost > obj.counter("loyalty"):
        return v("loyalty.not-enough-counters", "loyalty.not-enough",
                 f"{permanent} has {obj.counter('loyalty')} loyalty: it can't pay a cost of "
                 f"{cost}")
    return None


def perform_activate(era: type[Era], state: GameState, trace: Trace, action: Action,
                     keep: tuple[str, ...]) -> GameState:
    args = action.args
    permanent: str = args["permanent"]
    index = int(args["ability"])
    x = args.get("x")
    _raise(action.path, era, loyalty_violation(era, state, permanent, index, x))
    obj = state.obj(permanent)
    assert obj.card is not None
    ability: Ability = find_card(obj.card).abilities[index - 1]
    wording = ability.wording(era.key)
    targets = list(args.get("targets") or [])
    _check_targets(era, state, action.path, obj.controller, wording, targets)
    source = Source.of(obj)
    _redirects(era, state, action.path, source, args.get("redirect_to") or {})
    cost = ability.cost_value(x)
    state = state.with_object(with_counters(obj, "loyalty", cost))
    state = evolve(state, activated=state.activated | {(obj.id, obj.generation)})
    trace.add("loyalty.cost", "loyalty.activated", permanent=permanent, ability=index,
              cost=cost, loyalty=state.obj(permanent).counter("loyalty"), targets=targets)
    # The ability waits on the stack; state-based actions happen before it resolves, so a
    # planeswalker brought to 0 loyalty by the cost is gone first (704.5i).
    state, _ = sba.check(era, state, trace, keep)
    return resolve_effect(era, state, trace, action.path, ability.effect, source, wording,
                          targets, x, args.get("redirect_to") or {})


# -- zones, control, counters, turn structure --------------------------------------------------

def enter_battlefield(era: type[Era], state: GameState, trace: Trace, oid: str, *,
                      controller: str | None, counters: Mapping[str, int] | None,
                      ) -> GameState:
    """An object enters the battlefield as a new object (400.7); a planeswalker with its
    printed loyalty in loyalty counters (306.5b), a battle with its defense (310.4b)."""
    obj = state.obj(oid)
    new_counters: dict[str, int] = dict(counters or {})
    if counters is None:
        if obj.is_planeswalker and obj.loyalty is not None:
            new_counters["loyalty"] = obj.loyalty
        if obj.is_battle and obj.defense is not None and era.battles:
            new_counters["defense"] = obj.defense
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


def perform_enter(era: type[Era], state: GameState, trace: Trace, action: Action,
                  new_obj: Obj | None) -> GameState:
    if new_obj is not None:
        state = state.with_object(evolve(new_obj, zone="enter-pending"))
        oid = new_obj.id
    else:
        oid = action.args["id"]
        if state.obj(oid).on_battlefield:
            raise DocumentError.at(f"{action.path}.id",
                                   f"{oid} is already on the battlefield")
    counters = action.args.get("counters")
    return enter_battlefield(era, state, trace, oid, controller=action.args.get("controller"),
                             counters=counters)


def perform_move(era: type[Era], state: GameState, trace: Trace, action: Action) -> GameState:
    for oid, zone in action.args.items():
        if state.obj(oid).zone == "command":
            raise _fail(f"{action.path}.{oid}", era, "planechase.command-zone",
                        "move.command-zone", f"{oid} is a plane or phenomenon: it can't "
                        f"leave the command zone")
        state = move_object(state, oid, zone, trace, rule_key="zone.new-object",
                            event="zone.moved")
    return state


def perform_control(era: type[Era], state: GameState, trace: Trace, action: Action,
                    ) -> GameState:
    for oid, player in action.args.items():
        if not state.obj(oid).on_battlefield:
            raise DocumentError.at(f"{action.path}.{oid}", f"{oid} is not on the battlefield")
        state = change_control(state, oid, player, trace)
    return state


def perform_counters(era: type[Era], state: GameState, trace: Trace, action: Action,
                     ) -> GameState:
    for oid, kinds in action.args.items():
        obj = state.obj(oid)
        if not obj.on_battlefield:
            raise DocumentError.at(f"{action.path}.{oid}", f"{oid} is not on the battlefield")
        for kind, delta in kinds.items():
            obj = with_counters(obj, kind, int(delta))
            trace.add(None, "counters.changed", object=oid, kind=kind, delta=int(delta),
                      now=obj.counter(kind))
        state = state.with_object(obj)
    return state


def perform_become(era: type[Era], state: GameState, trace: Trace, action: Action,
                   ) -> GameState:
    """An effect changes characteristics. An attacked planeswalker that stops being a
    planeswalker, or an attacking or blocking creature that stops being a creature, is
    removed from combat (506.4)."""
    for oid, change in action.args.items():
        obj = state.obj(oid)
        if not obj.on_battlefield:
            raise DocumentError.at(f"{action.path}.{oid}", f"{oid} is not on the battlefield")
        new = evolve(
            obj,
            types=frozenset(change.get("types", obj.types)),
            subtypes=tuple(change.get("subtypes", obj.subtypes)),
            supertypes=frozenset(change.get("supertypes", obj.supertypes)),
            power=change.get("power", obj.power),
            toughness=change.get("toughness", obj.toughness),
            keywords=frozenset(change.get("keywords", obj.keywords)),
        )
        trace.add(None, "effect.characteristics", object=oid,
                  types=sorted(new.types), power=new.power, toughness=new.toughness)
        combat = state.combat
        state = state.with_object(new)
        if combat is not None:
            attacked = oid in combat.attackers.values()
            in_combat = oid in combat.attackers or combat.blocking(oid) is not None
            if (attacked and ((obj.is_planeswalker and not new.is_planeswalker)
                              or (obj.is_battle and not new.is_battle))) or (
                    in_combat and obj.is_creature and not new.is_creature):
                state = remove_from_combat(state, oid, trace, "stopped-being")
    return state


def perform_step(era: type[Era], state: GameState, trace: Trace, action: Action) -> GameState:
    target: str = action.args["step"]
    if step_index(target) <= step_index(state.turn.step):
        raise DocumentError.at(f"{action.path}", f"the turn is already at {state.turn.step}: "
                               f"`step` moves only to a later step of this turn")
    if state.combat is not None and state.combat.pending:
        state = cb.resolve_pending(era, state, trace)
    if step_index(target) > step_index("end-of-combat") and state.combat is not None:
        state = _end_combat(state, trace)
    if target == "cleanup":
        state = _cleanup(state, trace)
    trace.add(None, "turn.step", step=target)
    return evolve(state, turn=evolve(state.turn, step=target))


def _end_combat(state: GameState, trace: Trace) -> GameState:
    trace.add("combat.end", "combat.ends")
    return evolve(state, combat=None)


def _cleanup(state: GameState, trace: Trace) -> GameState:
    """514.2: damage wears off and "until end of turn" effects end, simultaneously."""
    trace.add("turn.cleanup", "turn.cleanup")
    objects = dict(state.objects)
    for oid, obj in objects.items():
        if obj.on_battlefield and (obj.damage or obj.deathtouched or obj.eot_controller
                                   or obj.eot_keywords):
            objects[oid] = evolve(
                obj, damage=0, deathtouched=False,
                controller=obj.eot_controller or obj.controller,
                eot_controller=None, keywords=obj.keywords - obj.eot_keywords,
                eot_keywords=frozenset(),
                sick=obj.sick or bool(obj.eot_controller))
    return evolve(state, objects=objects)


def perform_next_turn(era: type[Era], state: GameState, trace: Trace, action: Action,
                      ) -> GameState:
    if state.combat is not None and state.combat.pending:
        state = cb.resolve_pending(era, state, trace)
    if state.combat is not None:
        state = _end_combat(state, trace)
    state = _cleanup(state, trace)
    order = list(state.players)
    current = state.turn.active
    team = set(state.teammates(current))
    i = order.index(current)
    nxt = current
    for k in range(1, len(order) + 1):
        candidate = order[(i + k) % len(order)]
        if candidate not in team and not state.players[candidate].lost:
            nxt = candidate
            break
    new_team = set(state.teammates(nxt))
    skipped = plane_statics(state, "skip-untap")  # The Eon Fog: no untap step
    objects = dict(state.objects)
    for oid, obj in objects.items():
        if obj.on_battlefield and obj.controller in new_team:
            objects[oid] = evolve(obj, tapped=obj.tapped and bool(skipped), sick=False)
    trace.add(None, "turn.begins", active=nxt, number=state.turn.number + 1)
    for plane, _effect in skipped:
        trace.add("planechase.plane-abilities", "planechase.untap-skipped", plane=plane,
                  player=nxt)
    if state.planechase is not None:
        state = evolve(state, planechase=evolve(state.planechase, rolls={}))
    return evolve(state, objects=objects, activated=frozenset(), combat=None,
                   turn=evolve(state.turn, active=nxt, step="main1",
                                number=state.turn.number + 1))
