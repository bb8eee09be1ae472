"""The combat damage steps: assigning (510.1), dealing all at once (510.2), and Lorwyn's
combat damage on the stack (310.1, 310.3)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from engine.combat.assignment import _check
from engine.combat.options import Options, StepContext, _damage_amount, _default, options
from engine.combat.timing import _assign_order, _assigns_in
from engine.damage import Source, deal_damage_all
from engine.eras import Era
from engine.errors import Violation
from engine.planechase import plane_statics
from engine.state import GameState, PendingDamage, evolve
from engine.trace import Trace


@dataclass(frozen=True, slots=True)
class Assigned:
    source: Source
    source_generation: int
    recipient: str
    amount: int


class AssignmentError(Exception):
    def __init__(self, attacker: str, violation: Violation) -> None:
        super().__init__(violation.message)
        self.attacker = attacker
        self.violation = violation


def assign_step(era: type[Era], state: GameState, trace: Trace, *, first_strike: bool,
                ) -> list[Assigned]:
    """Every combat damage assignment of one combat damage step (510.1)."""
    combat = state.combat
    assert combat is not None
    ctx = StepContext()
    out: list[Assigned] = []
    if state.planechase is not None:
        for plane, _effect in plane_statics(state, "combat-damage-by-toughness"):
            trace.add("planechase.plane-abilities", "planechase.damage-by-toughness",
                      plane=plane)
        for plane, effect in plane_statics(state, "creatures-get-power"):
            trace.add("planechase.plane-abilities", "planechase.creatures-get-power",
                      plane=plane, amount=int(effect.get("amount", 0)))
    for attacker in _assign_order(state):
        obj = state.obj(attacker)
        if not _assigns_in(obj, first_strike, combat):
            continue
        opts = options(era, state, attacker, ctx)
        explicit = combat.assignments.get(attacker)
        if explicit is not None:
            why = _check(era, opts, dict(explicit))
            if why is not None:
                raise AssignmentError(attacker, why)
            assignment = {r: n for r, n in explicit.items() if n}
            trace.add(_cite_for(opts), "combat.assign", attacker=attacker,
                      assignment=assignment, chosen=True)
        else:
            assignment = _default(opts)
            if not assignment and opts.power > 0:
                if opts.reason == "attacking-nothing" and _attacked_a_player_who_left(
                        trace, attacker):  # 800.4e, not 506.4c
                    trace.add("combat.defender-left", "combat.assigns-nothing",
                              attacker=attacker, reason="defender-left")
                else:
                    trace.add(_cite_nothing(opts), "combat.assigns-nothing",
                              attacker=attacker, reason=opts.reason or "no-recipient")
            elif assignment:
                trace.add(_cite_for(opts), "combat.assign", attacker=attacker,
                          assignment=assignment, chosen=False)
        ctx.add(assignment)
        src = Source.of(obj)
        out.extend(Assigned(src, obj.generation, r, n) for r, n in assignment.items())
    for attacker, blockers in combat.blockers.items():
        a = state.obj(attacker)
        for b in blockers:
            bobj = state.obj(b)
            if not bobj.on_battlefield or not _assigns_in(bobj, first_strike, combat):
                continue
            power = _damage_amount(state, bobj)
            if power <= 0:
                continue
            if not a.on_battlefield or attacker not in combat.attackers:
                trace.add("combat.damage-blocked", "combat.assigns-nothing", attacker=b,
                          reason="attacker-gone")
                continue
            trace.add("combat.damage-blocked", "combat.assign", attacker=b,
                      assignment={attacker: power}, chosen=False)
            out.append(Assigned(Source.of(bobj), bobj.generation, attacker, power))
    return out


def _cite_for(opts: Options) -> str:
    if opts.beyond_top and not opts.unblocked_to and not opts.beyond:
        return "trample.over-planeswalkers-removed"
    if opts.beyond_top:
        return "trample.over-planeswalkers"
    if opts.blocked and not opts.blockers:
        return "trample.no-blockers"
    if opts.blocked and opts.beyond:
        return "keyword.trample"
    if opts.blocked:
        return ("combat.damage-assignment-order" if opts.ordered and len(opts.blockers) > 1
                else "combat.damage-blocked")
    if opts.split_team:
        return "twohg.assign-team-damage"
    return "combat.damage-unblocked"


def _attacked_a_player_who_left(trace: Trace, attacker: str) -> bool:
    """Whether ``attacker`` was attacking a player who then left the game (the departure
    recorded it, engine.departure), rather than a planeswalker or battle that left."""
    return any(s.event == "combat.defender-left" and s.data.get("attacker") == attacker
               for s in trace.steps)


def _cite_nothing(opts: Options) -> str:
    if opts.reason == "attacking-nothing":
        return "combat.attacking-nothing"
    if opts.reason == "trample-nowhere":
        return "trample.planeswalker-excess"
    return "combat.damage-blocked"


def deal_assigned(era: type[Era], state: GameState, trace: Trace,
                  assigned: Iterable[Assigned]) -> GameState:
    """510.2: all combat damage of the step is dealt at once."""
    return deal_damage_all(era, state, trace,
                           ((a.source, a.recipient, a.amount, True) for a in assigned))


def mark_step_done(state: GameState, first_strike: bool, assigned: list[Assigned],
                   ) -> GameState:
    combat = state.combat
    assert combat is not None
    used = {a.source.id for a in assigned}
    assignments = {k: v for k, v in combat.assignments.items() if k not in used}
    if first_strike:
        combat = evolve(combat, first_strike_done=True,
                         struck_first=combat.struck_first | frozenset(used),
                         assignments=assignments)
    else:
        combat = evolve(combat, assignments=assignments, regular_done=True)
    return evolve(state, combat=combat, turn=evolve(state.turn, step="combat-damage"))


def to_pending(state: GameState, assigned: list[Assigned]) -> tuple[PendingDamage, ...]:
    out = []
    for a in assigned:
        gen = None if state.is_player(a.recipient) else state.obj(a.recipient).generation
        out.append(PendingDamage(a.source.id, a.source_generation, a.recipient, gen, a.amount,
                                 a.source))
    return tuple(out)


def resolve_pending(era: type[Era], state: GameState, trace: Trace) -> GameState:
    """Lorwyn: the combat damage object on the stack resolves as it was assigned, even if
    a source has left play (310.3); damage assigned to a permanent that has left play is
    not dealt."""
    combat = state.combat
    assert combat is not None
    trace.add("combat.damage-on-stack", "combat.damage-resolves", count=len(combat.pending))
    events = []
    for p in combat.pending:
        if p.recipient_generation is not None:
            obj = state.obj(p.recipient)
            if not obj.on_battlefield or obj.generation != p.recipient_generation:
                trace.add("combat.damage-dealt", "combat.damage-not-dealt", source=p.source,
                          recipient=p.recipient, amount=p.amount, reason="recipient-left")
                continue
        events.append((p.info, p.recipient, p.amount, True))
    state = evolve(state, combat=evolve(combat, pending=()))
    return deal_damage_all(era, state, trace, events)
