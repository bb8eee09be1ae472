"""Running a scenario: actions in order under one era, state-based actions after each,
then the questions' answers, with the trace of every step."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from engine import combat as cb
from engine import sba
from engine.cards import find_card
from engine.combat_damage import lock_in_combat_damage
from engine.eras import ERAS, Era, era_end, find_era
from engine.errors import DocumentError, ErrorItem, IllegalAction, RestlessBoard, Violation
from engine.kinds.actions import ACTIONS, DECLARATIONS, QUIET_ACTIONS, perform
from engine.kinds.actions.choose import Choose
from engine.notation import Question, Scenario, Variant
from engine.queries import answer, holds
from engine.state import GameState
from engine.trace import Trace

__all__ = ["DECLARATIONS", "QUIET_ACTIONS", "Outcome", "answer_eras", "compute_answers",
           "perform", "play", "play_declarations", "run_all", "run_variant", "scenario_eras"]


@dataclass(slots=True)
class Outcome:
    era: type[Era]
    state: GameState
    trace: Trace
    answers: dict[str, Any] = field(default_factory=dict)

    def as_json(self) -> dict[str, Any]:
        st = self.state
        combat = st.combat
        objects = {}
        for oid, o in st.objects.items():
            attacking = None
            if combat is not None and oid in combat.attackers and o.on_battlefield:
                attacking = combat.attackers[oid] or "nothing"
            objects[oid] = {
                "zone": o.zone, "controller": o.controller,
                "loyalty": o.current_loyalty if o.is_planeswalker else None,
                "damage": o.damage, "counters": dict(o.counters), "attacking": attacking,
            }
        players = {pid: {"life": st.life(pid)} for pid in st.players}
        out: dict[str, Any] = {"era": self.era.key, "players": players}
        if st.teams:
            out["teams"] = {tid: {"life": t.life} for tid, t in st.teams.items()}
        out.update({"objects": objects, "answers": self.answers,
                    "trace": self.trace.as_list()})
        return out


def play(era: type[Era], variant: Variant) -> tuple[GameState, Trace]:
    """Run every action of a variant under ``era``."""
    trace = Trace(era)
    state = variant.state
    _check_resting_board(era, state)
    actions = variant.actions
    prev_assign = False
    i = 0
    while i < len(actions):
        action = actions[i]
        trace.action = i
        nxt = actions[i + 1] if i + 1 < len(actions) else None
        keep: tuple[str, ...] = (nxt.value.keep,) if nxt and isinstance(nxt.value, Choose) else ()
        if prev_assign and action.kind not in ("assign", "combat_damage"):
            if not era.combat_damage_uses_stack:
                raise IllegalAction(action.path, Violation(
                    "combat.damage-dealt", era.rule("combat.damage-dealt"),
                    "damage.nothing-between",
                    "combat damage is dealt as soon as it is assigned: no action can happen "
                    "between `assign` and `combat_damage` in this era", {}), era.key)
            # Lorwyn: the damage goes on the stack; this action happens while it waits.
            state = lock_in_combat_damage(era, state, trace, action.path)
        prev_assign = action.kind == "assign"
        state = perform(era, state, trace, action, variant.new_objects.get(i), keep)
        if action.kind not in QUIET_ACTIONS or state.triggers:  # (an attack can trigger)
            state, _ = sba.check(era, state, trace, keep)
        if keep and any(s.event == "sba.choice" and s.action == i for s in trace.steps):
            i += 1  # the `choose` that follows was the choice the rules asked for
        i += 1
    trace.action = None
    return state, trace


_AT_REST: dict[tuple[int, str], GameState] = {}
"""Setup boards found at rest, by (identity, era): a parsed variant is run again and again
(every question page, every era of a check) and its board never changes. The value keeps
the state alive, so its identity can't be reused while it is here."""
_AT_REST_SIZE = 1024


def _check_resting_board(era: type[Era], state: GameState) -> None:
    """A setup board is a game at rest: no state-based action may apply to it in the era
    simulated (two Jaces under the old global uniqueness rule can't both be there)."""
    key = (id(state), era.key)
    if _AT_REST.get(key) is state:
        return
    _board_at_rest(era, state)
    if len(_AT_REST) >= _AT_REST_SIZE:
        _AT_REST.clear()
    _AT_REST[key] = state


def _board_at_rest(era: type[Era], state: GameState) -> None:
    probe = Trace(era)
    try:
        after, _ = sba.check(era, state, probe)
    except DocumentError as err:
        raise RestlessBoard([replace(i, path="setup", message=f"the board can't be at rest in "
                                     f"{era.key}: {i.message}") for i in err.items]) from None
    if probe.steps:
        step = probe.steps[0]
        what = step.data.get("object") or step.data.get("player") or step.data.get("team")
        raise RestlessBoard(ErrorItem(
            "setup", f"the board can't be at rest in {era.key}: a state-based action would "
                     f"apply at once ({step.event}: {what})", step.rule, era.key))
    del after


def compute_answers(era: type[Era], state: GameState, questions: tuple[Question, ...],
                    ) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for q in questions:
        if q.kind in ("number", "yesno"):
            assert q.query is not None
            out[q.id] = answer(era, state, q.query)
        elif q.kind == "choice":
            true = [o.id for o in q.options if holds(era, state, o.claim.query, o.claim.value)]
            if len(true) != 1:
                raise DocumentError(ErrorItem(
                    f"{q.path}.options",
                    f"a choice question needs exactly one true option; in {era.key} "
                    f"{len(true)} are true ({', '.join(true) or 'none'})", None, era.key))
            out[q.id] = true[0]
        elif q.kind == "multi":
            out[q.id] = [o.id for o in q.options
                         if holds(era, state, o.claim.query, o.claim.value)]
        elif q.kind == "assign":
            assert q.attacker is not None
            if q.goal is not None:
                out[q.id] = cb.max_damage_to(era, state, q.attacker, q.goal)
            else:
                out[q.id] = cb.default_assignment(era, state, q.attacker)
        # `eras` questions are answered across eras by ``answer_eras``.
    return out


def run_variant(era: type[Era], variant: Variant) -> Outcome:
    state, trace = play(era, variant)
    answers = compute_answers(era, state, variant.questions)
    return Outcome(era, state, trace, answers)


def scenario_eras(scenario: Scenario, variant: Variant | None = None) -> tuple[str, ...]:
    """The eras a scenario is asked in: its ``eras``, or every era in which its cards,
    keywords and mechanics exist."""
    if scenario.eras is not None:
        return scenario.eras
    variant = variant or scenario.variant(0)
    objs = list(variant.state.objects.values()) + list(variant.new_objects.values())
    out = []
    for era in ERAS:
        end = era_end(era)
        ok = True
        for o in objs:
            if o.card is not None and end is not None and find_card(o.card).released >= end:
                ok = False
            if not all(era.keyword_exists(k) for k in o.keywords):
                ok = False
            if o.is_battle and not era.battles:
                ok = False
        for a in variant.actions:
            for slug in ACTIONS[a.kind].catalog_cards(a.value, variant.state):
                if end is not None and find_card(slug).released >= end:
                    ok = False
        if ok:
            out.append(era.key)
    return tuple(out)


def answer_eras(scenario: Scenario, variant: Variant, eras: tuple[str, ...],
                states: dict[str, GameState]) -> dict[str, list[str]]:
    """`eras` questions: the eras (of those the scenario is asked in) where the claim holds."""
    out: dict[str, list[str]] = {}
    for q in variant.questions:
        if q.kind != "eras":
            continue
        assert q.claim is not None
        out[q.id] = [e for e in eras
                     if holds(find_era(e), states[e], q.claim.query, q.claim.value)]
    return out


def run_all(scenario: Scenario, seed: int = 0, eras: tuple[str, ...] | None = None,
            ) -> dict[str, Outcome]:
    """Run one variant in every era it is asked in, answering every question."""
    variant = scenario.variant(seed)
    eras = eras or scenario_eras(scenario, variant)
    outcomes: dict[str, Outcome] = {}
    for key in eras:
        era = find_era(key)
        try:
            outcomes[key] = run_variant(era, variant)
        except DocumentError as err:
            if all(item.era for item in err.items):
                raise
            raise DocumentError([replace(item, era=item.era or key) for item in err.items],
                                ) from err
    era_answers = answer_eras(scenario, variant, eras,
                              {k: o.state for k, o in outcomes.items()})
    for o in outcomes.values():
        o.answers.update(era_answers)
        # keep question order
        o.answers = {q.id: o.answers[q.id] for q in variant.questions if q.id in o.answers}
    return outcomes


def play_declarations(era: type[Era], variant: Variant) -> GameState:
    """The board as a candidate sees it with the question: the setup, plus the leading
    attack and block declarations (nothing that deals damage or resolves)."""
    trace = Trace(era)
    state = variant.state
    for i, action in enumerate(variant.actions):
        if action.kind not in DECLARATIONS:
            break
        try:
            state = perform(era, state, trace, action, variant.new_objects.get(i), ())
        except DocumentError:
            break
    return state
