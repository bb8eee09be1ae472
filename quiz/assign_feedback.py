"""Feedback on a damage assignment question, once it is answered: why the candidate's
split is wrong or illegal, in the reader's language and with the rule as numbered in the
question's era, beside a legal split that meets the question's goal.

The engine decides everything (``why_illegal_assignment``, ``legal_assignment``); here
its violation codes become sentences. Built only from an attempt that exists, so nothing
of it can reach a page before the answer is submitted.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext_lazy as _

from engine import (
    Violation,
    find_era,
    legal_assignment,
    rule_exists,
    rule_summary,
    why_illegal_assignment,
)
from quiz import grading
from scenarios.presentation.wording import euphonic

# One sentence per violation code (and, for a recipient the attacker can't reach, per
# situation): the engine's ``assignment_violation`` codes, ``_why_not_recipient``'s
# situations and ``perform_assign``'s refusals. Slots are names or whole numbers.
SENTENCES: dict[tuple[str, str], Any] = {
    ("assign.total", ""): _(
        "%(attacker)s must assign all its combat damage, %(power)s in all: this "
        "assignment gives %(total)s."),
    ("assign.order", ""): _(
        "%(attacker)s can't assign damage to %(recipient)s while %(blocker)s, earlier in "
        "the damage assignment order, is not assigned lethal damage (%(lethal)s)."),
    ("assign.trample-lethal", ""): _(
        "%(attacker)s can assign damage to %(recipient)s only once every creature blocking "
        "it is assigned lethal damage: %(blocker)s needs %(lethal)s."),
    ("assign.top-loyalty", ""): _(
        "%(attacker)s can assign damage to %(player)s only once %(planeswalker)s is "
        "assigned damage equal to its loyalty (%(need)s)."),
    ("assign.not-recipient", "blocked"): _(
        "%(attacker)s is blocked and has no trample: it assigns its combat damage only to "
        "the creatures blocking it, not to %(recipient)s."),
    ("assign.not-recipient", "trample"): _(
        "Trample lets %(attacker)s assign damage only to the creatures blocking it and to "
        "what it attacks, not to %(recipient)s."),
    ("assign.not-recipient", "trample-nowhere"): _(
        "What %(attacker)s attacked has left combat: even with trample it assigns its "
        "combat damage only to the creatures blocking it, not to %(recipient)s."),
    ("assign.not-recipient", "unblocked"): _(
        "%(attacker)s is unblocked: it assigns all its combat damage to what it attacks, "
        "not to %(recipient)s."),
    ("assign.not-recipient", ""): _(
        "%(attacker)s can't assign combat damage to %(recipient)s."),
    ("assign.attacking-nothing", ""): _(
        "%(attacker)s is attacking nothing (what it attacked has left combat) and is "
        "unblocked: it assigns no combat damage."),
    ("assign.blockers-gone", ""): _(
        "%(attacker)s is blocked and the creatures blocking it are gone: without trample "
        "it assigns no combat damage."),
    ("assign.nothing", ""): _("%(attacker)s assigns no combat damage."),
    ("assign.team-split", ""): _(
        "Combat damage to the defending team goes to just one of its players, chosen by "
        "the attacking team: %(attacker)s can't split it."),
    ("assign.amount", ""): _(
        "The damage assigned to %(recipient)s must be a whole number, 0 or more."),
    ("assign.no-combat", ""): _(
        "No creature is attacking: there is no combat damage to assign."),
    ("assign.not-attacking", ""): _(
        "%(attacker)s is not attacking: it assigns no combat damage."),
}
BROKEN = _("This assignment breaks this rule:")
SHORT_OF_GOAL = _("This assignment is legal, but %(goal)s could have been assigned "
                  "%(most)s: here it gets %(given)s.")
MEETS_GOAL = _("This assignment is legal and gives %(goal)s the most damage the rules "
               "allow.")
LEGAL = _("This assignment is legal.")


@dataclass(frozen=True, slots=True)
class AssignRow:
    """One recipient: what the candidate assigned and what the legal split assigns."""

    name: str
    yours: int
    legal: int


@dataclass(frozen=True, slots=True)
class AssignFeedback:
    is_legal: bool                 # the candidate's split breaks no rule
    reason: str                    # why it is wrong or illegal (or that it is right)
    rule: str | None               # the broken rule as numbered in the question's era
    key: str | None                # its catalogue key (the rule pill links to its page)
    summary: str                   # its summary in the reader's language
    yours: list[tuple[str, int]]   # the candidate's split: (recipient name, amount)
    legal: list[tuple[str, int]]   # a legal split that meets the goal
    rows: list[AssignRow]          # both, one row per recipient, for the table


def assign_feedback(*, expected: grading.Expected, answer: dict[str, int], era: str,
                    language: str, names: dict[str, str]) -> AssignFeedback:
    """The feedback on ``answer`` to the assign question of ``expected`` under ``era``,
    with recipient names from ``names``. Call it only once the attempt exists."""
    question = expected.question
    assert question.attacker is not None
    rules = find_era(era)
    state = expected.outcome.state
    answer = {r: int(n) for r, n in answer.items() if int(n)}
    why = why_illegal_assignment(rules, state, question.attacker, answer)
    shown = legal_assignment(rules, state, question.attacker, question.goal)
    order = list(dict.fromkeys([*grading.assign_recipients(expected), *shown, *answer]))
    rows = [AssignRow(names.get(r, r), answer.get(r, 0), shown.get(r, 0)) for r in order]
    rule = key = None
    summary = ""
    if why is not None:
        reason = violation_sentence(why, names)
        rule, key = why.rule or None, why.rule_key
        if rule_exists(why.rule_key, era):
            summary = rule_summary(why.rule_key, era, language)
    else:
        reason = _verdict(question.goal, answer, expected.value, names)
    return AssignFeedback(
        is_legal=why is None, reason=euphonic(reason, language), rule=rule, key=key,
        summary=summary,
        yours=[(row.name, row.yours) for row in rows if row.yours],
        legal=[(row.name, row.legal) for row in rows if row.legal], rows=rows)


def violation_sentence(why: Violation, names: dict[str, str]) -> str:
    """The engine's violation as a sentence in the active language: ids in its data
    become names; a code with no sentence says that the rule shown is broken."""
    template = (SENTENCES.get((why.code, str(why.data.get("why", ""))))
                or SENTENCES.get((why.code, "")))
    if template is None:
        return str(BROKEN)
    slots = {k: v if isinstance(v, int) else names.get(str(v), str(v))
             for k, v in why.data.items()}
    try:
        return str(template % slots)
    except (KeyError, TypeError, ValueError):
        return str(BROKEN)


def _verdict(goal: str | None, answer: dict[str, int], most: Any,
             names: dict[str, str]) -> str:
    if goal is None:
        return str(LEGAL)
    slots = {"goal": names.get(goal, goal), "most": most, "given": answer.get(goal, 0)}
    if answer.get(goal, 0) == most:
        return str(MEETS_GOAL % slots)
    return str(SHORT_OF_GOAL % slots)
