"""The triggered abilities of catalog permanents that the engine models (603).

A card lists them under ``triggers`` by kind. The trace is the game's record of events
(603.2: an ability triggers when an event matches its trigger event), so after each
action and its state-based actions, ``catalog_triggers`` reads the steps recorded since
it last looked: a permanent that entered the battlefield, a planeswalker put into a
graveyard from the battlefield. The abilities that triggered then resolve (the engine's
actions happen with an empty stack, so nothing can respond), and state-based actions are
checked again (603.3b, in engine.sba).

- ``oath-enters`` (Oath of Teferi): "When ~ enters, exile another target permanent you
  control. Return it to the battlefield under its owner's control at the beginning of the
  next end step." With no legal target the ability is removed from the stack (603.3d);
  with one, it is the target; with several, the document is refused: the engine takes no
  choice of target for a triggered ability.
- ``carth-look`` (Carth the Lion): "Whenever ~ enters or a planeswalker you control dies,
  look at the top seven cards of your library. You may reveal a planeswalker card from
  among them and put it into your hand. Put the rest on the bottom of your library in a
  random order." The engine models the player revealing none (the choice is the player's,
  and the cards of an unlisted library are unknown); a document that lists cards of that
  player's library is refused (they would go to the bottom in a random order, which the
  engine can't reproduce).
- ``chain-veil-end-step`` (The Chain Veil), at the beginning of its controller's end step:
  see ``engine.turns.end_step``, which also makes the delayed abilities (603.7) trigger.

(Not to be confused with engine/damage_triggers.py: lifelink and deathtouch as triggered
abilities before Magic 2010.)
"""

from __future__ import annotations

from functools import cache

from engine.cards import Effect, catalog, find_card
from engine.eras import Era
from engine.errors import DocumentError, ErrorItem
from engine.state import Delayed, GameState, Obj, evolve
from engine.trace import Trace
from engine.zones import move_object


@cache
def trigger_cards() -> frozenset[str]:
    """Slugs of the catalog cards with modelled triggered abilities."""
    return frozenset(slug for slug, card in catalog().items() if card.triggers)


def _triggers(obj: Obj, when: str) -> list[Effect]:
    if obj.card is None or obj.card not in trigger_cards():
        return []
    return [e for e in find_card(obj.card).triggers if e.get("when") == when]


def catalog_triggers(era: type[Era], state: GameState, trace: Trace,
                     ) -> tuple[GameState, bool]:
    """Resolve the modelled triggered abilities that the events recorded since the last
    look made trigger. Returns the new state and whether any triggered."""
    steps = trace.steps
    start = trace.seen
    end = len(steps)
    if start >= end:
        return state, False
    trace.seen = end
    cards = trigger_cards()
    if not any(o.card in cards for o in state.objects.values()):
        return state, False  # no card of this game has a modelled trigger
    new = [s for s in steps[start:end]
           if s.event == "zone.enters" or s.data.get("from") == "battlefield"]
    if not new:
        return state, False
    fired: list[tuple[Obj, Effect, str]] = []   # (source, ability, the object concerned)
    left: set[str] = set()                       # objects that left the battlefield
    dying: list[tuple[str, str]] = []            # (planeswalker, its controller)
    for step in new:
        data = step.data
        if step.event == "zone.enters":
            obj = state.objects.get(str(data.get("object", "")))
            if obj is not None:
                fired.extend((obj, e, obj.id) for e in _triggers(obj, "enters"))
        elif data.get("from") == "battlefield":
            oid = str(data.get("object", ""))
            left.add(oid)
            obj = state.objects.get(oid)
            if obj is not None and data.get("to") == "graveyard" and obj.is_planeswalker:
                # Last known information: the engine returns a card to its owner's
                # control as it leaves, so the controller it died under is taken as its
                # owner unless the step says otherwise.
                dying.append((oid, str(data.get("controller") or obj.owner)))
    for pw, controller in dying:
        # A leaves-the-battlefield ability looks back in time (603.10): a Carth that left
        # at the same time (its controller then taken as its owner) still sees it die.
        for obj in state.objects.values():
            if (obj.controller if obj.on_battlefield else obj.owner) != controller:
                continue
            if obj.on_battlefield or obj.id in left:
                fired.extend((obj, e, pw) for e in _triggers(obj, "planeswalker-dies"))
    if not fired:
        return state, False
    for source, effect, concerned in fired:
        state = _resolve(era, state, trace, source, effect, concerned)
    return state, True


def _path(trace: Trace) -> str:
    return f"actions[{trace.action}]" if trace.action is not None else "setup"


def _resolve(era: type[Era], state: GameState, trace: Trace, source: Obj, effect: Effect,
             concerned: str) -> GameState:
    kind = effect.kind
    if kind == "carth-look":
        player = source.controller
        trace.add("trigger.event", "trigger.triggers", source=source.id,
                  concerning=concerned)
        listed = list(state.libraries.get(player, ()))
        if listed:
            raise DocumentError(ErrorItem(
                _path(trace), f"{source.display_name()}'s triggered ability makes {player} "
                f"look at the top seven cards of their library and put the rest on the "
                f"bottom in a random order: the engine can't reproduce that order for the "
                f"library this document lists ({', '.join(listed)})",
                era.rule("trigger.event"), era.key))
        trace.add("trigger.event", "trigger.carth-look", source=source.id, player=player)
        return state
    if kind == "oath-enters":
        player = source.controller
        trace.add("trigger.event", "trigger.triggers", source=source.id,
                  concerning=concerned)
        candidates = sorted(o.id for o in state.objects.values()
                            if o.on_battlefield and o.controller == player
                            and o.id != source.id and not o.has("shroud"))
        if not candidates:
            trace.add("trigger.no-target", "trigger.no-target", source=source.id)
            return state
        if len(candidates) > 1:
            raise DocumentError(ErrorItem(
                _path(trace), f"{source.display_name()}'s enters ability targets another "
                f"permanent {player} controls ({', '.join(candidates)}): the engine takes no "
                f"choice of target for a triggered ability, so a document may bring it onto "
                f"the battlefield only when {player} controls one other permanent or none",
                era.rule("trigger.event"), era.key))
        target = candidates[0]
        state = move_object(state, target, "exile", trace, rule_key="trigger.event",
                            event="trigger.exiled", source=source.id)
        moved = state.obj(target)
        delayed = Delayed("return-at-end-step", source.id, player, target, moved.generation,
                          state.turn.number, state.turn.step)
        trace.add("trigger.delayed", "trigger.delayed-created", source=source.id,
                  object=target)
        return evolve(state, delayed=(*state.delayed, delayed))
    if kind == "effect":
        # (added by the effects work) A triggered ability whose effect engine.effects
        # performs or refuses, like a spell's: Siege Rhino's "each opponent loses 3 life
        # and you gain 3 life".
        from engine.damage import Source
        from engine.effects import resolve_text_effect

        trace.add("trigger.event", "trigger.triggers", source=source.id,
                  concerning=concerned)
        raw = dict(effect.get("effect") or {})
        inner = Effect(str(raw.pop("kind", "none")), raw)
        name = find_card(source.card or "").name["en"]
        return resolve_text_effect(era, state, trace, _path(trace), inner,
                                   Source.of(source), f"{name}'s triggered ability",
                                   str(effect.get("text", "")))
    raise DocumentError(ErrorItem(_path(trace), f"{source.display_name()}'s triggered "
                                  f"ability ({kind}) is not modelled by the engine",
                                  era.rule("trigger.event"), era.key))
