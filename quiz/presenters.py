"""Page contexts for the quiz: what a template needs, computed from the models and the
engine's output. Nothing here decides a rule; before an answer is submitted nothing
here exposes the answer key, the expected value or the trace."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from engine.eras import ERAS, find_era
from engine.notation import render_text
from engine.runner import play_declarations
from quiz import grading
from quiz.board import render_board
from quiz.explain import explain_trace
from quiz.grading import AnswerError
from quiz.models import QuizItem, QuizSession
from quiz.selectors import due_cards
from quiz.services import scenario_of
from scenarios.models import TOPIC_LABELS

REFUSAL_MESSAGES = {
    "empty": gettext_lazy("No published question matches these choices: widen the topics, "
                          "the era or the difficulty."),
    "login-required": gettext_lazy("Log in to review the questions you have met."),
    "finished": gettext_lazy("This quiz is finished: its answers can no longer change."),
    "expired": gettext_lazy("Time is up: the exam no longer takes answers."),
    "not-served": gettext_lazy("This question has not been shown to you yet."),
    "tampered": gettext_lazy("This answer doesn't match the question you were shown."),
}

ANSWER_ERRORS = {
    "number": gettext_lazy("Enter a whole number."),
    "yesno": gettext_lazy("Choose yes or no."),
    "choice": gettext_lazy("Choose one of the options."),
    "eras": gettext_lazy("Tick only eras from the list."),
    "assign": gettext_lazy("Enter whole numbers of damage, 0 or more."),
}


def refusal_message(code: str) -> str:
    return str(REFUSAL_MESSAGES.get(code, _("This answer can't be accepted.")))


def answer_error(err: AnswerError) -> str:
    return str(ANSWER_ERRORS.get(str(err), _("This answer is not of the right form.")))


def era_label(key: str) -> str:
    era = find_era(key)
    return f"{era.name} ({era.effective:%Y-%m-%d})"


def _display(question: grading.Question, value: Any, texts: dict[str, str],
             names: dict[str, str]) -> str:
    kind = question.kind
    if kind == "yesno":
        return _("Yes") if value else _("No")
    if kind == "choice":
        return texts.get(value, str(value))
    if kind == "multi":
        return ", ".join(texts.get(v, str(v)) for v in value) or _("none")
    if kind == "eras":
        return ", ".join(era_label(v) for v in value) or _("none")
    if kind == "assign" and isinstance(value, dict):
        return ", ".join(f"{n} → {names.get(r, r)}" for r, n in value.items()) or "0"
    return str(value)


def question_context(*, session: QuizSession, item: QuizItem, language: str,
                     answer_error: str = "", posted: Any = None) -> dict[str, Any]:
    assert item.seed is not None or hasattr(item, "attempt")
    scenario = scenario_of(item.version)
    seed = item.seed or 0
    variant = scenario.variant(seed)
    question = grading.question_of(variant, item.question_id)
    era = find_era(item.era)
    board = render_board(play_declarations(era, variant), era_key=era.key, language=language)
    names = {oid: o.display_name(language) for oid, o in variant.state.objects.items()}
    names.update({o.id: o.display_name(language) for o in variant.new_objects.values()})
    names.update({p: p.capitalize() for p in variant.state.players})
    option_texts = {o.id: render_text(o.text, language, variant) for o in question.options}
    answered = hasattr(item, "attempt")
    show_feedback = answered and (not session.is_exam or session.finished_at is not None)
    context: dict[str, Any] = {
        "session": session, "item": item, "question": question,
        "title": render_text(scenario.title, language, variant),
        "story": render_text(scenario.story, language, variant) if scenario.story else "",
        "ask": render_text(question.ask, language, variant),
        "board": board, "era_label": era_label(era.key), "era": era,
        "options": [(o.id, option_texts[o.id]) for o in question.options],
        "answered": answered, "show_feedback": show_feedback,
        "answer_error": answer_error, "posted": posted,
        "total": session.length,
        "done": session.items.filter(attempt__isnull=False).count(),
        "topic_label": TOPIC_LABELS.get(scenario.topic, scenario.topic),
    }
    if question.kind == "eras":
        eras = scenario_eras_cached(scenario, seed)
        context["era_choices"] = [(e, era_label(e)) for e in eras]
    if question.kind == "assign" and not answered:
        expected = grading.expected_answer(scenario, item.question_id, item.era, seed)
        context["assign_fields"] = [(r, names.get(r, r))
                                    for r in grading.assign_recipients(expected)]
        context["attacker_name"] = names.get(question.attacker or "", "")
    if not session.is_exam:
        context["score"] = session.items.filter(attempt__correct=True).count()
    if show_feedback:
        attempt = item.attempt
        expected = grading.expected_answer(scenario, item.question_id, item.era, seed)
        context.update({
            "attempt": attempt,
            "your_answer": _display(question, attempt.answer, option_texts, names),
            "correct_answer": _expected_display(question, expected, option_texts, names),
            "steps": explain_trace(expected.outcome.trace.steps, expected.outcome.state,
                                   era.key, language),
            "explain": render_text(scenario.explain, language, variant)
            if scenario.explain else "",
            "all_eras": [(e.key, era_label(e.key)) for e in ERAS
                         if e.key in expected.eras],
        })
    return context


def scenario_eras_cached(scenario: Any, seed: int) -> tuple[str, ...]:
    from engine.runner import scenario_eras

    return scenario_eras(scenario, scenario.variant(seed))


def _expected_display(question: grading.Question, expected: grading.Expected,
                      texts: dict[str, str], names: dict[str, str]) -> str:
    if question.kind == "assign":
        goal = names.get(question.goal or "", question.goal or "")
        if question.goal:
            return _("a legal assignment giving %(goal)s the most damage possible: "
                     "%(amount)s") % {"goal": goal, "amount": expected.value}
        return _display(question, expected.value, texts, names)
    return _display(question, expected.value, texts, names)


def results_context(*, session: QuizSession, summary: dict[str, Any],
                    language: str) -> dict[str, Any]:
    rows = []
    for item in summary["items"]:
        scenario = scenario_of(item.version)
        variant = scenario.variant(item.seed or 0)
        attempt = getattr(item, "attempt", None)
        rows.append({
            "item": item, "attempt": attempt,
            "title": render_text(scenario.title, language, variant),
            "topic": TOPIC_LABELS.get(scenario.topic, scenario.topic),
            "era": era_label(item.era),
        })
    pct = round(100 * summary["correct"] / summary["total"]) if summary["total"] else 0
    return {
        "session": session, "rows": rows, "summary": summary, "percent": pct,
        "by_topic": [(TOPIC_LABELS.get(t, t), c, n) for t, (c, n) in
                     sorted(summary["by_topic"].items())],
        "by_era": [(era_label(e), c, n) for e, (c, n) in
                   sorted(summary["by_era"].items(), key=lambda kv: kv[0])],
        "wrong": [r for r in rows if r["attempt"] is not None and not r["attempt"].correct],
    }


def progress_context(*, user: Any, language: str, now: datetime,
                     by_topic: list[dict[str, Any]]) -> dict[str, Any]:
    from quiz.charts import accuracy_chart, streak_days

    topics = [{**row, "label": TOPIC_LABELS.get(row["topic"], row["topic"]),
               "percent": round(100 * row["correct"] / row["total"]) if row["total"] else 0,
               "mastered": row["total"] >= 5 and row["correct"] / row["total"] >= 0.8}
              for row in by_topic]
    return {
        "topics": topics, "due": due_cards(user=user, now=now).count(),
        "chart": accuracy_chart(user=user, now=now),
        "streak": streak_days(user=user, now=now),
        "mastered": [t for t in topics if t["mastered"]],
    }
