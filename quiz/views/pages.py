"""The quiz app's pages: home and rule history."""

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_safe


@require_safe
def home(request: HttpRequest) -> HttpResponse:
    return render(request, "quiz/home.html")


@require_safe
def history_index(request: HttpRequest) -> HttpResponse:
    return render(request, "quiz/history_index.html")
