"""The practice start page's live count: how many questions the chosen filters match.

The page shows the count on first load (``quiz.views.quiz.practice_start`` renders the
same partial with ``count_context``, so no JavaScript is needed);
htmx asks ``count`` again each time the form changes and swaps the small partial into an
``aria-live`` region. The count is ``len(question_pool(...))``, counted from the question
ids each version stores (``quiz.selectors.question_count``, from the per-process copy of
the library: one cheap query once it is kept): no document is read, no engine runs.
"""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.text import Truncator
from django.views.decorators.http import require_safe

from quiz.forms import PracticeForm
from quiz.selectors import question_count

FILTERS = ("topics", "era_mode", "era", "difficulty_min", "difficulty_max")


def count_context(form: PracticeForm) -> dict[str, Any]:
    """``count`` for the form's filters, or ``errors`` (label: message) when a filter is
    invalid. An unbound form counts its initial values. The length is no filter: a bad
    length is left to the start button."""
    if not form.is_bound:
        form = PracticeForm({name: field.initial for name, field in form.fields.items()
                             if field.initial is not None})
    form.is_valid()
    errors = [f"{form.fields[name].label}: {Truncator(str(messages[0])).chars(120)}"
              for name, messages in form.errors.items() if name in FILTERS]
    if errors:
        return {"count": None, "errors": errors}
    data = form.cleaned_data
    return {"errors": [], "count": question_count(
        topics=list(data.get("topics") or []), era_mode=data["era_mode"],
        era=data.get("era") or "", difficulty_min=data["difficulty_min"],
        difficulty_max=data["difficulty_max"])}


@require_safe
def count(request: HttpRequest) -> HttpResponse:
    """The count partial for the filters in the query string (what htmx sends from the
    practice form). Always 200: invalid values get a message, not an error status, since
    htmx 2 does not swap 4xx answers."""
    return render(request, "quiz/_practice_count.html",
                  count_context(PracticeForm(request.GET)))
