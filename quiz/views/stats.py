"""The instructors' statistics of a scenario: per question, from the candidates' attempts.

An authoring page (under ``/author/``, for instructors only) served by the quiz, since
the attempts it reads are the quiz's: the scenarios app sits below and reads none. A
scenario with many attempts shows the snapshot ``manage.py refresh_question_stats`` stored.
"""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.utils.translation import get_language
from django.views.decorators.http import require_safe

from quiz.selectors import question_stats_shown
from scenarios.models import Scenario
from scenarios.presentation.board.words import keyword_word
from scenarios.roles import instructor_required


@require_safe
@instructor_required
def scenario_stats(request: HttpRequest, slug: str) -> HttpResponse:
    scenario = get_object_or_404(Scenario, slug=slug)
    questions, computed_at = question_stats_shown(scenario)
    for q in questions:  # a drawn card's keyword, in the page's language
        q.by_feature = [(name, keyword_word(keyword), n, f, n_out, f_out)
                        for name, keyword, n, f, n_out, f_out in q.by_feature]
    return render(request, "scenarios/stats.html", {
        "scenario": scenario, "title": scenario.title(get_language()),
        "questions": questions, "computed_at": computed_at})
