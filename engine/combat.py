"""Combat: declaring attackers and blockers, and assigning and dealing combat damage.

Rules come in pairs, as in python-chess: a generator of the legal options
(``attack_targets``, ``max_damage_to``, ``legal_assignments``) and a checker that says
why something is illegal (``attack_violation``, ``block_violations``,
``assignment_violation``), built on the same small predicates.

The three regimes of dividing damage among blockers are the era's
``blocker_division``: free (Lorwyn's 310.2c, and 510.1c again from Foundations) or
ordered (the damage assignment order, 509.2 and 510.1c, Magic 2010 to March of the
Machine). Lorwyn's combat damage also waits on the stack (310.1).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field

from engine.damage import Source, deal_damage, deal_damage_all
from engine.eras import Era
from engine.errors import Violation
from engine.planechase import effective_power, plane_statics
from engine.state import Combat, GameState, Obj, PendingDamage, evolve
from engine.trace import Trace

MAX_ENUMERATED = 5000


def _v(era: type[Era], key: str, code: str, message: str, **data: object) -> Violation:
    return Violation(key, era.rule(key), code, message, dict(data))


# -- attacking ------------------------------------------------------------------------

def defending_players(state: GameState) -> list[str]:
    """The active player's opponents (in Two-Headed Giant, the other team)."""
    return [p for p in state.opponents(state.turn.active) if not state.players[p].lost]


def _is_twohg(state: GameState) -> bool:
    return bool(state.teams)


def attacker_violation(era: type[Era], state: GameState, oid: str) -> Violation | None:
    """Why this object can't be declared as an attacker now (508.1a, 302.6, 702.3b)."""
    obj = state.objects.get(oid)
    if obj is None or not obj.on_battlefield or not obj.is_creature:
        return _v(era, "combat.declare-attackers", "attack.not-creature",
                  f"{oid} is not a creature on the battlefield", attacker=oid)
    if obj.controller not in state.teammates(state.turn.active):
        return _v(era, "combat.declare-attackers", "attack.not-active-player",
                  f"{oid} is controlled by {obj.controller}, not by the active player "
                  f"{state.turn.active}", attacker=oid)
    if obj.tapped:
        return _v(era, "combat.attack-untapped", "attack.tapped",
                  f"{oid} is tapped and can't attack", attacker=oid)
    if obj.sick and not obj.has("haste"):
        return _v(era, "combat.summoning-sickness", "attack.summoning-sick",
                  f"{oid} came under {obj.controller}'s control this turn and has no haste",
                  attacker=oid)
    if obj.has("defender"):
        return _v(era, "keyword.defender", "attack.defender",
                  f"{oid} has defender and can't attack", attacker=oid)
    plane = _power_restriction(state, obj)
    if plane is not None:
        return _v(era, "combat.attack-restriction", "attack.plane-restriction",
                  f"{oid} has power {effective_power(state, obj)}: {plane} says creatures "
                  f"with power {_min_power(state, plane)} or greater can't attack",
                  attacker=oid, plane=plane)
    return None


def _power_restriction(state: GameState, obj: Obj) -> str | None:
    """The face-up plane whose static ability stops this creature from attacking or
    blocking (Hedron Fields of Agadeem: power 7 or greater), if any."""
    if state.planechase is None:
        return None
    for plane, effect in plane_statics(state, "cant-attack-or-block"):
        if (effective_power(state, obj) or 0) >= int(effect.get("min_power", 0)):
            return plane
    return None


def _min_power(state: GameState, plane: str) -> int:
    return min(int(e.get("min_power", 0)) for p, e in
               plane_statics(state, "cant-attack-or-block") if p == plane)


def attack_targets(era: type[Era], state: GameState, oid: str) -> list[str]:
    """Everything this creature could legally attack now (508.1b, 306.6, 310.5)."""
    if attacker_violation(era, state, oid) is not None:
        return []
    return _targets(era, state)


def _targets(era: type[Era], state: GameState) -> list[str]:
    defenders = defending_players(state)
    out: list[str] = []
    if _is_twohg(state) and era.twohg_attack_team:
        out.extend(t.id for t in state.teams.values()
                   if any(m in defenders for m in t.members))
    else:
        out.extend(defenders)
    for obj in state.battlefield():
        if obj.is_planeswalker and obj.controller in defenders:
            out.append(obj.id)
        elif era.battles and obj.is_battle and obj.protector in defenders:
            out.append(obj.id)
    return out


def legal_targets(era: type[Era], state: GameState) -> list[str]:
    """What an attacking creature may attack in this state (the same for each one)."""
    return _targets(era, state)


def attack_violation(era: type[Era], state: GameState, oid: str, target: str,
                     targets: list[str] | None = None) -> Violation | None:
    why = attacker_violation(era, state, oid)
    if why is not None:
        return why
    if target in (targets if targets is not None else _targets(era, state)):
        return None
    defenders = defending_players(state)
    if target in state.teams:
        return _v(era, "twohg.attack-player", "attack.team",
                  f"{oid} can't attack the team {target}: since Dominaria each creature "
                  f"attacks a player or a planeswalker", attacker=oid, target=target)
    if target in state.players:
        if _is_twohg(state) and era.twohg_attack_team and target in defenders:
            return _v(era, "twohg.attack-team", "attack.team-player",
                      f"{oid} attacks the defending team, not one of its players",
                      attacker=oid, target=target)
        return _v(era, "combat.attack-target", "attack.not-opponent",
                  f"{target} is not a defending player", attacker=oid, target=target)
    obj = state.objects.get(target)
    if obj is None:
        return _v(era, "combat.attack-target", "attack.unknown-target",
                  f"{target!r} is not a player, team, planeswalker or battle",
                  attacker=oid, target=target)
    if obj.is_battle and obj.on_battlefield:
        if not era.battles:
            return _v(era, "combat.attack-target", "attack.no-battles",
                      "battles can't be attacked before March of the Machine",
                      attacker=oid, target=target)
        return _v(era, "battle.protector", "attack.battle-protector",
                  f"{target}'s protector {obj.protector} is not a defending player",
                  attacker=oid, target=target)
    if obj.is_planeswalker and obj.on_battlefield:
        return _v(era, "combat.attack-target", "attack.own-planeswalker",
                  f"{target} is controlled by {obj.controller}, not by a defending player",
                  attacker=oid, target=target)
    return _v(era, "pw.can-be-attacked", "attack.not-attackable",
              f"{target} is not a planeswalker or battle on the battlefield",
              attacker=oid, target=target)


def declare_attackers(era: type[Era], state: GameState, trace: Trace,
                      declaration: dict[str, str]) -> GameState:
    """Declare attackers (508.1): assumes every pair was checked."""
    attackers: dict[str, str | None] = {}
    defending: dict[str, str] = {}
    for oid, target in declaration.items():
        attackers[oid] = target
        defending[oid] = _defending_player_for(state, target)
        obj = state.obj(oid)
        if not obj.has("vigilance"):
            state = state.with_object(evolve(obj, tapped=True))
        trace.add(_attack_rule(era, state, target), "combat.attacks", attacker=oid,
                  target=target)
    combat = Combat(attackers=attackers, defending=defending)
    return evolve(state, combat=combat, turn=evolve(state.turn, step="declare-attackers"))


def _attack_rule(era: type[Era], state: GameState, target: str) -> str:
    if target in state.teams:
        return "twohg.attack-team"
    if target in state.players:
        return "twohg.attack-player" if _is_twohg(state) else "combat.attack-target"
    obj = state.obj(target)
    if obj.is_battle and era.battles:
        return "battle.attack"
    return "pw.can-be-attacked"


def _defending_player_for(state: GameState, target: str) -> str:
    """508.5: the player attacked, the planeswalker's controller, the battle's protector."""
    if target in state.players:
        return target
    if target in state.teams:
        return state.teams[target].members[0]
    obj = state.obj(target)
    if obj.is_battle and obj.protector:
        return obj.protector
    return obj.controller


# -- blocking -------------------------------------------------------------------------

def blocker_violation(era: type[Era], state: GameState, blocker: str, attacker: str,
                      ) -> Violation | None:
    """Why ``blocker`` can't block ``attacker`` (509.1a, 702.9b, 702.17b, 310.9)."""
    combat = state.combat
    b = state.objects.get(blocker)
    if b is None or not b.on_battlefield or not b.is_creature:
        return _v(era, "combat.declare-blockers", "block.not-creature",
                  f"{blocker} is not a creature on the battlefield", blocker=blocker)
    if combat is None or attacker not in combat.attackers:
        return _v(era, "combat.declare-blockers", "block.not-attacking",
                  f"{attacker} is not an attacking creature", blocker=blocker,
                  attacker=attacker)
    if b.tapped:
        return _v(era, "combat.declare-blockers", "block.tapped",
                  f"{blocker} is tapped and can't block", blocker=blocker)
    defender = combat.defending[attacker]
    target = combat.attackers[attacker]
    if _is_twohg(state):
        if b.controller not in state.teammates(defender):
            return _v(era, "twohg.block-any", "block.not-defending-team",
                      f"{blocker} is not controlled by a player of the defending team",
                      blocker=blocker, attacker=attacker)
    elif b.controller != defender:
        return _v(era, "combat.declare-blockers", "block.not-defending-player",
                  f"{blocker} is controlled by {b.controller}, not by {attacker}'s "
                  f"defending player {defender}", blocker=blocker, attacker=attacker)
    if target is not None and target in state.objects:
        t = state.obj(target)
        if era.battles and t.is_battle and b.controller != t.protector:
            return _v(era, "battle.protector", "block.not-protector",
                      f"only {target}'s protector {t.protector} can block creatures "
                      f"attacking it", blocker=blocker, attacker=attacker)
    a = state.obj(attacker)
    if a.has("flying") and not (b.has("flying") or b.has("reach")):
        return _v(era, "keyword.flying", "block.flying",
                  f"{attacker} has flying: {blocker} needs flying or reach to block it",
                  blocker=blocker, attacker=attacker)
    plane = _power_restriction(state, b)
    if plane is not None:
        return _v(era, "combat.block-restriction", "block.plane-restriction",
                  f"{blocker} has power {effective_power(state, b)}: {plane} says creatures "
                  f"with power {_min_power(state, plane)} or greater can't block",
                  blocker=blocker, attacker=attacker, plane=plane)
    return None


def block_violations(era: type[Era], state: GameState, declaration: dict[str, str],
                     ) -> Iterator[tuple[str, Violation]]:
    """Every problem with a whole block declaration, as (blocker or attacker, why)."""
    combat = state.combat
    if combat is not None and combat.blocks_declared:
        yield "", _v(era, "combat.declare-blockers", "block.twice",
                     "blockers were already declared this combat")
        return
    for blocker, attacker in declaration.items():
        why = blocker_violation(era, state, blocker, attacker)
        if why is not None:
            yield blocker, why
    counts: dict[str, int] = {}
    for attacker in declaration.values():
        counts[attacker] = counts.get(attacker, 0) + 1
    for attacker, n in counts.items():
        obj = state.objects.get(attacker)
        if obj is not None and obj.has("menace") and n < 2:
            yield attacker, _v(era, "keyword.menace", "block.menace",
                               f"{attacker} has menace: it can't be blocked except by two or "
                               f"more creatures", attacker=attacker)


def declare_blockers(era: type[Era], state: GameState, trace: Trace,
                     declaration: dict[str, str]) -> GameState:
    assert state.combat is not None
    blockers: dict[str, tuple[str, ...]] = {a: () for a in state.combat.attackers}
    for blocker, attacker in declaration.items():
        blockers[attacker] = blockers[attacker] + (blocker,)
        trace.add("twohg.block-any" if _is_twohg(state) else "combat.declare-blockers",
                  "combat.blocks", blocker=blocker, attacker=attacker)
    blocked = frozenset(a for a, bs in blockers.items() if bs)
    for attacker, bs in blockers.items():
        if len(bs) > 1 and era.blocker_division == "ordered":
            trace.add("combat.damage-assignment-order", "combat.order", attacker=attacker,
                      order=list(bs))
    combat = evolve(state.combat, blockers=blockers, blocked=blocked, blocks_declared=True)
    return evolve(state, combat=combat, turn=evolve(state.turn, step="declare-blockers"))


def order_violation(era: type[Era], state: GameState, attacker: str, order: list[str],
                    ) -> Violation | None:
    combat = state.combat
    if combat is None or attacker not in combat.attackers:
        return _v(era, "combat.damage-assignment-order", "order.not-attacking",
                  f"{attacker} is not an attacking creature", attacker=attacker)
    current = combat.blockers.get(attacker, ())
    if sorted(order) != sorted(current):
        return _v(era, "combat.damage-assignment-order", "order.not-blockers",
                  f"the order must list exactly the creatures blocking {attacker}: "
                  f"{', '.join(current) or 'none'}", attacker=attacker)
    return None


# -- combat damage assignment -----------------------------------------------------------

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
        return max(0, obj.power or 0)
    if plane_statics(state, "combat-damage-by-toughness"):
        return max(0, obj.toughness or 0)
    return max(0, effective_power(state, obj) or 0)


def _lethal(era: type[Era], attacker: Obj, blocker: Obj, others: int) -> int:
    """Lethal damage for one blocker: its toughness less damage already marked and less
    damage other creatures assign to it in this step. From Magic 2011 any nonzero
    damage from a deathtouch source counts as lethal (702.2); under the first Magic 2010
    rule deathtouch didn't change what trample needed."""
    need = max(0, (blocker.toughness or 0) - blocker.damage - others)
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


def _assign_order(state: GameState) -> list[str]:
    """Attackers in the order the engine assigns them: creatures with trample over
    planeswalkers last, so that damage the others assign to the planeswalker counts."""
    combat = state.combat
    assert combat is not None
    return sorted((a for a in combat.attackers if state.obj(a).on_battlefield),
                  key=lambda a: "trample-over-planeswalkers" in state.obj(a).keywords)


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
    past_blockers = [r for r in amounts if r in opts.beyond or r == opts.beyond_top]
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
            give = min(left, opts.planeswalker_need)
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
        return max(0, p - before - opts.planeswalker_need) if (
            opts.unblocked_to or opts.beyond) else max(0, p - before)
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
    for who, need in ahead:
        give = min(left, need)
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


# -- combat damage steps -----------------------------------------------------------------

def first_strike_step_needed(state: GameState) -> bool:
    """510.4: a first combat damage step happens if an attacking or blocking creature
    has first strike or double strike as the combat damage step begins."""
    combat = state.combat
    if combat is None or combat.first_strike_done:
        return False
    objects = state.objects
    return any(not objects[oid].keywords.isdisjoint(_STRIKES_FIRST)
               for oid in _in_combat(state))


def _in_combat(state: GameState) -> list[str]:
    combat = state.combat
    assert combat is not None
    out = [a for a in combat.attackers if state.obj(a).on_battlefield]
    for bs in combat.blockers.values():
        out.extend(b for b in bs if state.obj(b).on_battlefield)
    return out


_STRIKES_FIRST = frozenset({"first-strike", "double-strike"})


def _assigns_in(obj: Obj, first_strike_step: bool, combat: Combat) -> bool:
    """510.4: the first step is for creatures with first strike or double strike; the
    second for those that had neither, and those with double strike."""
    keywords = obj.keywords
    if first_strike_step:
        return not keywords.isdisjoint(_STRIKES_FIRST)
    if "double-strike" in keywords:
        return True
    if not combat.first_strike_done:
        return True
    return obj.id not in combat.struck_first and "first-strike" not in keywords


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
                trace.add(_cite_nothing(opts), "combat.assigns-nothing", attacker=attacker,
                          reason=opts.reason or "no-recipient")
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
                                 a.source.controller, a.source.deathtouch, a.source.lifelink))
    return tuple(out)


def resolve_pending(era: type[Era], state: GameState, trace: Trace) -> GameState:
    """Lorwyn: the combat damage object on the stack resolves as it was assigned, even if
    a source has left play (310.3); damage assigned to a permanent that has left play is
    not dealt."""
    combat = state.combat
    assert combat is not None
    trace.add("combat.damage-on-stack", "combat.damage-resolves", count=len(combat.pending))
    for p in combat.pending:
        src = Source(p.source, p.source_controller, p.deathtouch, p.lifelink)
        if p.recipient_generation is not None:
            obj = state.obj(p.recipient)
            if not obj.on_battlefield or obj.generation != p.recipient_generation:
                trace.add("combat.damage-dealt", "combat.damage-not-dealt", source=p.source,
                          recipient=p.recipient, amount=p.amount, reason="recipient-left")
                continue
        state = deal_damage(era, state, trace, src, p.recipient, p.amount, combat=True)
    return evolve(state, combat=evolve(combat, pending=()))
