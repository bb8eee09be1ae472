"""Grading: a pure function of the scenario version, the question, the era, the variant
and the candidate's answer. It asks the engine for the answer key; it decides no rule
itself."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from engine.eras import find_era
from engine.notation import Question, Scenario, Variant, parse
from engine.queries import why_illegal_assignment
from engine.runner import Outcome, answer_eras, play, run_variant, scenario_eras


class AnswerError(ValueError):
    """The submitted answer is not of the question's form (a message for the candidate)."""


_SCENARIOS: dict[tuple[int, str], Scenario] = {}
_MAX_SCENARIOS = 1024


def clear_caches() -> None:
    _SCENARIOS.clear()
    _expected_answer.cache_clear()
    _eras_answer.cache_clear()


def scenario_for(version_id: int, content_hash: str, load: Any) -> Scenario:
    """The parsed scenario of a version, kept per (version, content hash): a version
    never changes, so ``load()`` (which reads the document) runs once per process."""
    key = (version_id, content_hash)
    scenario = _SCENARIOS.get(key)
    if scenario is None:
        if len(_SCENARIOS) >= _MAX_SCENARIOS:
            _SCENARIOS.clear()
        scenario = _SCENARIOS[key] = parse(load())
    return scenario


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


@lru_cache(maxsize=4096)
def _eras_answer(scenario: Scenario, seed: int, question_id: str) -> list[str]:
    variant = scenario.variant(seed)
    eras = scenario_eras(scenario, variant)
    states = {e: play(find_era(e), variant)[0] for e in eras}
    return answer_eras(scenario, variant, eras, states)[question_id]


def expected_answer(scenario: Scenario, question_id: str, era: str, seed: int) -> Expected:
    """The engine's answer key with its outcome, computed once per variant: every seed
    that draws the same parameter values shares it (scenarios and eras never change)."""
    return _expected_answer(scenario, question_id, era, scenario.variant(seed).seed)


@lru_cache(maxsize=4096)
def _expected_answer(scenario: Scenario, question_id: str, era: str, seed: int) -> Expected:
    variant = scenario.variant(seed)
    question = question_of(variant, question_id)
    outcome = run_variant(find_era(era), variant)
    if question.kind == "eras":
        value: Any = _eras_answer(scenario, seed, question_id)
    else:
        value = outcome.answers[question_id]
    options_true: list[str] = []
    if question.kind == "choice":
        options_true = [value]
    elif question.kind == "multi":
        options_true = list(value)
    return Expected(question, value, outcome, variant, scenario_eras(scenario, variant),
                    options_true)


def parse_answer(question: Question, data: Any, eras: tuple[str, ...]) -> Any:
    """The candidate's answer from form data (a QueryDict or a mapping of lists)."""
    def one(name: str) -> str:
        value = data.get(name, "")
        return str(value).strip()

    kind = question.kind
    if kind == "number":
        text = one("answer")
        try:
            value = int(text)
        except ValueError:
            raise AnswerError("number") from None
        if abs(value) > 10_000:
            raise AnswerError("number")
        return value
    if kind == "yesno":
        text = one("answer")
        if text not in ("yes", "no"):
            raise AnswerError("yesno")
        return text == "yes"
    if kind == "choice":
        text = one("answer")
        if text not in {o.id for o in question.options}:
            raise AnswerError("choice")
        return text
    if kind in ("multi", "eras"):
        chosen = data.getlist("answer") if hasattr(data, "getlist") else data.get("answer", [])
        allowed = {o.id for o in question.options} if kind == "multi" else set(eras)
        if any(c not in allowed for c in chosen):
            raise AnswerError("choice" if kind == "multi" else "eras")
        # "None of them" can be right, so it is said explicitly, never assumed from a
        # form sent with nothing ticked.
        none = one("none") == "1"
        if not chosen and not none:
            raise AnswerError("nothing-ticked")
        if chosen and none:
            raise AnswerError("none-and-some")
        if kind == "multi":
            return sorted(set(chosen))
        return sorted(set(chosen), key=list(eras).index)
    if kind == "assign":
        return _parse_assignment(data, one)
    raise AnswerError(kind)


def _parse_assignment(data: Any, one: Callable[[str], str]) -> dict[str, int]:
    """An ``assign-<recipient>`` field per recipient: a blank field means none to it, but
    a form with every field blank is refused ("assign-empty"), so that a candidate who
    meant to assign nothing says so with a 0."""
    out: dict[str, int] = {}
    filled = False
    for key in data:
        if not key.startswith("assign-"):
            continue
        text = one(key)
        if text == "":
            continue
        filled = True
        try:
            n = int(text)
        except ValueError:
            raise AnswerError("assign") from None
        if n < 0 or n > 1000:
            raise AnswerError("assign")
        if n:
            out[key.removeprefix("assign-")] = n
    if not filled:
        raise AnswerError("assign-empty")
    return out


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
