"""Instructor pages: authoring, translation, publishing and statistics."""

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_safe

from quiz.roles import instructor_required


@require_safe
@instructor_required
def author_home(request: HttpRequest) -> HttpResponse:
    return render(request, "scenarios/author_home.html")
