"""Page contexts for the quiz: what a template needs, computed from the models and the
engine's output. Nothing here decides a rule; before an answer is submitted nothing
here exposes the answer key, the expected value or the trace."""

from __future__ import annotations

import random
from datetime import datetime
from functools import lru_cache
from typing import Any

from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from engine.eras import find_era
from engine.notation import render_text as engine_render_text
from engine.runner import scenario_eras
from quiz import grading
from quiz.board import player_label, question_board
from quiz.explain import explain_trace
from quiz.grading import AnswerError
from quiz.models import QuizItem, QuizSession
from quiz.selectors import exam_navigator, review_forecast
from quiz.services import scenario_of
from quiz.wording import euphonic
from scenarios.models import TOPIC_LABELS
from scenarios.report_forms import ProblemReportForm
from scenarios.selectors import item_reports

REFUSAL_MESSAGES = {
    "empty": gettext_lazy("No published question matches these choices: widen the topics, "
                          "the era or the difficulty."),
    "login-required": gettext_lazy("Log in to review the questions you have met."),
    "finished": gettext_lazy("This quiz is finished: its answers can no longer change."),
    "expired": gettext_lazy("Time is up: the exam no longer takes answers."),
    "not-served": gettext_lazy("This question has not been shown to you yet."),
    "tampered": gettext_lazy("This answer doesn't match the question you were shown."),
    "exam-running": gettext_lazy("Your mock exam is still running: hand it in (or let its "
                                 "time run out) before practising, so that no answer it "
                                 "asks for is shown to you."),
}

ALREADY_ANSWERED = gettext_lazy("You had already answered this question: below is the "
                                "answer recorded the first time, which stays final.")

ANSWER_ERRORS = {
    "number": gettext_lazy("Enter a whole number."),
    "yesno": gettext_lazy("Choose yes or no."),
    "choice": gettext_lazy("Choose one of the options."),
    "eras": gettext_lazy("Tick only eras from the list."),
    "nothing-ticked": gettext_lazy("Nothing is ticked: tick what holds, or tick "
                                   "“none of them” if nothing does."),
    "none-and-some": gettext_lazy("“None of them” can't go with other ticks: "
                                  "untick one or the other."),
    "assign": gettext_lazy("Enter whole numbers of damage, 0 or more."),
    "assign-empty": gettext_lazy("Enter the damage for at least one recipient (0 if it "
                                 "assigns none); leave a field empty for none."),
}


def render_text(text: Any, language: str, variant: Any) -> str:
    """An author's text in ``language`` with its names put in (the engine's
    ``render_text``), and Italian's "ad" before a name that starts with "a"."""
    return euphonic(engine_render_text(text, language, variant), language)


def clear_caches() -> None:
    board_page.cache_clear()
    feedback_detail_html.cache_clear()
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


def shown_options(question: grading.Question, item: QuizItem) -> list[Any]:
    """The question's options in the order drawn for this quiz item: the same on every
    reload, a different order across items, so the right option has no usual place.
    Grading goes by option id, never by position."""
    order = list(question.options)
    random.Random(f"options:{item.session_id}:{item.position}").shuffle(order)
    return order


def answer_context(*, session: QuizSession, item: QuizItem, language: str,
                   answer_error: str = "", already_answered: bool = False,
                   just_recorded: bool = False) -> dict[str, Any]:
    """The answer area: the form before an answer, the feedback after (an exam shows
    feedback only once it is over). Nothing of the answer key before submission.
    ``just_recorded``: the attempt was made by this request, so no problem report can
    exist for it yet (one query fewer on the answer path)."""
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
        "already_answered": already_answered,
        "total": session.length, "done": done,
        "score": None if session.is_exam else right,
        "era_label": era_label(item.era),
    }
    if answered and not show_feedback:
        return context
    option_texts = {o.id: render_text(o.text, language, variant) for o in question.options}
    context["options"] = [(o.id, option_texts[o.id]) for o in shown_options(question, item)]
    if not answered:
        if question.kind == "eras":
            context["era_choices"] = [(e, era_label(e))
                                      for e in scenario_eras(scenario, variant)]
        if question.kind == "assign":
            names = object_names(variant, language)
            expected = grading.expected_answer(scenario, item.question_id, item.era, seed)
            context["assign_fields"] = [(r, names.get(r, r))
                                        for r in grading.assign_recipients(expected)]
            context["attacker_name"] = names.get(question.attacker or "", "")
        return context
    attempt = item.attempt
    context["attempt"] = attempt
    context.update(report_context(item, language=language, none_yet=just_recorded))
    context["explained"] = explained_html(scenario, item.question_id, item.era, variant.seed,
                                          language)
    if question.kind in DETAILED:
        context["detail_html"] = feedback_detail_html(
            scenario, variant.seed, item.question_id, item.era, language,
            _hashable(attempt.answer), tuple(oid for oid, _text in context["options"]))
    else:
        names = object_names(variant, language)
        expected = grading.expected_answer(scenario, item.question_id, item.era, seed)
        context["your_answer"] = answer_display(question, attempt.answer, option_texts, names)
        context["correct_answer"] = answer_display(question, expected.value, option_texts,
                                                   names)
    return context


DETAILED = ("choice", "multi", "eras", "assign")


def report_context(item: QuizItem, *, language: str, form: ProblemReportForm | None = None,
                   thanks: bool = False, none_yet: bool = False) -> dict[str, Any]:
    """The "report a problem" part of the feedback: the candidate's own reports on this
    item with the instructors' replies, and the form unless one report is still open."""
    reports = [] if none_yet else item_reports(quiz_item=item.pk)
    return {"problem_reports": reports, "report_open": any(r.is_open for r in reports),
            "report_form": form, "report_thanks": thanks,  # a posted form, or none
            "report_fields": "" if form is not None else blank_report_fields(language)}


@lru_cache(maxsize=8)
def blank_report_fields(language: str) -> str:
    """The empty report form's fields, as HTML: the same under every feedback in a
    language, and crispy takes about 5 ms to render them, so once per language and
    process. A posted form (with the candidate's text and errors) is rendered afresh."""
    from crispy_forms.templatetags.crispy_forms_filters import as_crispy_field
    from django.utils import translation

    with translation.override(language):
        form = ProblemReportForm()
        # crispy's own (escaping) templates made this HTML; no typed text is in it
        return as_crispy_field(form["kind"]) + as_crispy_field(form["text"])


def _hashable(answer: Any) -> Any:
    if isinstance(answer, dict):
        return tuple(sorted(answer.items()))
    if isinstance(answer, list):
        return tuple(answer)
    return answer


@lru_cache(maxsize=4096)
def feedback_detail_html(scenario: Any, seed: int, question_id: str, era_key: str,
                         language: str, answer: Any, order: tuple[str, ...]) -> str:
    """The part of the feedback that depends on the answer given: a ✓/✗ row per option
    (in the ``order`` shown) or per era, with where an eras answer flips; or, for a
    damage assignment, the engine's reason beside a legal split. Candidates give the same
    few answers, so it is rendered once per variant (``seed`` is the variant's own), era,
    language and answer. Called only once the attempt exists."""
    from django.template.loader import render_to_string

    variant = scenario.variant(seed)
    question = grading.question_of(variant, question_id)
    expected = grading.expected_answer(scenario, question_id, era_key, seed)
    context: dict[str, Any] = {"question": question}
    if question.kind == "assign":
        from quiz.assign_feedback import assign_feedback

        context["assign_feedback"] = assign_feedback(
            expected=expected, answer=dict(answer), era=era_key, language=language,
            names=object_names(variant, language))
    else:
        texts = {o.id: render_text(o.text, language, variant) for o in question.options}
        rows = ([(e, era_label(e)) for e in expected.eras] if question.kind == "eras"
                else [(oid, texts[oid]) for oid in order])
        context["marks"] = _marks(question, answer, expected, rows)
        if question.kind == "eras":
            context["era_flips"] = _era_flips(scenario.id, expected)
    return render_to_string("quiz/_feedback_detail.html", context)


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


@lru_cache(maxsize=2048)
def board_page(scenario: Any, seed: int, era_key: str, language: str,
               every_era: bool) -> tuple[str, str]:
    """The story (its card names as buttons) and the board partial (both pictures, the
    board in words, the card texts), as HTML: the same for every candidate shown this
    variant (``seed`` is the variant's own) in this era and language, so they are
    rendered once and kept (14 KB an entry on average over the library: at most about
    30 MB a worker)."""
    from django.template.loader import render_to_string

    board = question_board(scenario, seed, era_key, language, every_era)
    html = render_to_string("quiz/_board.html", {"board": board, "LANGUAGE_CODE": language})
    return board.story, html


def question_context(*, session: QuizSession, item: QuizItem, language: str,
                     answer_error: str = "") -> dict[str, Any]:
    scenario = scenario_of(item.version)
    seed = item.seed or 0
    variant = scenario.variant(seed)
    question = grading.question_of(variant, item.question_id)
    context = answer_context(session=session, item=item, language=language,
                             answer_error=answer_error)
    story, board = board_page(scenario, variant.seed, item.era, language,
                              question.kind == "eras")
    context.update({
        "title": render_text(scenario.title, language, variant),
        "story": story,
        "ask": render_text(question.ask, language, variant),
        "board_html": board,
        "topic_label": TOPIC_LABELS.get(scenario.topic, scenario.topic),
    })
    if session.is_exam and session.finished_at is None:
        context.update(exam_context(session))
    return context


def _marks(question: grading.Question, answer: Any, expected: grading.Expected,
           rows: list[tuple[str, str]]) -> list[dict[str, Any]]:
    """One row per option (in the order shown) or per era: whether the candidate ticked
    it, whether it is true according to the engine, and whether the two agree."""
    chosen = {answer} if question.kind == "choice" else set(answer)
    true = set(expected.value if question.kind == "eras" else expected.options_true)
    words = {True: _("yes"), False: _("no")}  # translated once, not once per cell
    verdicts = {True: ("✓", _("right")), False: ("✗", _("wrong"))}
    out = []
    for key, label in rows:
        ticked, holds = key in chosen, key in true
        mark, verdict = verdicts[ticked == holds]
        out.append({"label": label, "ticked": words[ticked], "true": words[holds],
                    "agrees": ticked == holds, "mark": mark, "verdict": verdict})
    return out


def _era_flips(slug: str, expected: grading.Expected) -> list[dict[str, str]]:
    """For an "in which eras" question: each pair of consecutive eras where the answer
    flips, with a link to the era comparison of those two."""
    holds = set(expected.value)
    eras = list(expected.eras)
    url = reverse("quiz:history_scenario", args=[slug])
    return [{"before": era_label(a), "after": era_label(b), "holds_after": b in holds,
             "url": f"{url}?a={a}&b={b}"}
            for a, b in zip(eras, eras[1:], strict=False) if (a in holds) != (b in holds)]


def exam_context(session: QuizSession, now: datetime | None = None) -> dict[str, Any]:
    """The exam's clock (from the server's deadline) and its question navigator."""
    now = now or timezone.now()
    assert session.deadline is not None
    remaining = max(0, int((session.deadline - now).total_seconds()))
    return {
        "deadline": session.deadline,
        "remaining_seconds": remaining,
        "remaining_text": f"{remaining // 60}:{remaining % 60:02d}",
        "warning": remaining <= 5 * 60,
        "navigator": exam_navigator(session),
    }


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
        # what "review these mistakes" practises: the wrong answers and, once the session
        # is over, the questions left unanswered (they count as wrong)
        "to_retry": sum(1 for r in rows if (r["attempt"] is None and session.finished_at)
                        or (r["attempt"] is not None and not r["attempt"].correct)),
    }


def progress_context(*, user: Any, language: str, now: datetime,
                     by_topic: list[dict[str, Any]]) -> dict[str, Any]:
    from quiz.charts import accuracy_chart, streak_days

    topics = [{**row, "label": TOPIC_LABELS.get(row["topic"], row["topic"]),
               "percent": round(100 * row["correct"] / row["total"]) if row["total"] else 0,
               "mastered": row["total"] >= 5 and row["correct"] / row["total"] >= 0.8}
              for row in by_topic]
    forecast = review_forecast(user=user, now=now)
    return {
        "topics": topics, "due": forecast["now"], "forecast": forecast,
        "chart": accuracy_chart(user=user, now=now),
        "streak": streak_days(user=user, now=now),
        "mastered": [t for t in topics if t["mastered"]],
    }
