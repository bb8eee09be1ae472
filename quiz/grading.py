"""Grading: a pure function of the scenario version, the question, the era, the variant
and the candidate's answer. It asks the engine for the answer key; it decides no rule
itself."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from engine import (
    Outcome,
    Question,
    Scenario,
    Variant,
    find_era,
    parse,
    variant_eras,
    why_illegal_assignment,
)
from scenarios.caches import memo
from scenarios.presentation.present import eras_answers, outcome_of


# ~64 KB a parsed scenario: 256 hold the whole library today (scenarios.caches)
@memo(maxsize=256, key=lambda version_id, content_hash, load: (version_id, content_hash))
def scenario_for(version_id: int, content_hash: str, load: Any) -> Scenario:
    """The parsed scenario of a version, kept per (version, content hash): a version
    never changes, so ``load()`` (which reads the document) runs once per process."""
    return parse(load())


@dataclass(slots=True)
class Expected:
    question: Question
    value: Any
    outcome: Outcome
    variant: Variant
    eras: tuple[str, ...] = ()
    options_true: list[str] = field(default_factory=list)


def question_of(variant: Variant, question_id: str) -> Question:
    for q in variant.questions:
        if q.id == question_id:
            return q
    raise KeyError(question_id)


def expected_answer(scenario: Scenario, question_id: str, era: str, seed: int) -> Expected:
    """The engine's answer key with its outcome, computed once per variant: every seed
    that draws the same parameter values shares it (scenarios and eras never change)."""
    return _expected_answer(scenario, question_id, era, scenario.variant(seed).seed)


@memo(maxsize=256)  # ~40 KB per entry with its outcome and variant (scenarios.caches): a
# fresh variant per answer, so it serves the page-to-answer flow of 256 questions at once
def _expected_answer(scenario: Scenario, question_id: str, era: str, seed: int) -> Expected:
    variant = scenario.variant(seed)
    question = question_of(variant, question_id)
    outcome = outcome_of(scenario, seed, era)  # the run, shared with the pages' presenter
    if question.kind == "eras":
        value: Any = eras_answers(scenario, seed)[question_id]
    else:
        value = outcome.answers[question_id]
    options_true: list[str] = []
    if question.kind == "choice":
        options_true = [value]
    elif question.kind == "multi":
        options_true = list(value)
    return Expected(question, value, outcome, variant, variant_eras(scenario, variant),
                    options_true)


def is_correct(expected: Expected, answer: Any, era: str) -> bool:
    question = expected.question
    if question.kind in ("multi", "eras"):
        return set(answer) == set(expected.value)
    if question.kind == "assign":
        assert question.attacker is not None
        state = expected.outcome.state
        why = why_illegal_assignment(find_era(era), state, question.attacker, answer)
        if why is not None:
            return False
        if question.goal is not None:  # the key is the most the goal can be given
            return bool(answer.get(question.goal, 0) == expected.value)
        return True
    return bool(answer == expected.value)


def assign_recipients(expected: Expected) -> list[str]:
    """The fields an assign question offers: the attacker's blockers, what it attacks and
    the defending player(s) -- whether or not the rules let damage go there, so that the
    form itself gives nothing away."""
    question = expected.question
    assert question.attacker is not None
    state = expected.outcome.state
    combat = state.combat
    if combat is None or question.attacker not in combat.attackers:
        return []
    out = [b for b in combat.blockers.get(question.attacker, ())
           if state.objects[b].on_battlefield]
    target = combat.attackers[question.attacker]
    if target is not None:
        if target in state.teams:
            out.extend(state.teams[target].members)
        else:
            out.append(target)
            if target in state.objects:
                out.append(state.objects[target].controller)
    defending = combat.defending.get(question.attacker)
    if defending:
        out.append(defending)
    return list(dict.fromkeys(out))
