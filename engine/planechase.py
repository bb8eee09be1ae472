"""Planechase (901): planes and phenomena in the command zone, the planar die, the planar
controller and planeswalking.

Plane and phenomenon cards are not permanents: they stay in the command zone, in a
planar deck or face up (311.2, 312.2), so "target permanent" or "destroy" never reaches
them. Rule numbers are those of each era: planes were 309 from their 2009 introduction,
311 from March of the Machine; phenomena (from Planechase 2012) 310, then 312.
"""

from __future__ import annotations

import re

from engine.cards import Effect, find_card
from engine.damage import Source
from engine.eras import Era
from engine.errors import IllegalAction, Violation
from engine.state import MAIN_STEPS, GameState, Obj, Planechase, evolve
from engine.trace import Trace

MAX_ENCOUNTERS = 16


def planar_controller(state: GameState) -> str:
    """901.6: the active player (in Two-Headed Giant the primary player of the active
    team, 901.12); if that player has left the game, the next player in turn order."""
    order = list(state.players)
    active = state.turn.active
    team = state.team_of(active)
    first = team.members[0] if team is not None else active
    start = order.index(first)
    for k in range(len(order)):
        candidate = order[(start + k) % len(order)]
        if not state.players[candidate].lost:
            return candidate
    return first


def plane_statics(state: GameState, kind: str) -> list[tuple[str, Effect]]:
    """The modelled static abilities of this kind of each face-up plane, with the plane's
    id: a face-up plane's abilities function from the command zone (311.4, 901.7)."""
    pc = state.planechase
    if pc is None:
        return []
    out: list[tuple[str, Effect]] = []
    for oid in pc.face_up:
        obj = state.objects.get(oid)
        if obj is None or obj.card is None or "plane" not in obj.types:
            continue
        out.extend((oid, e) for e in find_card(obj.card).statics if e.kind == kind)
    return out


def effective_power(state: GameState, obj: Obj) -> int | None:
    """A creature's power with the face-up planes' changes applied (The Hippodrome: all
    creatures get -5/-0; a power-changing effect, layer 7c, 613.4c). Other objects, and
    creatures with no power, are unchanged."""
    if obj.power is None or state.planechase is None or not obj.is_creature:
        return obj.current_power
    return (obj.current_power or 0) + sum(int(e.get("amount", 0))
                           for _plane, e in plane_statics(state, "creatures-get-power"))


def roll_cost(state: GameState, player: str) -> int:
    """901.9: {0} for the first roll of the turn, then {1}, {2}, ... for each earlier roll
    that player made as a special action this turn (rolls caused by effects don't count;
    in Two-Headed Giant each teammate counts their own, 901.12)."""
    pc = state.planechase
    return pc.rolls.get(player, 0) if pc is not None else 0


def roll_violation(era: type[Era], state: GameState, player: str) -> Violation | None:
    def v(code: str, message: str) -> Violation:
        return Violation("planechase.roll", era.rule("planechase.roll"), code, message,
                         {"player": player})

    if state.planechase is None:
        return v("roll.no-planechase", "this game is not a Planechase game")
    if player not in state.teammates(state.turn.active):
        return v("roll.not-active", f"only the active player may roll the planar die; "
                                    f"it is {state.turn.active}'s turn")
    if state.turn.step not in MAIN_STEPS:
        return v("roll.not-main-phase", f"the planar die is rolled only in a main phase "
                                        f"(now: {state.turn.step})")
    if state.combat is not None and state.combat.pending:
        return v("roll.stack-not-empty", "the planar die is rolled only with an empty stack")
    return None


def perform_roll(era: type[Era], state: GameState, trace: Trace, path: str, player: str,
                 result: str, by_effect: bool) -> GameState:
    pc = state.planechase
    if not by_effect:
        why = roll_violation(era, state, player)
        if why is not None:
            raise IllegalAction(path, why, era.key)
        assert pc is not None
        cost = roll_cost(state, player)
        rolls = dict(pc.rolls)
        rolls[player] = cost + 1
        state = evolve(state, planechase=evolve(pc, rolls=rolls))
        trace.add("planechase.roll", "planechase.roll", player=player, cost=cost,
                  result=result)
    else:
        if pc is None:
            raise IllegalAction(path, Violation(
                "planechase.roll", era.rule("planechase.roll"), "roll.no-planechase",
                "this game is not a Planechase game", {}), era.key)
        trace.add("planechase.roll", "planechase.roll-by-effect", player=player,
                  result=result)
    if result == "chaos":
        state = chaos_ensues(era, state, trace)
    elif result == "planeswalk":
        trace.add("planechase.planeswalking-ability", "planechase.planeswalking-ability",
                  player=player)
        state = planeswalk(era, state, trace)
    return state


def chaos_ensues(era: type[Era], state: GameState, trace: Trace) -> GameState:
    """Each face-up plane's chaos ability triggers; the planar controller controls it
    (311.7; before March of the Machine "Whenever you roll {CHAOS}", 901.9b)."""
    pc = state.planechase
    assert pc is not None
    controller = planar_controller(state)
    key = "planechase.chaos"
    for oid in pc.face_up:
        obj = state.obj(oid)
        if "plane" not in obj.types or obj.card is None:
            continue
        card = find_card(obj.card)
        trace.add(key, "planechase.chaos", plane=oid, controller=controller,
                  wording="ensues" if era.chaos_ensues else "roll")
        state = resolve_planar_effect(era, state, trace, card.chaos or Effect("none", {}),
                                      oid, controller)
    return state


def planeswalk(era: type[Era], state: GameState, trace: Trace) -> GameState:
    """701.31: each face-up plane and phenomenon goes to the bottom of its owner's planar
    deck (turned face down: a new object, 311.6), then the planar controller turns up the
    top card of their planar deck. A phenomenon met this way is encountered (312.5), then
    the planar controller planeswalks away from it (312.7, a state-based action)."""
    for _ in range(MAX_ENCOUNTERS):
        state, encountered = _planeswalk_once(era, state, trace)
        if encountered is None:
            return state
        trace.add("planechase.phenomenon-planeswalk", "planechase.phenomenon-leaves",
                  phenomenon=encountered)
    raise IllegalAction("", Violation("planechase.planeswalk",
                                      era.rule("planechase.planeswalk"),
                                      "planeswalk.loop", "the planar decks hold no plane",
                                      {}), era.key)


def _deck_key(pc: Planechase, player: str) -> str:
    return "communal" if pc.communal else player


def _planeswalk_once(era: type[Era], state: GameState,
                     trace: Trace) -> tuple[GameState, str | None]:
    pc = state.planechase
    assert pc is not None
    controller = planar_controller(state)
    decks = {k: list(v) for k, v in pc.decks.items()}
    objects = dict(state.objects)
    trace.add("planechase.planeswalk", "planechase.planeswalk", player=controller,
              leaving=list(pc.face_up))
    for oid in pc.face_up:
        obj = objects[oid]
        decks.setdefault(_deck_key(pc, obj.owner), []).append(oid)
        objects[oid] = evolve(obj, generation=obj.generation + 1)  # face down: new object
    deck = decks.get(_deck_key(pc, controller), [])
    face_up: tuple[str, ...] = ()
    encountered = None
    if deck:
        top = deck.pop(0)
        face_up = (top,)
        objects[top] = evolve(objects[top], controller=controller)
        trace.add("planechase.planeswalk", "planechase.turned-up", card=top,
                  player=controller)
        if "phenomenon" in objects[top].types:
            encountered = top
    state = evolve(state, objects=objects, planechase=evolve(
        pc, decks={k: tuple(v) for k, v in decks.items()}, face_up=face_up))
    for oid in face_up:
        state = state.with_object(evolve(state.obj(oid), controller=controller))
    away: list[tuple[str, Effect]] = []  # "When you planeswalk away from ~" triggers
    for oid in pc.face_up:
        slug = state.obj(oid).card
        effect = find_card(slug).planeswalk_away if slug else None
        if effect is not None:
            away.append((oid, effect))
    if away and encountered is not None:
        raise IllegalAction("", Violation(
            "planechase.planeswalk", era.rule("planechase.planeswalk"),
            "planeswalk.trigger-order",
            f"planeswalking away from {away[0][0]} and encountering {encountered} trigger "
            f"together, and the planar controller orders the two triggers: a choice this "
            f"format can't state", {}), era.key)
    for plane, effect in away:
        # "When you planeswalk away from ~": triggers as the plane leaves; "you" is the
        # planar controller who planeswalked (Sanctum of Serra).
        trace.add("planechase.planeswalk", "planechase.planeswalk-away", plane=plane,
                  controller=controller)
        state = resolve_planar_effect(era, state, trace, effect, plane, controller)
    if encountered is not None:
        card = find_card(state.obj(encountered).card or "")
        trace.add("planechase.encounter", "planechase.encounter", phenomenon=encountered,
                  controller=controller)
        state = resolve_planar_effect(era, state, trace, card.encounter or Effect("none", {}),
                                      encountered, controller)
    return state, encountered


def after_departure(era: type[Era], state: GameState, trace: Trace,
                    face_up_left: bool) -> GameState:
    """A player left the game (engine.departure). The face-up cards are controlled by the
    planar controller, who may now be the next player in turn order (800.4p). If a face-up
    plane or phenomenon left with its owner, the planar controller turns up the top card
    of their planar deck at once, not as a state-based action (901.10); a phenomenon met
    this way is encountered (312.5), then planeswalked away from (312.7)."""
    pc = state.planechase
    assert pc is not None
    controller = planar_controller(state)
    if any(state.obj(oid).controller != controller for oid in pc.face_up):
        trace.add("planechase.planar-controller", "planechase.new-controller",
                  player=controller)
    for oid in pc.face_up:
        state = state.with_object(evolve(state.obj(oid), controller=controller))
    if not face_up_left:
        return state
    deck = list(pc.decks.get(_deck_key(pc, controller), ()))
    if not deck:
        return state
    top = deck.pop(0)
    decks = dict(pc.decks)
    decks[_deck_key(pc, controller)] = tuple(deck)
    state = evolve(state, planechase=evolve(pc, decks=decks, face_up=(*pc.face_up, top)))
    state = state.with_object(evolve(state.obj(top), controller=controller))
    trace.add("planechase.owner-left", "planechase.turned-up", card=top, player=controller)
    if "phenomenon" in state.obj(top).types:
        card = find_card(state.obj(top).card or "")
        trace.add("planechase.encounter", "planechase.encounter", phenomenon=top,
                  controller=controller)
        state = resolve_planar_effect(era, state, trace, card.encounter or Effect("none", {}),
                                      top, controller)
        trace.add("planechase.phenomenon-planeswalk", "planechase.phenomenon-leaves",
                  phenomenon=top)
        state = planeswalk(era, state, trace)
    return state


def resolve_planar_effect(era: type[Era], state: GameState, trace: Trace, effect: Effect,
                          source_id: str, controller: str) -> GameState:
    """A plane's chaos or planeswalk-away ability, or a phenomenon's encounter ability,
    resolves; "you" is its controller, the planar controller (901.6). Every effect is
    performed by engine.effects, or refused there, naming the card and the ability."""
    from engine.effects import ability_label, resolve_text_effect

    card = find_card(state.obj(source_id).card or "")
    text = (card.chaos_text if effect is card.chaos else
            card.encounter_text if effect is card.encounter else card.text)
    path = f"actions[{trace.action}]" if trace.action is not None else ""
    team = state.team_of(controller)
    if team is None or not _SAYS_YOU.search(text.partition(",")[2]):
        return resolve_text_effect(era, state, trace, path, effect,
                                   Source(source_id, controller), ability_label(card, effect),
                                   text)
    # 901.12c (901.11c in 2011): in Two-Headed Giant, an ability of the face-up plane or
    # phenomenon that refers to "you" applies to both members of the planar controller's
    # team: the effect is done for each of them as "you".
    trace.add("planechase.team-you", "planechase.team-you", plane=source_id, team=team.id)
    for member in team.members:
        state = resolve_text_effect(era, state, trace, path, effect, Source(source_id, member),
                                    ability_label(card, effect), text)
    return state


_SAYS_YOU = re.compile(r"\byour?\b", re.IGNORECASE)
"""An ability's effect (the text after its trigger condition) that refers to "you"."""
