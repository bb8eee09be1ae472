"""What an attacker may assign its combat damage to (``options``), what creatures
assigning earlier in the step already gave (``step_context``), and the engine's default
assignment."""

from __future__ import annotations

from dataclasses import dataclass, field

from engine.combat.timing import _assign_order, _assigns_in, first_strike_step_needed
from engine.eras import Era
from engine.planechase import effective_power, plane_statics
from engine.state import GameState, Obj, evolve


@dataclass(slots=True)
class StepContext:
    """Damage already assigned in this combat damage step by creatures processed earlier
    (for lethal damage, 702.19b, and planeswalker loyalty, 702.19c)."""

    assigned: dict[str, int] = field(default_factory=dict)

    def add(self, assignment: dict[str, int]) -> None:
        for r, n in assignment.items():
            self.assigned[r] = self.assigned.get(r, 0) + n


@dataclass
class Options:
    """What an attacker may assign its damage to in one combat damage step (a plain
    value built many times per run: not frozen, so that building it stays cheap)."""

    attacker: str
    power: int
    blockers: tuple[str, ...]
    lethal: tuple[int, ...]          # lethal damage each blocker needs (for the order)
    trample_lethal: tuple[int, ...]  # lethal damage each blocker needs before trampling on
    ordered: bool
    beyond: tuple[str, ...]          # after lethal to every blocker: the attacked object ...
    beyond_top: str | None           # ... and, with trample over planeswalkers, this player
    planeswalker_need: int           # loyalty still to cover before ``beyond_top``
    unblocked_to: tuple[str, ...]    # an unblocked creature's recipients (one of them)
    blocked: bool
    split_team: bool                 # 810.7f: one player of the team gets it all
    reason: str                      # code for the trace when it assigns nothing
    trample: bool = False            # for saying why a recipient is not allowed

    @property
    def recipients(self) -> tuple[str, ...]:
        out = list(self.blockers) + list(self.beyond) + list(self.unblocked_to)
        if self.beyond_top:
            out.append(self.beyond_top)
        return tuple(dict.fromkeys(out))


def _damage_amount(state: GameState, obj: Obj) -> int:
    """The combat damage a creature assigns: its power (510.1a), or its toughness while a
    face-up plane says so (The Great Forest; power itself is unchanged); 0 or less
    assigns none."""
    if state.planechase is None:  # no plane, no change: the common case, kept fast
        return max(0, obj.current_power or 0)
    if plane_statics(state, "combat-damage-by-toughness"):
        return max(0, obj.current_toughness or 0)
    return max(0, effective_power(state, obj) or 0)


def _lethal(era: type[Era], attacker: Obj, blocker: Obj, others: int) -> int:
    """Lethal damage for one blocker: its toughness less damage already marked and less
    damage other creatures assign to it in this step. From Magic 2011 any nonzero
    damage from a deathtouch source counts as lethal (702.2); under the first Magic 2010
    rule deathtouch didn't change what trample needed."""
    need = max(0, (blocker.current_toughness or 0) - blocker.damage - others)
    if need > 0 and attacker.has("deathtouch") and era.deathtouch == "m11":
        return 1
    return need


def options(era: type[Era], state: GameState, attacker: str,
            ctx: StepContext | None = None) -> Options:
    ctx = ctx or StepContext()
    combat = state.combat
    a = state.obj(attacker)
    power = _damage_amount(state, a)
    assert combat is not None
    target = combat.attackers.get(attacker)
    trample = a.has("trample") or a.has("trample-over-planeswalkers")
    top = a.has("trample-over-planeswalkers") and era.trample_over_planeswalkers
    target_obj = state.objects.get(target) if target else None
    defending = combat.defending.get(attacker)
    split_team = bool(target and target in state.teams)

    def recipients_of_target() -> tuple[str, ...]:
        if target is None:
            return ()
        if target in state.teams:
            return tuple(m for m in state.teams[target].members if not state.players[m].lost)
        return (target,)

    need = 0
    beyond_top: str | None = None
    if top and target_obj is not None and target_obj.is_planeswalker:
        need = max(0, target_obj.current_loyalty - ctx.assigned.get(target_obj.id, 0))
        beyond_top = target_obj.controller
    elif top and target is None and defending is not None:
        beyond_top = defending  # 702.19e: the planeswalker left combat
    blocked = attacker in combat.blocked
    empty = Options(attacker, power, (), (), (), False, (), None, 0, (), blocked, split_team,
                    "", trample)
    if not blocked:
        if target is None:
            if beyond_top:
                return evolve(empty, beyond_top=beyond_top, reason="top-removed")
            return evolve(empty, reason="attacking-nothing")
        return evolve(empty, unblocked_to=recipients_of_target(), beyond_top=beyond_top,
                       planeswalker_need=need)
    blockers = tuple(b for b in combat.blockers.get(attacker, ())
                     if b in state.objects and state.obj(b).on_battlefield
                     and state.obj(b).is_creature)
    bobjs = [state.obj(b) for b in blockers]
    lethal = tuple(_lethal(era, a, b, ctx.assigned.get(b.id, 0)) for b in bobjs)
    trample_lethal = lethal  # the same lethal damage, under every deathtouch rule
    ordered = era.blocker_division == "ordered" and not (
        era.deathtouch == "m10" and a.has("deathtouch"))
    beyond: tuple[str, ...] = recipients_of_target() if trample else ()
    if not trample:
        beyond_top = None
    if not blockers and not trample:
        return evolve(empty, reason="blockers-gone")
    return Options(attacker, power, blockers, lethal, trample_lethal, ordered, beyond,
                   beyond_top, need, (), True, split_team,
                   "" if (blockers or beyond or beyond_top) else "trample-nowhere", trample)


def step_context(era: type[Era], state: GameState, attacker: str) -> StepContext:
    """What the creatures assigning before ``attacker`` in the next combat damage step
    assign (their explicit assignment, else the default): lethal damage and a
    planeswalker's loyalty count damage other creatures assign in the same step
    (702.19b, 702.19c)."""
    ctx = StepContext()
    combat = state.combat
    if combat is None:
        return ctx
    first = first_strike_step_needed(state)
    for other in _assign_order(state):
        if other == attacker:
            break
        obj = state.obj(other)
        if not _assigns_in(obj, first, combat):
            continue
        explicit = combat.assignments.get(other)
        opts = options(era, state, other, ctx)
        ctx.add(dict(explicit) if explicit is not None else _default(opts))
    return ctx


def default_assignment(era: type[Era], state: GameState, attacker: str,
                       ctx: StepContext | None = None) -> dict[str, int]:
    """The engine's default: lethal damage to each blocker in turn, the rest to what it
    attacks where the rules allow (up to the planeswalker's loyalty first, then its
    controller, for trample over planeswalkers), else to the last blocker."""
    if ctx is None:
        ctx = step_context(era, state, attacker)
    opts = options(era, state, attacker, ctx)
    return _default(opts)


def _default(opts: Options) -> dict[str, int]:
    left = opts.power
    out: dict[str, int] = {}
    if not opts.recipients or left <= 0:
        return out
    for b, need in zip(opts.blockers, opts.lethal, strict=True):
        give = min(left, need)
        if give:
            out[b] = out.get(b, 0) + give
        left -= give
    lethal_all = all(out.get(b, 0) >= n for b, n in zip(opts.blockers, opts.trample_lethal,
                                                          strict=True))
    onward = opts.unblocked_to or (opts.beyond if lethal_all else ())
    if left and onward:
        first = onward[0]
        if opts.beyond_top:
            # Damage it got as a blocker counts toward its loyalty too (702.19c): the
            # greater of lethal damage and loyalty, not their sum.
            give = min(left, max(0, opts.planeswalker_need - out.get(first, 0)))
            if give:
                out[first] = out.get(first, 0) + give
            left -= give
            if left:
                out[opts.beyond_top] = out.get(opts.beyond_top, 0) + left
        else:
            out[first] = out.get(first, 0) + left
        left = 0
    if left and opts.beyond_top and lethal_all and not onward:
        out[opts.beyond_top] = out.get(opts.beyond_top, 0) + left
        left = 0
    if left and opts.blockers:
        last = opts.blockers[-1]
        out[last] = out.get(last, 0) + left
    return out
