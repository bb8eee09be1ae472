"""Combat damage assignments: the checker (``assignment_violation``) and the generators
of the legal ones (``max_damage_to``, ``assignment_most_to``, ``legal_assignments``), on
the same ``Options``."""

from __future__ import annotations

from collections.abc import Iterator

from engine.combat.declare import _v
from engine.combat.options import Options, StepContext, _default, options, step_context
from engine.eras import Era
from engine.errors import Violation
from engine.state import GameState

MAX_ENUMERATED = 5000


def assignment_violation(era: type[Era], state: GameState, attacker: str,
                         assignment: dict[str, int], ctx: StepContext | None = None,
                         ) -> Violation | None:
    """Why this combat damage assignment is illegal, or None."""
    if ctx is None:
        ctx = step_context(era, state, attacker)
    opts = options(era, state, attacker, ctx)
    return _check(era, opts, assignment)


def _check(era: type[Era], opts: Options, assignment: dict[str, int]) -> Violation | None:
    attacker = opts.attacker
    key_blocked = "combat.damage-blocked"
    for r, n in assignment.items():
        if not isinstance(n, int) or isinstance(n, bool) or n < 0:
            return _v(era, key_blocked, "assign.amount",
                      f"damage assigned to {r} must be a whole number, 0 or more",
                      attacker=attacker, recipient=r)
    amounts = {r: n for r, n in assignment.items() if n}
    total = sum(amounts.values())
    allowed = set(opts.recipients)
    for r in amounts:
        if r not in allowed:
            key, code, message, why = _why_not_recipient(opts, r)
            return _v(era, key, code, message, attacker=attacker, recipient=r, why=why)
    if total != opts.power and opts.recipients:
        return _v(era, "combat.damage-unblocked" if not opts.blocked else key_blocked,
                  "assign.total",
                  f"{attacker} must assign all {opts.power} of its combat damage "
                  f"(this assignment gives {total})", attacker=attacker, power=opts.power,
                  total=total)
    if not opts.recipients and total:
        return _v(era, "combat.damage-unblocked", "assign.nothing",
                  f"{attacker} assigns no combat damage", attacker=attacker)
    if opts.split_team and len([r for r in amounts if r in opts.unblocked_to + opts.beyond]) > 1:
        return _v(era, "twohg.assign-team-damage", "assign.team-split",
                  "damage to the defending team goes to one of its players, chosen by the "
                  "active team", attacker=attacker)
    # Blockers: the damage assignment order (510.1c, Magic 2010 to March of the Machine).
    if opts.ordered:
        for i, b in enumerate(opts.blockers):
            if not amounts.get(b, 0):
                continue
            short = [j for j in range(i) if amounts.get(opts.blockers[j], 0) < opts.lethal[j]]
            if short:
                return _v(era, "combat.damage-assignment-order", "assign.order",
                          f"{attacker} can't assign damage to {b} before every blocker "
                          f"earlier in its damage assignment order has lethal damage",
                          attacker=attacker, recipient=b, blocker=opts.blockers[short[0]],
                          lethal=opts.lethal[short[0]])
    # An attacked planeswalker that is also a creature and blocks takes damage as a
    # blocker: that is not damage past the blockers (510.1c; trample not needed).
    past_blockers = [r for r in amounts if (r in opts.beyond or r == opts.beyond_top)
                     and r not in opts.blockers]
    if past_blockers and opts.blocked:
        short = [i for i, b in enumerate(opts.blockers)
                 if amounts.get(b, 0) < opts.trample_lethal[i]]
        if short:
            names = ", ".join(opts.blockers[i] for i in short)
            return _v(era, "keyword.trample", "assign.trample-lethal",
                      f"{attacker} can assign damage past its blockers only once every "
                      f"blocker has lethal damage ({names} has not)",
                      attacker=attacker, recipient=past_blockers[0],
                      blocker=opts.blockers[short[0]], lethal=opts.trample_lethal[short[0]])
    if opts.beyond_top and amounts.get(opts.beyond_top, 0) and opts.planeswalker_need:
        pw = next((r for r in opts.beyond + opts.unblocked_to if r != opts.beyond_top), None)
        if pw is not None and amounts.get(pw, 0) < opts.planeswalker_need:
            return _v(era, "trample.over-planeswalkers", "assign.top-loyalty",
                      f"{attacker} can assign damage to {opts.beyond_top} only once {pw} is "
                      f"assigned damage equal to its loyalty", attacker=attacker,
                      player=opts.beyond_top, planeswalker=pw, need=opts.planeswalker_need)
    if not opts.blocked and opts.unblocked_to and not opts.beyond_top:
        if len(amounts) > 1:
            return _v(era, "twohg.assign-team-damage", "assign.team-split",
                      "damage to the defending team goes to one of its players",
                      attacker=attacker)
    return None


def _why_not_recipient(opts: Options, r: str) -> tuple[str, str, str, str]:
    """Rule key, code, message and situation (``why``) of damage assigned to ``r``, which
    is not among the attacker's recipients: the situation tells a blocked creature
    without trample (510.1c) from a trampler (702.19) and from an unblocked one (510.1b)."""
    a = opts.attacker
    if opts.reason == "attacking-nothing":
        return ("combat.attacking-nothing", "assign.attacking-nothing",
                f"{a} is attacking nothing: its planeswalker or battle left combat, so it "
                f"assigns no combat damage", "attacking-nothing")
    if opts.reason == "blockers-gone":
        return ("combat.damage-blocked", "assign.blockers-gone",
                f"{a} is blocked and its blockers are gone: it assigns no combat damage",
                "blockers-gone")
    if opts.blocked and not opts.beyond and not opts.beyond_top and opts.blockers \
            and not opts.reason:
        if opts.trample:  # what it attacked left combat: the excess has nowhere to go
            return ("trample.planeswalker-excess", "assign.not-recipient",
                    f"{r} can't be assigned damage by {a}: what it attacked left combat, so "
                    f"even with trample it assigns only to its blockers", "trample-nowhere")
        return ("combat.damage-blocked", "assign.not-recipient",
                f"{r} can't be assigned damage by {a}: a blocked creature without trample "
                f"assigns only to its blockers", "blocked")
    if opts.blocked and opts.beyond:
        return ("trample.planeswalker-excess", "assign.not-recipient",
                f"{r} can't be assigned damage by {a}: trample lets it assign only to its "
                f"blockers and to what it is attacking", "trample")
    return ("combat.damage-unblocked", "assign.not-recipient",
            f"{r} can't be assigned combat damage by {a}",
            "other" if opts.blocked else "unblocked")


def max_damage_to(era: type[Era], state: GameState, attacker: str, recipient: str,
                  ctx: StepContext | None = None) -> int:
    """The most combat damage ``attacker`` could legally assign to ``recipient``."""
    combat = state.combat
    if combat is None or attacker not in combat.attackers:
        return 0
    if not state.obj(attacker).on_battlefield:
        return 0
    if ctx is None:
        ctx = step_context(era, state, attacker)
    opts = options(era, state, attacker, ctx)
    if recipient not in opts.recipients:
        return 0
    p = opts.power
    if recipient in opts.blockers:
        i = opts.blockers.index(recipient)
        if opts.ordered:
            return max(0, p - sum(opts.lethal[:i]))
        return p
    before = sum(opts.trample_lethal) if opts.blocked else 0
    if recipient == opts.beyond_top and recipient not in opts.unblocked_to + opts.beyond:
        if not (opts.unblocked_to or opts.beyond):
            return max(0, p - before)
        # An attacked planeswalker that is also a creature and blocks: the damage it is
        # assigned as a blocker counts toward its loyalty too (702.19c).
        pw = (opts.unblocked_to + opts.beyond)[0]
        as_blocker = dict(zip(opts.blockers, opts.trample_lethal, strict=True)).get(pw, 0)
        return max(0, p - before - max(0, opts.planeswalker_need - as_blocker))
    return max(0, p - before)


def assignment_most_to(era: type[Era], state: GameState, attacker: str, recipient: str,
                       ctx: StepContext | None = None) -> dict[str, int]:
    """A legal assignment for ``attacker`` that gives ``recipient`` the most damage the
    rules allow (``max_damage_to``): what a candidate's split is shown beside. The rest
    goes where it must first (lethal damage to the blockers ahead of it, the planeswalker's
    loyalty before its controller); if that can't reach ``recipient``, the engine's default.
    Built directly, checked by ``_check``, and searched for only if the build fails."""
    combat = state.combat
    if combat is None or attacker not in combat.attackers:
        return {}
    if not state.obj(attacker).on_battlefield:
        return {}
    if ctx is None:
        ctx = step_context(era, state, attacker)
    opts = options(era, state, attacker, ctx)
    most = max_damage_to(era, state, attacker, recipient, ctx)
    if most <= 0:
        return _default(opts)
    built = _most_to(opts, recipient, most)
    if built.get(recipient, 0) == most and _check(era, opts, built) is None:
        return built
    for assignment in legal_assignments(era, state, attacker, ctx):
        if assignment.get(recipient, 0) == most:
            return assignment
    return _default(opts)


def _most_to(opts: Options, recipient: str, most: int) -> dict[str, int]:
    """``most`` to ``recipient`` and what it needs first: lethal damage to the blockers
    earlier in the order (or to every blocker, for damage past them), then the attacked
    planeswalker's loyalty before its controller (trample over planeswalkers)."""
    out: dict[str, int] = {}
    if recipient in opts.blockers:
        first = opts.blockers.index(recipient) if opts.ordered else 0
        ahead = list(zip(opts.blockers[:first], opts.lethal[:first], strict=True))
    else:
        ahead = list(zip(opts.blockers, opts.trample_lethal, strict=True))
        planeswalker = next((r for r in opts.beyond + opts.unblocked_to
                             if r != opts.beyond_top), None)
        if recipient == opts.beyond_top and planeswalker is not None:
            ahead.append((planeswalker, opts.planeswalker_need))
    left = opts.power - most
    for who, need in ahead:  # ``need``: what ``who`` must have in all (702.19c: an
        # attacked planeswalker that also blocks needs the greater of lethal and loyalty)
        give = min(left, max(0, need - out.get(who, 0)))
        if give:
            out[who] = out.get(who, 0) + give
        left -= give
    out[recipient] = out.get(recipient, 0) + most + left
    return out


def legal_assignments(era: type[Era], state: GameState, attacker: str,
                      ctx: StepContext | None = None) -> Iterator[dict[str, int]]:
    """Every legal assignment (for small powers and few recipients: capped)."""
    if ctx is None:
        ctx = step_context(era, state, attacker)
    opts = options(era, state, attacker, ctx)
    recips = opts.recipients
    if not recips:
        yield {}
        return
    count = 0
    for combo in _compositions(opts.power, len(recips)):
        count += 1
        if count > MAX_ENUMERATED:
            return
        assignment = {r: n for r, n in zip(recips, combo, strict=True) if n}
        if _check(era, opts, assignment) is None:
            yield assignment


def _compositions(total: int, parts: int) -> Iterator[tuple[int, ...]]:
    if parts == 1:
        yield (total,)
        return
    for first in range(total + 1):
        for rest in _compositions(total - first, parts - 1):
            yield (first,) + rest
