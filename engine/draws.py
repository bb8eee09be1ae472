"""Drawing a scenario's variants: for a candidate (one era, one question), and for the
check that publishing runs (every variant when there are few, a fixed seeded sample
otherwise), with what that survey finds: how many distinct boards the parameters make,
what each draw skips, and how each question's answer is spread over the draws
(docs/scenario-format.md, "Generators").

A draw skips a variant that can't be shown in the era asked: one with a card drawn by a
parameter that was not yet printed then, or whose board is not at rest (a state-based
action would apply at once, 704.3). Any other error of a variant is the author's: the
check reports it, as it reports an illegal action in any scenario.
"""

from __future__ import annotations

import itertools
import json
import random
from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from engine.cards import card_or_none
from engine.eras import Era, era_end, find_era
from engine.errors import DocumentError, EngineError, RestlessBoard
from engine.notation import Scenario, Variant
from engine.params import shown
from engine.runner import (
    _check_resting_board,
    answer_eras,
    compute_answers,
    play,
    run_variant,
    scenario_eras,
)

EXHAUSTIVE = 200
"""A scenario with at most this many sets of parameter values has every one checked."""
SAMPLE = 200
"""Otherwise the check runs this many seeded draws (seeds 1..SAMPLE), besides seed 0."""
MAX_SKIPPED = 0.5
"""The most of a check's draws in one era that may be skipped: past that, a generator
spends more on boards it can't show than on questions, and is refused."""
DEGENERATE = 0.95
"""A question whose answer is the same in this share of an era's draws is flagged."""
DEGENERATE_MIN = 20
"""...when at least this many draws asked it in that era (fewer say nothing)."""
DRAW_TRIES = 64
"""Draws a candidate's variant tries before it gives up (the check bounds the skips at
MAX_SKIPPED, so 64 misses in a row happen less than once in 10**19 draws)."""
COUNT_EXACT = 4096
"""Board counts are exact when the values of the parameters `when:` names combine in at
most this many ways; otherwise the count is the number of sets of values (an upper
bound)."""

SKIP_UNPRINTED = "unprinted"
SKIP_RESTLESS = "restless"


class NoVariant(EngineError):
    """No variant could be drawn for this era and question."""


# -- one draw ---------------------------------------------------------------------------------

def printed_in(scenario: Scenario, values: Mapping[str, Any], era: type[Era]) -> bool:
    """Whether every card the parameters drew existed in ``era``: printed before it ended,
    with keywords the era has. (The document's own cards are the author's choice: the
    scenario's `eras` or its default variant decide those.)"""
    end = era_end(era)
    for p in scenario.params:
        if p.kind == "range":
            continue
        card = card_or_none(values.get(p.name))
        if card is None:
            continue
        if end is not None and card.released >= end:
            return False
        if not all(era.keyword_exists(k) for k in card.keywords):
            return False
    return True


Run = Callable[[type[Era], Variant], object]
"""How a draw plays a variant it tries: ``run_variant`` by default; the web app passes its
kept runs (``outcome_of``), so the run the draw makes is the one the page shows."""


def draw(scenario: Scenario, era_key: str, question_id: str | None = None,
         rng: random.Random | None = None, run: Run | None = None) -> int:
    """A seed for a candidate: a variant that asks ``question_id``, exists in the era,
    and plays in it (board at rest, every action legal, every question answered). Seed 0
    (the default variant) when nothing varies. NoVariant if none is found in DRAW_TRIES
    draws."""
    if not scenario.params:
        return 0
    rng = rng or random.SystemRandom()
    era = find_era(era_key)
    for _ in range(DRAW_TRIES):
        seed = rng.randrange(1, 2**31 - 1)
        if playable(scenario, seed, era, question_id, run):
            return seed
    if playable(scenario, 0, era, question_id, run):
        return 0
    raise NoVariant(f"{scenario.id}: no variant of {question_id or 'this scenario'} "
                    f"in {era_key} after {DRAW_TRIES} draws")


def playable(scenario: Scenario, seed: int, era: type[Era], question_id: str | None,
             run: Run | None = None) -> bool:
    values = scenario.values_for(seed)
    if question_id is not None and not scenario.asks(question_id, values):
        return False
    if not printed_in(scenario, values, era):
        return False
    try:
        variant = scenario.variant(seed)
        (run or run_variant)(era, variant)
        if any(q.id == question_id and q.kind == "eras" for q in variant.questions):
            # answered over every era the variant can be shown in: each must play
            for key in variant_eras(scenario, variant):
                if key != era.key:
                    (run or run_variant)(find_era(key), variant)
    except DocumentError:
        # A board not at rest is a skip by design; any other error is one the check did
        # not meet in its sample: this draw is skipped all the same, never shown.
        return False
    return True


def variant_eras(scenario: Scenario, variant: Variant) -> tuple[str, ...]:
    """The eras a variant can be shown in: the scenario's (``scenario_eras``), less those
    where a card its parameters drew was not yet printed or its board is not at rest.
    What an "in which eras" question of that variant is answered over."""
    eras = scenario_eras(scenario, variant)
    if not scenario.params:
        return eras
    out = []
    for key in eras:
        era = find_era(key)
        if not printed_in(scenario, variant.values, era):
            continue
        try:
            _check_resting_board(era, variant.state)
        except RestlessBoard:
            continue
        out.append(key)
    return tuple(out)


# -- how many boards ----------------------------------------------------------------------------

def board_count(scenario: Scenario) -> tuple[int, bool]:
    """How many distinct boards the parameters make, and whether that is exact. Two sets
    of values are one board when they differ only in parameters that no used part of
    the script shows (a blocker's card, when the `when:` of the block is false)."""
    if not scenario.params:
        return 1, True
    sizes = {p.name: len(p.values) for p in scenario.params}
    if not scenario.conditions:
        return _product(sizes[n] for n in {r.name for r in scenario.references}), True
    switching = sorted({name for cond in scenario.conditions.values() for name, _ in cond})
    if _product(sizes[n] for n in switching) > COUNT_EXACT:
        return scenario.value_count(), False
    values = {p.name: p.values for p in scenario.params}
    boards: set[tuple[Any, ...]] = set()
    total = 0
    for combo in itertools.product(*(values[n] for n in switching)):
        chosen = dict(zip(switching, combo, strict=True))
        used: frozenset[str] = shown(scenario.references, chosen)
        key = (tuple(sorted(used)), tuple((n, repr(chosen[n])) for n in switching if n in used))
        if key in boards:
            continue
        boards.add(key)
        total += _product(sizes[n] for n in used if n not in chosen)
    return total, True


def _product(numbers: Iterable[int]) -> int:
    out = 1
    for n in numbers:
        out *= n
    return out


# -- the check's survey ---------------------------------------------------------------------------

@dataclass(slots=True)
class Survey:
    """What a check's draws found."""

    drawn: int = 0
    exhaustive: bool = True
    boards: int = 1
    boards_exact: bool = True
    skipped: dict[str, Counter[str]] = field(default_factory=dict)
    """era -> reason -> draws skipped."""
    answers: dict[str, dict[str, Counter[str]]] = field(default_factory=dict)
    """question -> era -> answer (as JSON) -> draws."""
    steps: int = 0

    def degenerate(self) -> dict[str, dict[str, tuple[str, int]]]:
        """question -> era -> (its answer, the percentage of draws): the questions whose
        answer is the same in DEGENERATE of an era's draws (of at least DEGENERATE_MIN),
        which a candidate could learn without reading the board."""
        out: dict[str, dict[str, tuple[str, int]]] = {}
        for qid, by_era in self.answers.items():
            for era, counts in by_era.items():
                total = sum(counts.values())
                answer, n = counts.most_common(1)[0] if counts else ("", 0)
                if total >= DEGENERATE_MIN and n / total >= DEGENERATE:
                    out.setdefault(qid, {})[era] = (answer, round(100 * n / total))
        return out

    def as_json(self) -> dict[str, Any]:
        """The summary a version keeps: counts, skips, the answers' spread and the
        degenerate questions (question -> their eras)."""
        eras = {}
        for era, reasons in self.skipped.items():
            shown_in = self.drawn - sum(reasons.values())
            eras[era] = {
                "skipped": dict(reasons),
                "boards": round(self.boards * shown_in / self.drawn) if self.drawn else 0,
            }
        return {
            "boards": self.boards, "exact": self.boards_exact,
            "drawn": self.drawn, "exhaustive": self.exhaustive, "eras": eras,
            "answers": {q: {e: c.most_common(12) for e, c in by_era.items()}
                        for q, by_era in self.answers.items()},
            "degenerate": {q: list(by_era) for q, by_era in self.degenerate().items()},
        }


def answer_key(value: Any) -> str:
    """An answer as a short JSON text, the same for the same answer (a set in order)."""
    if isinstance(value, list):
        value = sorted(value, key=str)
    return json.dumps(value, sort_keys=True, ensure_ascii=False, separators=(",", ":"))


def value_sets(scenario: Scenario) -> tuple[list[dict[str, Any]], bool]:
    """The values a check runs: all of them when there are at most EXHAUSTIVE, else the
    seeded draws 1..SAMPLE. Whether that is every one."""
    if scenario.value_count() <= EXHAUSTIVE:
        return list(scenario.all_value_sets()), True
    return [scenario.values_for(seed) for seed in range(1, SAMPLE + 1)], False


def run_values(scenario: Scenario, values: dict[str, Any], eras: tuple[str, ...],
               survey: Survey) -> Variant:
    """Play one set of values in every era, recording skips and answers; the variant.
    Raises the variant's DocumentError (with its era) for anything but a skip."""
    variant = scenario.bind(values)
    states = {}
    survey.drawn += 1
    for key in eras:
        era = find_era(key)
        skipped = survey.skipped.setdefault(key, Counter())
        if not printed_in(scenario, values, era):
            skipped[SKIP_UNPRINTED] += 1
            continue
        try:
            state, trace = play(era, variant)
            answers = compute_answers(era, state, variant.questions)
        except RestlessBoard:
            skipped[SKIP_RESTLESS] += 1
            continue
        except DocumentError as err:
            raise err.in_era(key) from err
        survey.steps += len(trace.steps)
        states[key] = state
        _record(survey, variant, key, answers)
    if states:
        ran = tuple(states)
        for qid, value in answer_eras(scenario, variant, ran, states).items():
            for key in ran:
                survey.answers.setdefault(qid, {}).setdefault(key, Counter())[
                    answer_key(value)] += 1
    return variant


def _record(survey: Survey, variant: Variant, era: str, answers: Mapping[str, Any]) -> None:
    for qid, value in answers.items():
        survey.answers.setdefault(qid, {}).setdefault(era, Counter())[answer_key(value)] += 1
