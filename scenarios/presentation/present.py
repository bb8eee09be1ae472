"""One selector for "this variant under this era, as a page shows it": the engine's run
(outcome), its answers, the explained steps and the board.

The question page and its feedback, the era comparison, the what-if page and the
authoring preview all go through ``present``; none of them runs the engine itself. Each
part of a :class:`Presented` is computed on first use, so a page pays only for what it
shows.

A published version's scenario is parsed once per process and kept
(``quiz.services.scenario_of``), so its runs are kept too, per variant and era
(:func:`outcome_of`, :func:`eras_answers`): the key is the parsed scenario itself, which
stands for one version's content. A document parsed for one request (a what-if, an
editor's preview) is run afresh (``keep=False``) and never fills those caches.
"""

from __future__ import annotations

from functools import cached_property
from typing import Any

from engine import (
    Outcome,
    Scenario,
    Variant,
    answer_eras,
    find_era,
    play,
    play_declarations,
    run_variant,
    variant_eras,
)
from scenarios.caches import memo
from scenarios.presentation.board import Board, QuestionBoard, question_board, render_board
from scenarios.presentation.explain import Step, explain_trace
from scenarios.presentation.labels import era_label


@memo(maxsize=512)  # ~30 KB a run with its trace; a run costs well under a ms
def outcome_of(scenario: Scenario, seed: int, era: str) -> Outcome:
    """The run of variant ``seed`` (the variant's own seed) of a kept scenario under
    ``era``: once per process."""
    return run_variant(find_era(era), scenario.variant(seed))


@memo(maxsize=4096)
def eras_answers(scenario: Scenario, seed: int) -> dict[str, list[str]]:
    """The "in which eras" questions of variant ``seed`` of a kept scenario: question id ->
    the eras (of those the scenario is asked in) where its claim holds."""
    variant = scenario.variant(seed)
    eras = variant_eras(scenario, variant)
    states = {e: play(find_era(e), variant)[0] for e in eras}
    return answer_eras(scenario, variant, eras, states)


class Presented:
    """Variant ``variant`` of ``scenario`` under ``era``, in ``language``."""

    def __init__(self, scenario: Scenario, variant: Variant, era: str, language: str, *,
                 every_era: bool, keep: bool) -> None:
        self.scenario, self.variant, self.era = scenario, variant, era
        self.language, self.every_era, self.keep = language, every_era, keep

    @cached_property
    def era_label(self) -> str:
        return era_label(self.era)

    @cached_property
    def outcome(self) -> Outcome:
        """The engine's run: the final state, the trace and the answers under ``era``."""
        if self.keep:
            return outcome_of(self.scenario, self.variant.seed, self.era)
        return run_variant(find_era(self.era), self.variant)

    @cached_property
    def answers(self) -> dict[str, Any]:
        """Question id -> the engine's answer under ``era``; for an "in which eras"
        question, the eras of the scenario where its claim holds."""
        answers = dict(self.outcome.answers)
        if not any(q.kind == "eras" for q in self.variant.questions):
            return answers
        if self.keep:
            answers.update(eras_answers(self.scenario, self.variant.seed))
            return answers
        eras = variant_eras(self.scenario, self.variant)
        states = {e: self.outcome.state if e == self.era
                  else play(find_era(e), self.variant)[0] for e in eras}
        answers.update(answer_eras(self.scenario, self.variant, eras, states))
        return answers

    @cached_property
    def steps(self) -> list[Step]:
        """The trace as numbered steps in ``language``, each with its rule."""
        outcome = self.outcome
        return explain_trace(outcome.trace.steps, outcome.state, self.era, self.language)

    @cached_property
    def board(self) -> Board:
        """The board before anything resolves (the setup and the leading declarations),
        as one picture naming the era (the editor's preview)."""
        state = play_declarations(find_era(self.era), self.variant)
        return render_board(state, era_key=self.era, language=self.language)

    @cached_property
    def question_board(self) -> QuestionBoard:
        """The same board as a question page shows it: both pictures, the story and the
        card texts (of every era of the scenario with ``every_era``)."""
        return question_board(self.scenario, self.variant.seed, self.era, self.language,
                              self.every_era)


def present(scenario: Scenario, era: str, language: str, *, seed: int = 0,
            every_era: bool = False, keep: bool = True) -> Presented:
    """Variant ``seed`` of ``scenario`` under ``era`` in ``language``.

    ``every_era``: the question asks "in which eras", so the question board names no era
    and shows each card's wording in every era of the scenario. ``keep``: the scenario is
    a published version's kept parse, so its runs are kept; False for a document parsed
    for this request only."""
    return Presented(scenario, scenario.variant(seed), era, language, every_era=every_era,
                     keep=keep)
