"""Page contexts for the quiz: what a template needs, computed from the models, what the
views read for them (``quiz.selectors``) and the engine's output as
``scenarios.presentation`` presents it. Nothing here decides a rule or queries the
database (a published version's document is read once per process, by
``quiz.services.scenario_of``); before an answer is submitted nothing here exposes the
answer key, the expected value or the trace."""

from __future__ import annotations

import random
from datetime import datetime
from typing import Any

from crispy_forms.utils import render_crispy_form
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.safestring import SafeString
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from engine import Question, Scenario, variant_eras
from quiz import grading
from quiz.forms import AnswerForm
from quiz.models import QuizItem, QuizSession
from quiz.selectors import ItemReads
from quiz.services import scenario_of
from scenarios.caches import memo
from scenarios.models import TOPIC_LABELS, ProblemReport
from scenarios.presentation.labels import era_label, object_names, render_text
from scenarios.presentation.present import present
from scenarios.report_forms import ProblemReportForm
from scenarios.untranslated import marked

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

def refusal_message(code: str) -> str:
    return str(REFUSAL_MESSAGES.get(code, _("This answer can't be accepted.")))


def answer_display(question: Question, value: Any, texts: dict[str, str],
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


def shown_options(question: Question, item: QuizItem) -> list[Any]:
    """The question's options in the order drawn for this quiz item: the same on every
    reload, a different order across items, so the right option has no usual place.
    Grading goes by option id, never by position."""
    order = list(question.options)
    random.Random(f"options:{item.session_id}:{item.position}").shuffle(order)
    return order


def answer_context(*, session: QuizSession, item: QuizItem, language: str, reads: ItemReads,
                   answer_data: Any = None, already_answered: bool = False) -> dict[str, Any]:
    """The answer area: the form before an answer, the feedback after (an exam shows
    feedback only once it is over). Nothing of the answer key before submission.
    ``answer_data``: a refused answer, shown again in the form with its errors.
    ``reads``: the session's counts and the item's reports (``quiz.selectors.item_reads``)."""
    scenario = scenario_of(item.version)
    seed = item.seed or 0
    variant = scenario.variant(seed)
    question = grading.question_of(variant, item.question_id)
    answered = hasattr(item, "attempt")
    show_feedback = answered and (not session.is_exam or session.finished_at is not None)
    done, right = reads.done, reads.right
    context: dict[str, Any] = {
        "session": session, "item": item, "question": question, "answered": answered,
        "show_feedback": show_feedback,
        "already_answered": already_answered,
        "total": session.length, "done": done,
        "score": None if session.is_exam else right,
        "era_label": era_label(item.era),
    }
    if answered and not show_feedback:
        return context
    option_texts = {o.id: render_text(o.text, language, variant) for o in question.options}
    # the options as the form and the feedback show them: escaped, marked when untranslated
    context["options"] = [(o.id, marked(option_texts[o.id]))
                          for o in shown_options(question, item)]
    if not answered:
        form = answer_form(
            scenario=scenario, variant=variant, question=question, item=item,
            language=language, options=context["options"], data=answer_data)
        context["answer_form"] = form
        context["answer_form_html"] = answer_form_html(form, language)
        return context
    attempt = item.attempt
    context["attempt"] = attempt
    context.update(report_context(item, language=language, reports=reads.reports))
    context["explained"] = explained_html(scenario, item.era, variant.seed, language)
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


def answer_form(*, scenario: Scenario, variant: Any, question: Question,
                item: QuizItem, language: str, options: list[tuple[str, str]],
                data: Any = None) -> AnswerForm:
    """The answer form as the question page shows it: the options in this item's order,
    the eras and the damage recipients by name (``data``: a refused answer)."""
    choices, recipients, attacker = options, [], ""
    if question.kind == "eras":
        choices = [(e, era_label(e)) for e in variant_eras(scenario, variant)]
    if question.kind == "assign":
        names = object_names(variant, language)
        expected = grading.expected_answer(scenario, item.question_id, item.era,
                                           item.seed or 0)
        recipients = [(r, names.get(r, r)) for r in grading.assign_recipients(expected)]
        attacker = names.get(question.attacker or "", "")
    return AnswerForm(data, kind=question.kind, choices=choices, recipients=recipients,
                      attacker=attacker, seed=item.seed)


def answer_form_html(form: AnswerForm, language: str) -> SafeString:
    """The answer form's fields drawn by crispy (the page draws the hidden seed beside
    them). A blank form's fields are a function of its signature (kind, choices,
    recipients, attacker) and the language only, and drawing them costs about as much as
    the rest of the question page: they are kept. A form with a refused answer is drawn
    afresh."""
    if form.is_bound:
        return SafeString(render_crispy_form(form))
    return _blank_answer_form_html(form, language)


@memo(maxsize=4096, maxbytes=2_000_000,  # ~1 KB per entry (scenarios.caches)
      key=lambda form, language: (form.signature, language))
def _blank_answer_form_html(form: AnswerForm, language: str) -> SafeString:
    return SafeString(render_crispy_form(form))


def report_context(item: QuizItem, *, language: str, reports: list[ProblemReport],
                   form: ProblemReportForm | None = None,
                   thanks: bool = False) -> dict[str, Any]:
    """The "report a problem" part of the feedback: the candidate's own reports on this
    item (``scenarios.selectors.item_reports``) with the instructors' replies, and the form
    unless one report is still open."""
    return {"problem_reports": reports, "report_open": any(r.is_open for r in reports),
            "report_form": form, "report_thanks": thanks,  # a posted form, or none
            "report_fields": "" if form is not None else blank_report_fields(language)}


@memo(maxsize=16)  # one entry per language of the site (six, room for more)
def blank_report_fields(language: str) -> str:
    """The empty report form's fields, as HTML: the same under every feedback in a
    language, and crispy takes about 5 ms to render them, so once per language and
    process. A posted form (with the candidate's text and errors) is rendered afresh."""
    from crispy_forms.templatetags.crispy_forms_filters import as_crispy_field

    with translation.override(language):
        form = ProblemReportForm()
        # crispy's own (escaping) templates made this HTML; no typed text is in it
        # (crispy ships no types: its SafeString is named here)
        html: str = as_crispy_field(form["kind"]) + as_crispy_field(form["text"])
        return html


def _hashable(answer: Any) -> Any:
    if isinstance(answer, dict):
        return tuple(sorted(answer.items()))
    if isinstance(answer, list):
        return tuple(answer)
    return answer


@memo(maxsize=8192, maxbytes=4_000_000, compress=True)  # ~0.6 KB per entry (scenarios.caches)
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
        texts: dict[str, str] = {o.id: marked(render_text(o.text, language, variant))
                                 for o in question.options}
        rows = ([(e, era_label(e)) for e in expected.eras] if question.kind == "eras"
                else [(oid, texts[oid]) for oid in order])
        context["marks"] = _marks(question, answer, expected, rows)
        if question.kind == "eras":
            context["era_flips"] = _era_flips(scenario.id, expected)
    return render_to_string("quiz/_feedback_detail.html", context)


@memo(maxsize=8192, maxbytes=8_000_000, compress=True)  # ~1.4 KB per entry (scenarios.caches)
def explained_html(scenario: Any, era_key: str, seed: int, language: str) -> str:
    """The author's explanation, the engine's steps and the links to the scenario's
    history, as HTML (escaped by the template). Every feedback on the scenario's questions
    shows the same, so it is rendered once per variant (``seed`` is the variant's own), era
    and language."""
    from django.template.loader import render_to_string

    shown = present(scenario, era_key, language, seed=seed)
    return render_to_string("quiz/_explained.html", {
        "explain": render_text(scenario.explain, language, shown.variant) if scenario.explain
        else "",
        "steps": shown.steps,
        "era_label": shown.era_label,
        "slug": scenario.id,
    })


@memo(maxsize=8192, maxbytes=16_000_000, compress=True)  # ~3.3 KB per entry (scenarios.caches)
def board_page(scenario: Any, seed: int, era_key: str, language: str,
               every_era: bool) -> tuple[str, str]:
    """The story (its card names as buttons) and the board partial (both pictures, the
    board in words, the card texts), as HTML: the same for every candidate shown this
    variant (``seed`` is the variant's own) in this era and language, so they are
    rendered once and kept, compressed (about 14 KB of HTML an entry, 3 KB compressed;
    bounded at 16 MB a worker: ``scenarios.caches``)."""
    from django.template.loader import render_to_string

    board = present(scenario, era_key, language, seed=seed, every_era=every_era).question_board
    html = render_to_string("quiz/_board.html", {"board": board, "LANGUAGE_CODE": language})
    return board.story, html


def question_context(*, session: QuizSession, item: QuizItem, language: str, reads: ItemReads,
                     answer_data: Any = None) -> dict[str, Any]:
    scenario = scenario_of(item.version)
    seed = item.seed or 0
    variant = scenario.variant(seed)
    question = grading.question_of(variant, item.question_id)
    context = answer_context(session=session, item=item, language=language, reads=reads,
                             answer_data=answer_data)
    story, board = board_page(scenario, variant.seed, item.era, language,
                              question.kind == "eras")
    context.update({
        "title": render_text(scenario.title, language, variant),
        "story": story,
        "ask": render_text(question.ask, language, variant),
        "board_html": board,
        "topic_label": TOPIC_LABELS.get(scenario.topic, scenario.topic),
    })
    if reads.navigator is not None:  # a mock exam still running
        context.update(exam_context(session, reads.navigator))
    return context


def _marks(question: Question, answer: Any, expected: grading.Expected,
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


def _era_flips(slug: str, expected: grading.Expected) -> list[dict[str, str | bool]]:
    """For an "in which eras" question: each pair of consecutive eras where the answer
    flips, with a link to the era comparison of those two."""
    holds = set(expected.value)
    eras = list(expected.eras)
    url = reverse("quiz:history_scenario", args=[slug])
    return [{"before": era_label(a), "after": era_label(b), "holds_after": b in holds,
             "url": f"{url}?a={a}&b={b}"}
            for a, b in zip(eras, eras[1:], strict=False) if (a in holds) != (b in holds)]


def exam_context(session: QuizSession, navigator: list[dict[str, Any]],
                 now: datetime | None = None) -> dict[str, Any]:
    """The exam's clock (from the server's deadline) and its question navigator
    (``quiz.selectors.exam_navigator``)."""
    now = now or timezone.now()
    assert session.deadline is not None
    remaining = max(0, int((session.deadline - now).total_seconds()))
    return {
        "deadline": session.deadline,
        "remaining_seconds": remaining,
        "remaining_text": f"{remaining // 60}:{remaining % 60:02d}",
        "warning": remaining <= 5 * 60,
        "navigator": navigator,
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


def progress_context(*, language: str, by_topic: list[dict[str, Any]],
                     forecast: dict[str, int], chart: dict[str, Any],
                     streak: int) -> dict[str, Any]:
    """The progress page from its reads: accuracy by topic, the review forecast
    (``quiz.selectors``), the accuracy chart and the streak (``quiz.charts``)."""
    topics = [{**row, "label": TOPIC_LABELS.get(row["topic"], row["topic"]),
               "percent": round(100 * row["correct"] / row["total"]) if row["total"] else 0,
               "mastered": row["total"] >= 5 and row["correct"] / row["total"] >= 0.8}
              for row in by_topic]
    return {
        "topics": topics, "due": forecast["now"], "forecast": forecast,
        "chart": chart, "streak": streak,
        "mastered": [t for t in topics if t["mastered"]],
    }
