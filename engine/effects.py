"""Resolving the effects the card catalogue models (spells and loyalty abilities).

A target that became illegal is not affected (608.2b); damage to a player may be
redirected to a planeswalker in the eras of the redirection rule (before dom-2018).
"""

from __future__ import annotations

from collections.abc import Mapping

from engine.cards import Effect, Wording
from engine.damage import Source, damage_to_player, deal_damage
from engine.eras import Era
from engine.state import GameState, evolve
from engine.targets import target_violation
from engine.trace import Trace
from engine.zones import change_control, move_object


def hit(era: type[Era], state: GameState, trace: Trace, source: Source, recipient: str,
        amount: int, redirect_to: Mapping[str, str]) -> GameState:
    """Non-combat damage to a player (perhaps redirected) or to a permanent."""
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
                state = hit(era, state, trace, source, t, amount, redirect_to)
        if kind == "damage-and-discard":
            trace.add(None, "effect.discard", amount=effect.get("discard", 0))
    elif kind == "damage-divided":
        assert isinstance(targets, dict)
        for i, (t, n) in enumerate(targets.items()):
            if still_legal(i, t):
                state = hit(era, state, trace, source, t, n, redirect_to)
    elif kind == "damage-each":
        without = effect.get("creatures_without")
        for obj in state.battlefield():
            if obj.is_creature and not (without and obj.has(without)):
                state = deal_damage(era, state, trace, source, obj.id, amount, combat=False)
        if effect.get("players", False):
            for player in state.players:
                if not state.players[player].lost:
                    state = hit(era, state, trace, source, player, amount, redirect_to)
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
        state = hit(era, state, trace, source, caster, int(self_damage), {})
    return state

