"""Triggered abilities of damage the engine models: Lorwyn's lifelink and deathtouch (each
instance triggers, 502.68 and 502.63) and Hellrider's attack trigger.

A triggered ability waits until a player would receive priority: the state-based
actions are performed first, then the waiting abilities are put on the stack, the
active player's first (603.3b, APNAP order), and, the engine's actions happening with an
empty stack, they resolve one by one, the last put on the stack first, with
state-based actions checked after each (``engine.sba.check`` drives this).
"""

from __future__ import annotations

from engine.eras import Era
from engine.errors import DocumentError, ErrorItem
from engine.state import GameState, Source, Trigger, evolve
from engine.trace import Trace
from engine.zones import move_object


def next_trigger(state: GameState) -> tuple[Trigger, GameState]:
    """The waiting triggered ability that resolves first, and the state without it: the
    non-active players' abilities go on the stack after the active player's, so resolve
    before them (APNAP, 101.4, 603.3b); each player's in the order they triggered."""
    triggers = state.triggers
    active = state.turn.active
    order = [i for i, t in enumerate(triggers) if t.source.controller not in
             state.teammates(active)] + [i for i, t in enumerate(triggers)
                                         if t.source.controller in state.teammates(active)]
    # The stack: active player's first (bottom) ... the last one put on top resolves
    # first; within one player's abilities the engine keeps the order they triggered.
    first = order[0]
    rest = tuple(t for i, t in enumerate(triggers) if i != first)
    return triggers[first], evolve(state, triggers=rest)


def resolve_next(era: type[Era], state: GameState, trace: Trace) -> GameState:
    """Resolve the waiting triggered ability that resolves first."""
    trigger, state = next_trigger(state)
    source = trigger.source
    if trigger.kind == "lifelink":
        player = source.controller
        state = state.with_life_change(player, trigger.amount)
        trace.add("keyword.lifelink", "damage.lifelink", source=source.id, player=player,
                  amount=trigger.amount, life=state.life(player), trigger=True)
        return state
    if trigger.kind == "deathtouch":
        target = trigger.target
        assert target is not None
        obj = state.objects.get(target)
        if (obj is None or not obj.on_battlefield or obj.generation != trigger.target_generation
                or not obj.is_creature):
            trace.add("keyword.deathtouch", "trigger.deathtouch-nothing", source=source.id,
                      object=target)
            return state
        if obj.has("indestructible"):
            trace.add_first(("keyword.indestructible", "keyword.deathtouch"),
                            "sba.indestructible", object=target, would="deathtouch")
            return state
        return move_object(state, target, "graveyard", trace, rule_key="keyword.deathtouch",
                           event="trigger.deathtouch-destroys", destroyed=True)
    if trigger.kind == "attack-damage":
        from engine.damage import damage_to_player, deal_damage

        target = trigger.target
        assert target is not None
        trace.add("spell.resolve", "trigger.attack-damage", source=source.id, target=target,
                  amount=trigger.amount)
        if target in state.players:
            state, _ = damage_to_player(era, state, trace, source, target, trigger.amount,
                                        None)
            return state
        obj = state.objects.get(target)
        if obj is None or not obj.on_battlefield or obj.generation != trigger.target_generation:
            trace.add("spell.resolve", "trigger.target-gone", source=source.id, target=target)
            return state
        return deal_damage(era, state, trace, source, target, trigger.amount, combat=False)
    raise DocumentError(ErrorItem("", f"unknown triggered ability {trigger.kind!r}"))


def attack_triggers(era: type[Era], state: GameState, trace: Trace,
                    declaration: dict[str, str]) -> GameState:
    """"Whenever a creature you control attacks, [this] deals 1 damage to the player or
    planeswalker it's attacking" (Hellrider; "to defending player" before Dominaria):
    one trigger per attacking creature, controlled by the permanent's controller."""
    from engine.protection import card_statics

    sources = list(card_statics(state, "attack-trigger-damage"))
    if not sources:
        return state
    combat = state.combat
    assert combat is not None
    triggers = list(state.triggers)
    for obj, effect in sources:
        for attacker, target in declaration.items():
            if state.obj(attacker).controller != obj.controller:
                continue
            if era.redirection_rule:  # "defending player" (the redirection rule's eras)
                if target in state.teams:
                    raise DocumentError(ErrorItem(
                        "", f"{obj.id}'s trigger deals damage to the defending player, and "
                            f"{attacker} attacks a team: which of its players the "
                            f"trigger damages is not modelled", None, era.key))
                recipient = combat.defending[attacker]
            else:  # "the player or planeswalker it's attacking"
                if target in state.objects and not state.obj(target).is_planeswalker:
                    trace.add("combat.attack-trigger", "trigger.attack-damage-nothing",
                              source=obj.id, attacker=attacker, target=target)
                    continue
                recipient = target
            generation = None if recipient in state.players else state.obj(recipient).generation
            triggers.append(Trigger("attack-damage", Source.of(obj), int(effect.get("amount", 1)),
                                    recipient, generation))
            trace.add("combat.attack-trigger", "trigger.attack", source=obj.id, attacker=attacker,
                      target=recipient)
    return evolve(state, triggers=tuple(triggers))
