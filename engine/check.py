"""Validating a scenario document: every variant in every era, answers against
``expect``, translations. Used by the command line and by the web app's one
validation service."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from engine import rulebook
from engine.document import languages
from engine.draws import (
    MAX_SKIPPED,
    SKIP_RESTLESS,
    SKIP_UNPRINTED,
    Survey,
    board_count,
    run_values,
    value_sets,
)
from engine.eras import ERA_KEYS, find_era
from engine.errors import DocumentError, EngineError, ErrorItem
from engine.notation import Scenario, Variant, parse
from engine.params import setup_items
from engine.runner import run_all, scenario_eras
from engine.texts import PLACEHOLDER, placeholder_problems, render_text

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
    variants: dict[str, Any] = field(default_factory=dict)
    """A generator's survey (``engine.draws.Survey.as_json``): distinct boards, skips per
    era, each question's answers over the draws. Empty without parameters."""

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
            **({"variants": self.variants} if self.variants else {}),
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
    result.errors.extend(_placeholder_errors(scenario))
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
    survey = Survey()
    sets, survey.exhaustive = value_sets(scenario)
    for values in sets:
        try:
            variant = _run_values(scenario, values, eras, survey)
            if scenario.params and not result.errors:  # the first variant that shows one
                result.errors.extend(_unfilled(scenario, variant))
        except DocumentError as err:
            label = _label(values)
            for item in err.items:
                msg = f"{item.message} (variant {label})" if label else item.message
                result.errors.append(ErrorItem(item.path, msg, item.rule, item.era))
            break
        if survey.steps > WORK_BUDGET:
            result.errors.append(ErrorItem("params", (
                f"checking every variant in every era takes more than {WORK_BUDGET:,} engine "
                f"steps (the work budget of one document): use fewer parameter values, "
                f"eras or actions")))
            break
    if result.errors:
        return result
    if scenario.params:
        survey.boards, survey.boards_exact = board_count(scenario)
        result.errors.extend(_skip_errors(survey))
        result.errors.extend(_unasked_errors(scenario, eras, survey))
        result.warnings.extend(_degenerate_warnings(scenario, survey))
        result.variants = survey.as_json()
    if result.errors:
        return result
    try:
        outcomes = run_all(scenario, seed=seed, eras=eras)
        defaults = run_all(scenario, seed=0, eras=eras) if seed != 0 else outcomes
    except DocumentError as err:
        result.errors.extend(err.items)
        return result
    result.answers = {e: dict(o.answers) for e, o in outcomes.items()}
    asked = {q.id for q in scenario.variant(0).questions}
    for i, raw in enumerate(document.get("questions") or ()):
        if (isinstance(raw, dict) and "expect" in raw and isinstance(raw.get("id"), str)
                and raw["id"] not in asked):
            result.errors.append(ErrorItem(
                f"questions[{i}].expect", "the default variant (every parameter at its "
                "default) doesn't ask this question (its `when:`), so `expect` has nothing "
                "to check: remove it, or change a default"))
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


def _run_values(scenario: Scenario, values: dict[str, Any], eras: tuple[str, ...],
                survey: Survey) -> Variant:
    """Play one set of values in every era and answer its questions (``engine.draws``)."""
    return run_values(scenario, values, eras, survey)


def _placeholder_errors(scenario: Scenario) -> list[ErrorItem]:
    """``{x.attr}`` and ``{n|forms}`` placeholders that can't be filled in."""
    kinds = {p.name: p.kind for p in scenario.params}
    variant = scenario.variant(0)
    objects: dict[str, Any] = dict(variant.state.objects)
    objects.update({o.id: o for o in variant.new_objects.values()})
    for _path, item in setup_items(scenario.document):
        if isinstance(item.get("id"), str):
            objects.setdefault(item["id"], None)
    out = []
    for path, text in _texts(scenario.document):
        out += [ErrorItem(at, message) for at, message in
                placeholder_problems(text, path, kinds, objects)]
    return out


def _texts(node: Any, path: str = "", skip: tuple[str, ...] = ("params",),
           ) -> Iterable[tuple[str, dict[str, str]]]:
    """Every text of a document (a mapping language -> text with ``en``; a story
    alternative's `when:` set aside) with its path, but under the keys ``skip``."""
    known = languages()
    if isinstance(node, dict):
        if "en" in node and isinstance(node.get("en"), str) and all(
                k in known or k == "when" for k in node):
            yield path, {k: v for k, v in node.items() if k != "when" and isinstance(v, str)}
            return
        for k, v in node.items():
            if k not in skip:
                yield from _texts(v, f"{path}.{k}" if path else str(k), skip)
    elif isinstance(node, list):
        for i, v in enumerate(node):
            yield from _texts(v, f"{path}[{i}]", skip)


def _unfilled(scenario: Scenario, variant: Variant) -> list[ErrorItem]:
    """A text a variant shows that names an object this variant doesn't have (switched
    off by its `when:`): the candidate would read the placeholder as written."""
    switched = _switchable_ids(scenario)
    if not switched:
        return []
    values = dict(variant.values)
    shown = [("story", scenario.story_for(values))]
    shown += [(f"{q.path}.ask", q.ask) for q in variant.questions]
    for path, text in shown:
        raw = text.get("en", "")
        if "{" in raw and "{" in (filled := render_text(text, "en", variant)):
            for m in PLACEHOLDER.finditer(filled):
                if m.group(1) in switched:
                    return [ErrorItem(path, (
                        f"{m.group(0)} can't be filled in when {_label(values)}: give this "
                        f"text the `when:` of what it names (a question's, or a story "
                        f"alternative's)"))]
    return []


def _switchable_ids(scenario: Scenario) -> frozenset[str]:
    """The ids of the setup objects a `when:` switches off in some variant."""
    return frozenset(item["id"] for path, item in setup_items(scenario.document)
                     if path in scenario.conditions and isinstance(item.get("id"), str))


def _skip_errors(survey: Survey) -> list[ErrorItem]:
    """A generator that skips more than MAX_SKIPPED of its draws in an era is refused."""
    out = []
    for era, reasons in survey.skipped.items():
        skipped = sum(reasons.values())
        if survey.drawn and skipped / survey.drawn > MAX_SKIPPED:
            why = []
            if reasons[SKIP_UNPRINTED]:
                why.append(f"{reasons[SKIP_UNPRINTED]} draw a card not yet printed then")
            if reasons[SKIP_RESTLESS]:
                why.append(f"{reasons[SKIP_RESTLESS]} have a board that isn't at rest "
                           f"(a state-based action would apply at once)")
            out.append(ErrorItem("params", (
                f"{skipped} of the {survey.drawn} variants drawn can't be shown in {era} "
                f"({'; '.join(why)}): at most {MAX_SKIPPED:.0%} may be skipped; narrow the "
                f"parameters, or leave {era} out of `eras`"), "704.3" if reasons[
                    SKIP_RESTLESS] > reasons[SKIP_UNPRINTED] else None, era))
    return out


def _unasked_errors(scenario: Scenario, eras: tuple[str, ...],
                    survey: Survey) -> list[ErrorItem]:
    """A question with a `when:` that no variant drawn asks, in an era, is an error."""
    out = []
    for i, raw in enumerate(scenario.document.get("questions") or ()):
        path = f"questions[{i}]"
        if path not in scenario.conditions or not isinstance(raw, dict):
            continue
        by_era = survey.answers.get(str(raw.get("id")), {})
        missing = [e for e in eras if not by_era.get(e)]
        if missing:
            out.append(ErrorItem(f"{path}.when", (
                f"no variant drawn asks this question in {', '.join(missing)} ({survey.drawn} "
                f"drawn): its `when:` is never true there, or only on boards that are "
                f"skipped")))
    return out


def _degenerate_warnings(scenario: Scenario, survey: Survey) -> list[ErrorItem]:
    """A question the survey finds degenerate (``Survey.degenerate``) is flagged, one
    warning per answer and its eras."""
    paths = {str(q.get("id")): f"questions[{i}]"
             for i, q in enumerate(scenario.document.get("questions") or ())
             if isinstance(q, dict)}
    out = []
    for qid, by_era in survey.degenerate().items():
        same: dict[tuple[str, int], list[str]] = {}
        for era, found in by_era.items():
            same.setdefault(found, []).append(era)
        for (answer, pct), in_eras in same.items():
            out.append(ErrorItem(paths.get(qid, "questions"), (
                f"degenerate: the answer is {answer} in {pct}% of the variants drawn in "
                f"{', '.join(in_eras)}, so it can be learnt without reading the board; vary "
                f"what decides it")))
    return out


def _label(values: dict[str, Any]) -> str:
    return ", ".join(f"{k}={v}" for k, v in values.items())


def translation_warnings(document: dict[str, Any],
                         wanted: Iterable[str] | None = None) -> list[ErrorItem]:
    """Every text missing in one of the languages texts may be written in
    (``engine.document.languages``), or in those of ``wanted`` only (a site's languages
    required to publish). An error only for publishing."""
    check = [lang for lang in (languages() if wanted is None else wanted) if lang != "en"]
    return [ErrorItem(f"{path}.{lang}", f"missing {lang} translation")
            for path, text in _texts(document, skip=("setup", "params"))
            for lang in check if not text.get(lang)]
