"""The endless drill: one topic (or several), one question at a time, for as long as the
candidate wants. Each answer moves the drill's level, a target difficulty from 1 to 5:
up after a right answer, down after a wrong one; the next question is the one, among a
few drawn at random (scenario, question, era and, for a generator, a few variants each),
whose estimated difficulty is nearest that level.

A question's difficulty is the engine's estimate for the variant drawn
(``engine.estimate_difficulty``: the author's level, the trace's steps and rules, an
era boundary crossed), calibrated with how candidates have done on that question in that
era as attempts accumulate (``QuestionTally``): after CALIBRATION attempts the facility
weighs as much as the estimate.

The steps are uneven on purpose (a weighted up-down staircase): the level settles where
a candidate is right about STEP_DOWN / (STEP_UP + STEP_DOWN) of the time, 70%, hard
enough to teach and easy enough to keep going.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from engine import estimate_difficulty
from quiz.models import QuestionTally, QuizSession
from quiz.selectors import pool_scenarios
from scenarios.presentation.present import outcome_of

LEVEL_START = 2.0
STEP_UP = 0.3
STEP_DOWN = 0.7
CANDIDATES = 6      # (scenario, question, era) triples weighed for each next question
DRAWS = 3           # variants weighed per generator among them
RECENT = 4          # a scenario served in the last RECENT questions is not served again
CALIBRATION = 20    # attempts at which the facility weighs as much as the estimate


@dataclass(frozen=True, slots=True)
class Pick:
    version_id: int
    question_id: str
    era: str
    seed: int
    difficulty: float


def next_level(level: float, correct: bool) -> float:
    """The drill's level after an answer: harder after a right one, easier after a wrong."""
    return round(min(5.0, max(1.0, level + (STEP_UP if correct else -STEP_DOWN))), 2)


def calibrated(estimate: float, attempts: int, correct: int) -> float:
    """The estimate, moved towards what the candidates' answers say: a question everyone
    gets right is a 1, one nobody does a 5."""
    if attempts <= 0:
        return estimate
    from_facility = 1 + 4 * (1 - correct / attempts)
    return (CALIBRATION * estimate + attempts * from_facility) / (CALIBRATION + attempts)


def pick(session: QuizSession, level: float, rng: random.Random,
         recent_scenarios: set[int]) -> Pick | None:
    """The next question of a drill, nearest ``level``; None when the pool is empty."""
    from quiz.services import draw_seed, scenario_of, version_meta  # (import cycle)

    pool = pool_scenarios(topics=session.topics, difficulty_min=1, difficulty_max=5,
                          era_mode=session.era_mode, era=session.era)
    fresh = [entry for entry in pool if entry[0].scenario_id not in recent_scenarios]
    pool = fresh or pool
    if not pool:
        return None
    triples = [(servable, rng.choice(servable.questions), rng.choice(eras))
               for servable, eras in rng.sample(pool, min(CANDIDATES, len(pool)))]
    tallies = {(t.version_id, t.question_id, t.era): (t.attempts, t.correct)
               for t in QuestionTally.objects.filter(
                   version_id__in={s.version_id for s, _q, _e in triples})}
    scored: list[tuple[float, float, Pick]] = []
    for servable, question, era in triples:
        scenario = scenario_of(version_meta(servable.version_id))
        attempts, correct = tallies.get((servable.version_id, question, era), (0, 0))
        for _draw in range(DRAWS if scenario.params else 1):
            seed = draw_seed(scenario, era, question)
            variant_seed = scenario.variant(seed).seed
            estimate = estimate_difficulty(scenario, variant_seed, era, question,
                                           outcome_of(scenario, variant_seed, era))
            difficulty = calibrated(estimate, attempts, correct)
            scored.append((abs(difficulty - level), rng.random(),
                           Pick(servable.version_id, question, era, seed,
                                round(difficulty, 2))))
    return min(scored, key=lambda s: (s[0], s[1]))[2]
