"""`next_turn: {}`: the next player's turn (or team's, in Two-Headed Giant) begins, at its
first main phase: combat ends, the end step's abilities trigger (513), the cleanup step
(514), then the untap step (502)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine import combat as cb
from engine import schema_parts as sp
from engine.eras import Era
from engine.kinds.base import ActionSpec, Editor, ParseContext, PerformContext
from engine.planechase import plane_statics
from engine.state import GameState, evolve, step_index
from engine.trace import Trace
from engine.turns import cleanup, end_combat, end_step


@dataclass(frozen=True, slots=True)
class NextTurn:
    pass


def parse(ctx: ParseContext, args: Any, path: str) -> NextTurn | None:
    if args not in (None, {}):
        ctx.add(path, "`next_turn` takes {}")
        return None
    return NextTurn()


def perform(era: type[Era], state: GameState, trace: Trace, value: NextTurn,
            at: PerformContext) -> GameState:
    if state.combat is not None and state.combat.pending:
        state = cb.resolve_pending(era, state, trace)
    if state.combat is not None:
        state = end_combat(state, trace)
    if step_index(state.turn.step) < step_index("end"):
        # The turn passes its end step: its "at the beginning of" abilities (513, 603.2b).
        state = end_step(era, evolve(state, turn=evolve(state.turn, step="end")), trace)
    state = cleanup(state, trace)
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
    return evolve(state, objects=objects, activated={}, loyalty_activators=frozenset(),
                  extra_activations={}, combat=None,
                  turn=evolve(state.turn, active=nxt, step="main1",
                              number=state.turn.number + 1))


def schema() -> sp.Schema:
    return sp.nothing("The next player's turn, at its first main phase.")


SPEC: ActionSpec[NextTurn] = ActionSpec(
    name="next_turn", parse=parse, perform=perform, schema=schema, editor=Editor())
