"""How hard one question of one variant is, in one era, estimated from what the engine
did to answer it: how many steps its trace takes, how many distinct rules those steps
cite, and whether the answer crosses an era boundary (it differs in the era before or
after, or, for an "in which eras" question, it holds in some eras and not others). The
author's difficulty is half of the estimate; the web app calibrates the rest with the
candidates' answers as they accumulate (``quiz.drill``).

The scale is the format's: 1 (intro) to 5 (expert).
"""

from __future__ import annotations

from engine.draws import variant_eras
from engine.eras import find_era
from engine.notation import Scenario
from engine.runner import Outcome, run_variant

STEPS_FOR_HARD = 15   # a trace this long (or longer) counts as fully hard on that count
RULES_FOR_HARD = 6    # as many distinct rules cited


def estimate(scenario: Scenario, seed: int, era: str, question_id: str,
             outcome: Outcome | None = None) -> float:
    """The difficulty of ``question_id`` of variant ``seed`` under ``era``, 1.0 to 5.0.
    ``outcome``: the variant's run under ``era``, when the caller has it."""
    variant = scenario.variant(seed)
    outcome = outcome or run_variant(find_era(era), variant)
    steps = outcome.trace.steps
    rules = {s.rule_key for s in steps if s.rule_key}
    answer = outcome.answers.get(question_id)
    eras = variant_eras(scenario, variant)
    crossed = False
    if any(q.id == question_id and q.kind == "eras" for q in variant.questions):
        from engine.runner import answer_eras, play

        states = {e: play(find_era(e), variant)[0] for e in eras}
        held = answer_eras(scenario, variant, eras, states).get(question_id, [])
        crossed = 0 < len(held) < len(eras)
    elif era in eras:
        i = eras.index(era)
        for neighbour in (eras[i - 1] if i else None, eras[i + 1] if i + 1 < len(eras) else None):
            if neighbour is not None:
                other = run_variant(find_era(neighbour), variant).answers.get(question_id)
                crossed = crossed or other != answer
    work = (0.35 * min(len(steps) / STEPS_FOR_HARD, 1.0)
            + 0.35 * min(len(rules) / RULES_FOR_HARD, 1.0)
            + 0.30 * crossed)
    return round(0.5 * scenario.difficulty + 0.5 * (1 + 4 * work), 2)
