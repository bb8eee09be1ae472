"""Page contexts for the quiz: what a template needs, computed from the models and the
engine's output. Nothing here decides a rule; before an answer is submitted nothing
here exposes the answer key, the expected value or the trace."""

from __future__ import annotations

from datetime import datetime
from functools import lru_cache
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from engine.eras import find_era
from engine.notation import render_text
from engine.runner import play_declarations, scenario_eras
from quiz import grading
from quiz.board import player_label, render_board
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


def clear_caches() -> None:
    _board.cache_clear()
    explained_html.cache_clear()


def refusal_message(code: str) -> str:
    return str(REFUSAL_MESSAGES.get(code, _("This answer can't be accepted.")))


def answer_error(err: AnswerError) -> str:
    return str(ANSWER_ERRORS.get(str(err), _("This answer is not of the right form.")))


def era_label(key: str) -> str:
    era = find_era(key)
    return f"{era.name} ({era.effective:%Y-%m-%d})"


def answer_display(question: grading.Question, value: Any, texts: dict[str, str],
                   names: dict[str, str]) -> str:
    """An answer (the candidate's or the engine's) in words: option texts, era labels,
    localized names of damage recipients."""
    kind = question.kind
    if value is None:
        return "—"
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


@lru_cache(maxsize=2048)
def _board(scenario: Any, seed: int, era_key: str, language: str) -> Any:
    """The board drawn once per variant (``seed`` is the variant's own), era and language."""
    variant = scenario.variant(seed)
    return render_board(play_declarations(find_era(era_key), variant), era_key=era_key,
                        language=language)


def object_names(variant: Any, language: str) -> dict[str, str]:
    """Object and player ids of a variant -> their names in ``language``."""
    names = {oid: o.display_name(language) for oid, o in variant.state.objects.items()}
    names.update({o.id: o.display_name(language) for o in variant.new_objects.values()})
    state = variant.state
    names.update({p: player_label(state, p) for p in (*state.players, *state.teams)})
    return names


def _counts(session: QuizSession) -> tuple[int, int]:
    """Questions answered and answered right so far (one plain query: it runs on every
    answer)."""
    from django.db import connection

    items, attempts = QuizItem._meta.db_table, QuizItem._meta.get_field(
        "attempt").related_model._meta.db_table
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT COUNT(a.id), COALESCE(SUM(CASE WHEN a.correct THEN 1 ELSE 0 END), 0) "
            f"FROM {items} i JOIN {attempts} a ON a.item_id = i.id WHERE i.session_id = %s",
            [session.pk.hex if connection.vendor == "sqlite" else session.pk])
        done, right = cursor.fetchone()
    return int(done), int(right)


def answer_context(*, session: QuizSession, item: QuizItem, language: str,
                   answer_error: str = "") -> dict[str, Any]:
    """The answer area: the form before an answer, the feedback after (an exam shows
    feedback only once it is over). Nothing of the answer key before submission."""
    scenario = scenario_of(item.version)
    seed = item.seed or 0
    variant = scenario.variant(seed)
    question = grading.question_of(variant, item.question_id)
    answered = hasattr(item, "attempt")
    show_feedback = answered and (not session.is_exam or session.finished_at is not None)
    done, right = _counts(session)
    context: dict[str, Any] = {
        "session": session, "item": item, "question": question, "answered": answered,
        "show_feedback": show_feedback, "answer_error": answer_error,
        "total": session.length, "done": done,
        "score": None if session.is_exam else right,
        "era_label": era_label(item.era),
    }
    if answered and not show_feedback:
        return context
    option_texts = {o.id: render_text(o.text, language, variant) for o in question.options}
    context["options"] = [(o.id, option_texts[o.id]) for o in question.options]
    if question.kind == "eras":
        context["era_choices"] = [(e, era_label(e))
                                  for e in scenario_eras(scenario, variant)]
    if not answered:
        if question.kind == "assign":
            names = object_names(variant, language)
            expected = grading.expected_answer(scenario, item.question_id, item.era, seed)
            context["assign_fields"] = [(r, names.get(r, r))
                                        for r in grading.assign_recipients(expected)]
            context["attacker_name"] = names.get(question.attacker or "", "")
        return context
    names = object_names(variant, language)
    attempt = item.attempt
    expected = grading.expected_answer(scenario, item.question_id, item.era, seed)
    context.update({
        "attempt": attempt,
        "your_answer": answer_display(question, attempt.answer, option_texts, names),
        "correct_answer": _expected_display(question, expected, option_texts, names),
        "explained": explained_html(scenario, item.question_id, item.era, variant.seed,
                                    language),
    })
    return context


@lru_cache(maxsize=4096)
def explained_html(scenario: Any, question_id: str, era_key: str, seed: int,
                   language: str) -> str:
    """The author's explanation, the engine's steps and the links to the scenario's
    history, as HTML (escaped by the template). Every feedback on that question shows the
    same, so it is rendered once per variant (``seed`` is the variant's own), era and
    language."""
    from django.template.loader import render_to_string

    variant = scenario.variant(seed)
    expected = grading.expected_answer(scenario, question_id, era_key, seed)
    return render_to_string("quiz/_explained.html", {
        "explain": render_text(scenario.explain, language, variant) if scenario.explain
        else "",
        "steps": explain_trace(expected.outcome.trace.steps, expected.outcome.state, era_key,
                               language),
        "era_label": era_label(era_key),
        "slug": scenario.id,
    })


def question_context(*, session: QuizSession, item: QuizItem, language: str,
                     answer_error: str = "") -> dict[str, Any]:
    scenario = scenario_of(item.version)
    seed = item.seed or 0
    variant = scenario.variant(seed)
    question = grading.question_of(variant, item.question_id)
    context = answer_context(session=session, item=item, language=language,
                             answer_error=answer_error)
    context.update({
        "title": render_text(scenario.title, language, variant),
        "story": render_text(scenario.story, language, variant) if scenario.story else "",
        "ask": render_text(question.ask, language, variant),
        "board": _board(scenario, variant.seed, item.era, language),
        "topic_label": TOPIC_LABELS.get(scenario.topic, scenario.topic),
    })
    return context


def _expected_display(question: grading.Question, expected: grading.Expected,
                      texts: dict[str, str], names: dict[str, str]) -> str:
    if question.kind == "assign" and question.goal:
        return _("a legal assignment giving %(goal)s the most damage possible: "
                 "%(amount)s") % {"goal": names.get(question.goal, question.goal),
                                  "amount": expected.value}
    return answer_display(question, expected.value, texts, names)


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
