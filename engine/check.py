"""Validating a scenario document: every variant in every era, answers against
``expect``, translations. Used by the command line and by the web app's one
validation service."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from typing import Any

from engine import rulebook
from engine.document import languages
from engine.eras import ERA_KEYS, find_era
from engine.errors import DocumentError, EngineError, ErrorItem
from engine.notation import Scenario, parse
from engine.runner import compute_answers, play, run_all, scenario_eras

# The most engine steps the whole check of one document (every variant in every era) may
# take: about a third of a second on one core. The library's largest takes 720; a
# document over it is refused (docs/scenario-format.md, "Caps").
WORK_BUDGET = 50_000


@dataclass(slots=True)
class CheckResult:
    id: str | None
    errors: list[ErrorItem] = field(default_factory=list)
    warnings: list[ErrorItem] = field(default_factory=list)
    answers: dict[str, dict[str, Any]] = field(default_factory=dict)
    disagreements: list[dict[str, Any]] = field(default_factory=list)
    eras: tuple[str, ...] = ()
    scenario: Scenario | None = None

    @property
    def ok(self) -> bool:
        return not self.errors and not self.disagreements

    def as_json(self) -> dict[str, Any]:
        return {
            "id": self.id, "ok": self.ok,
            "errors": [e.as_dict() for e in self.errors],
            "warnings": [w.as_dict() for w in self.warnings],
            "eras": list(self.eras),
            "answers": self.answers, "disagreements": self.disagreements,
        }


def same_answer(expected: Any, got: Any) -> bool:
    if isinstance(expected, list) and isinstance(got, list):
        return set(map(str, expected)) == set(map(str, got))
    return bool(expected == got) and type(expected) is type(got) or (
        expected is None and got is None)


def expected_in(raw: Any, era: str) -> tuple[bool, Any]:
    """``expect: VALUE`` (all eras) or ``expect: {ERA: VALUE}``."""
    if isinstance(raw, dict) and raw and all(k in ERA_KEYS for k in raw):
        if era in raw:
            return True, raw[era]
        return False, None
    return True, raw


def check_document(document: Any, seed: int = 0) -> CheckResult:
    result = CheckResult(document.get("id") if isinstance(document, dict) else None)
    try:
        scenario = parse(document)
    except DocumentError as err:
        result.errors.extend(err.items)
        return result
    result.scenario = scenario
    result.warnings.extend(translation_warnings(document))
    try:
        eras = scenario_eras(scenario)
    except EngineError as err:
        result.errors.append(ErrorItem("", str(err)))
        return result
    result.eras = eras
    result.warnings.extend(redirection_warnings(scenario, eras))
    if not eras:
        result.errors.append(ErrorItem("eras", "no era in which every card and mechanic of "
                                               "this scenario exists"))
        return result
    work = 0
    for values in scenario.all_value_sets():
        try:
            work += _run_values(scenario, values, eras)
        except DocumentError as err:
            label = _label(values)
            for item in err.items:
                msg = f"{item.message} (variant {label})" if label else item.message
                result.errors.append(ErrorItem(item.path, msg, item.rule, item.era))
            break
        if work > WORK_BUDGET:
            result.errors.append(ErrorItem("params", (
                f"checking every variant in every era takes more than {WORK_BUDGET:,} engine "
                f"steps (the work budget of one document): use fewer parameter values, "
                f"eras or actions")))
            break
    if result.errors:
        return result
    try:
        outcomes = run_all(scenario, seed=seed, eras=eras)
        defaults = run_all(scenario, seed=0, eras=eras) if seed != 0 else outcomes
    except DocumentError as err:
        result.errors.extend(err.items)
        return result
    result.answers = {e: dict(o.answers) for e, o in outcomes.items()}
    questions = scenario.variant(0).questions
    for q in questions:
        if not q.has_expect:
            continue
        for era in eras:
            applies, expected = expected_in(q.expect, era)
            if not applies:
                continue
            got = defaults[era].answers.get(q.id)
            if not same_answer(expected, got):
                result.disagreements.append({"era": era, "question": q.id,
                                             "expected": expected, "engine": got})
        if isinstance(q.expect, dict) and all(k in ERA_KEYS for k in q.expect):
            for k in q.expect:
                if k not in eras:
                    result.warnings.append(ErrorItem(
                        f"{q.path}.expect.{k}", f"{k} is not an era this scenario is asked in"))
    return result


def redirection_warnings(scenario: Scenario, eras: tuple[str, ...]) -> list[ErrorItem]:
    """A `redirect_to` in an era without the redirection rule (dom-2018 on) does nothing:
    a warning, not an error, since one document serves every era (the trace says so)."""
    without = [e for e in eras if not find_era(e).redirection_rule]
    if not without:
        return []
    last = [e for e in ERA_KEYS if rulebook.exists("pw.redirection", e)][-1]
    rule = rulebook.number("pw.redirection", last)  # 306.7, removed by Dominaria
    out = []
    for action in scenario.variant(0).actions:
        if getattr(action.value, "redirect_to", None):
            out.append(ErrorItem(
                f"{action.path}.redirect_to",
                f"`redirect_to` does nothing in {', '.join(without)}: the redirection rule "
                f"was removed by Dominaria, so there the damage is dealt to the player",
                rule))
    return out


def _run_values(scenario: Scenario, values: dict[str, Any], eras: tuple[str, ...]) -> int:
    """Play one variant in every era and answer its questions; the engine steps taken."""
    variant = scenario.bind(values)
    steps = 0
    for key in eras:
        era = find_era(key)
        try:
            state, trace = play(era, variant)
            compute_answers(era, state, variant.questions)
            steps += len(trace.steps)
        except DocumentError as err:
            raise DocumentError([replace(i, era=i.era or key) for i in err.items]) from err
    return steps


def _label(values: dict[str, Any]) -> str:
    return ", ".join(f"{k}={v}" for k, v in values.items())


def translation_warnings(document: dict[str, Any],
                         wanted: Iterable[str] | None = None) -> list[ErrorItem]:
    """Every text missing in one of the languages texts may be written in
    (``engine.document.languages``), or in those of ``wanted`` only (a site's languages
    required to publish). An error only for publishing."""
    known = languages()
    check = [lang for lang in (known if wanted is None else wanted) if lang != "en"]
    out: list[ErrorItem] = []

    def visit(node: Any, path: str) -> None:
        if isinstance(node, dict):
            if "en" in node and all(k in known for k in node) and isinstance(
                    node.get("en"), str):
                for lang in check:
                    if not node.get(lang):
                        out.append(ErrorItem(f"{path}.{lang}",
                                             f"missing {lang} translation"))
                return
            for k, v in node.items():
                if k in ("setup", "params"):
                    continue
                visit(v, f"{path}.{k}" if path else str(k))
        elif isinstance(node, list):
            for i, v in enumerate(node):
                visit(v, f"{path}[{i}]")

    visit(document, "")
    return out
