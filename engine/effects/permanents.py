"""Effects on permanents: destroy, exile, return, control, +X/+Y, untap, sacrifice, tokens."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.cards import Effect
from engine.effects.resolution import (
    Resolution,
    ResolutionError,
    handles,
    rule_or_resolution,
)
from engine.eras import Era
from engine.state import GameState, Obj, evolve, with_counters
from engine.trace import Trace
from engine.zones import change_control, enter_battlefield, move_object


def _destroy(r: Resolution, oid: str) -> None:
    if r.state.obj(oid).has("indestructible"):
        r.trace.add_first(("keyword.indestructible", "spell.resolve"),
                          "effect.indestructible", object=oid)
        return
    r.state = move_object(r.state, oid, "graveyard", r.trace, rule_key="spell.resolve",
                          event="effect.destroyed")


@handles("destroy")
def _destroy_targets(r: Resolution, e: Effect) -> None:
    for t in r.legal_targets():
        _destroy(r, t)


@handles("destroy-all")
def _destroy_all(r: Resolution, e: Effect) -> None:
    """Destroy all permanents of ``types`` (all but ``except_types``), of the target
    player's (``whose: target``) or of everyone's. Planes are never permanents."""
    types = frozenset(e.get("types") or ())
    spared = frozenset(e.get("except_types") or ())
    owners = r.players("target") if e.get("whose") == "target" else None
    for o in r.state.battlefield():
        if types and not o.types & types or o.types & spared:
            continue
        if owners is not None and o.controller not in owners:
            continue
        _destroy(r, o.id)


@handles("exile")
def _exile(r: Resolution, e: Effect) -> None:
    for t in r.legal_targets():
        r.state = move_object(r.state, t, "exile", r.trace, rule_key="spell.resolve",
                              event="effect.exiled")


@handles("return-to-hand")
def _return_to_hand(r: Resolution, e: Effect) -> None:
    for t in r.legal_targets():
        r.state = move_object(r.state, t, "hand", r.trace, rule_key="spell.resolve",
                              event="effect.returned-to-hand")


@handles("gain-control")
def _gain_control(r: Resolution, e: Effect) -> None:
    for t in r.legal_targets():
        before = r.state.obj(t).controller
        r.state = change_control(r.state, t, r.you, r.trace)
        obj = r.state.obj(t)
        keywords, eot = obj.keywords, obj.eot_keywords
        if e.get("haste") and "haste" not in keywords:
            keywords, eot = keywords | {"haste"}, eot | {"haste"}
        r.state = r.state.with_object(evolve(
            obj, tapped=False if e.get("untap") else obj.tapped,
            keywords=keywords, eot_keywords=eot,
            eot_controller=obj.eot_controller or before))
        if e.get("untap") and e.get("haste"):
            r.trace.add("spell.resolve", "effect.untap-and-haste", object=t)


def _pump(r: Resolution, oid: str, e: Effect) -> None:
    """+X/+Y and keywords until end of turn (611.2: only the creatures there as it
    resolves), and counters."""
    obj = r.state.obj(oid)
    for kind, n in (e.get("counters") or {}).items():
        obj = with_counters(obj, str(kind), int(n))
        r.trace.add("spell.resolve", "effect.counter-put", object=oid, kind=str(kind),
                    amount=int(n))
    dp, dt = (e.get("pt") or (0, 0))
    if dp or dt:
        obj = evolve(obj, power=None if obj.power is None else obj.power + dp,
                     toughness=None if obj.toughness is None else obj.toughness + dt,
                     eot_pt=(obj.eot_pt[0] + dp, obj.eot_pt[1] + dt))
        r.trace.add("spell.resolve", "effect.pumped", object=oid, power=f"{dp:+d}",
                    toughness=f"{dt:+d}")
    for keyword in e.get("keywords") or ():
        r.trace.add("spell.resolve", "effect.keyword-gained", object=oid, keyword=keyword)
    new_keywords = frozenset(e.get("keywords") or ()) - obj.keywords
    obj = evolve(obj, keywords=obj.keywords | new_keywords,
                 eot_keywords=obj.eot_keywords | new_keywords)
    r.state = r.state.with_object(obj)


@handles("pump-each")
def _pump_each(r: Resolution, e: Effect) -> None:
    """Each creature you control (Garruk's −4, Ajani Goldmane's −1, The Great Forest)."""
    for o in r.state.battlefield():
        if o.is_creature and o.controller == r.you:
            _pump(r, o.id, e)


@handles("pump-target")
def _pump_target(r: Resolution, e: Effect) -> None:
    for t in r.legal_targets():
        _pump(r, t, e)


@handles("untap")
def _untap_targets(r: Resolution, e: Effect) -> None:
    for t in r.legal_targets():
        _untap(r, t)


@handles("untap-all")
def _untap_all(r: Resolution, e: Effect) -> None:
    """Untap all permanents you control (The Eon Fog's chaos ability)."""
    for o in r.state.battlefield():
        if o.controller == r.you:
            _untap(r, o.id)


def _untap(r: Resolution, oid: str) -> None:
    obj = r.state.obj(oid)
    if obj.tapped:
        r.state = r.state.with_object(evolve(obj, tapped=False))
        r.trace.add("spell.resolve", "effect.untapped", object=oid)
    else:
        r.trace.add("spell.resolve", "effect.already-untapped", object=oid)


@handles("sacrifice")
def _sacrifice(r: Resolution, e: Effect) -> None:
    """Target player sacrifices a creature (701.17a): that player chooses which."""
    types = frozenset(e.get("types") or ("creature",))
    for player in r.players("target"):
        own = [o.id for o in r.state.battlefield() if o.controller == player and o.types & types]
        chosen = r.choices.sacrifice.get(player)
        at = f"{r.path}.sacrifice.{player}"
        if not own:
            r.trace.add("spell.resolve", "effect.nothing-to-sacrifice", player=player)
            continue
        if chosen is None and len(own) > 1:
            raise ResolutionError(r.era, r.path, f"{player} sacrifices one of "
                                  f"{', '.join(own)}: say which with "
                                  f"`sacrifice: {{{player}: [ID]}}`")
        pick = list(chosen) if chosen is not None else own
        if len(pick) != 1 or pick[0] not in own:
            raise r.illegal_choice(at, f"{player} sacrifices exactly one of "
                                         f"{', '.join(own)}")
        r.state = move_object(r.state, pick[0], "graveyard", r.trace,
                              rule_key="spell.resolve", event="effect.sacrificed",
                              player=player)


@handles("return-all-from-graveyards")
def _return_all(r: Resolution, e: Effect) -> None:
    """Liliana Vess's −8: every creature card in every graveyard onto the battlefield
    under your control."""
    types = frozenset(e.get("types") or ("creature",))
    for o in list(r.state.objects.values()):
        if o.zone == "graveyard" and o.types & types:
            r.state = enter_battlefield(r.era, r.state, r.trace, o.id, controller=r.you,
                                        counters=None)


@handles("create-tokens")
def _create_tokens(r: Resolution, e: Effect) -> None:
    create_tokens(r.era, r.state, r.trace, r.source.id, r.you, e, r)


def create_tokens(era: type[Era], state: GameState, trace: Trace, source_id: str,
                  player: str, e: Effect, r: Resolution | None = None) -> GameState:
    """Tokens (111.1, 701.6a; 110.5 before), with the ids `SOURCE-token-1`, `-2`, …
    counted per source over the whole game."""
    spec: Mapping[str, Any] = e.get("token") or {}
    name = dict(spec.get("name") or {"en": "Token"})
    key = rule_or_resolution(era, "effect.create-token")
    amount = int(e.get("amount", 1) or 0)
    for _ in range(amount):
        n = 1
        while f"{source_id}-token-{n}" in state.objects:
            n += 1
        oid = f"{source_id}-token-{n}"
        state = state.with_object(Obj(
            id=oid, name=name, types=frozenset(spec.get("types") or ("creature",)),
            controller=player, owner=player, subtypes=tuple(spec.get("subtypes") or ()),
            power=spec.get("power"), toughness=spec.get("toughness"),
            keywords=frozenset(spec.get("keywords") or ()),
            colors=frozenset(spec.get("colors") or ()), sick=True))
        trace.add(key, "effect.token", object=oid, player=player)
    if r is not None:
        r.state = state
    return state
