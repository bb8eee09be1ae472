"""What the benches post as an answer: one well-formed answer to a served question, right
or wrong, so each submission is graded and writes its attempt."""

from __future__ import annotations

from typing import Any


def answer_fields(item: Any) -> dict[str, str]:
    """A well-formed answer for the item's question kind (its variant drawn: ``seed``)."""
    from quiz.grading import assign_recipients, expected_answer, question_of
    from quiz.services import scenario_of

    scenario = scenario_of(item.version)
    q = question_of(scenario.variant(item.seed), item.question_id)
    fields = {"seed": str(item.seed)}
    if q.kind == "number":
        fields["answer"] = "2"
    elif q.kind == "yesno":
        fields["answer"] = "yes"
    elif q.kind in ("choice", "multi"):
        fields["answer"] = q.options[0].id
    elif q.kind == "eras":
        fields["none"] = "1"  # "in none of these eras", said explicitly
    elif q.kind == "assign":  # one damage to the first field offered: graded, stored
        expected = expected_answer(scenario, item.question_id, item.era, item.seed)
        fields[f"assign-{assign_recipients(expected)[0]}"] = "1"
    return fields
