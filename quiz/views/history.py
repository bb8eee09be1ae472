"""Rule history: the timeline, one scenario under every era, what-if runs, rule pages."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import get_language
from django.views.decorators.http import require_safe

from engine import CURRENT, ERAS, rule_catalogue
from quiz import history
from scenarios.http import HtmxHttpRequest
from scenarios.models import Scenario
from scenarios.presentation.labels import era_label


@require_safe
def timeline(request: HttpRequest) -> HttpResponse:
    return render(request, "quiz/history_index.html",
                  {"eras": history.timeline(get_language())})


def _published(slug: str) -> Scenario:
    scenario = get_object_or_404(Scenario.objects.published().select_related(
        "current_version"), slug=slug)
    return scenario


@require_safe
def scenario_eras(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    scenario = _published(slug)
    version = scenario.current_version
    assert version is not None
    eras = version.eras_in_order
    asked_a, asked_b = request.GET.get("a"), request.GET.get("b")
    era_a = asked_a if asked_a in eras else eras[0]
    default_b = eras[-1] if eras[-1] != era_a else eras[0]
    era_b = asked_b if asked_b in eras else default_b
    language = get_language()
    context = {
        "scenario": scenario, "title": scenario.title(language),
        "topic": history.topic_label(scenario.topic),
        "comparison": history.comparison(version, language),
        "pair": history.trace_pair(version, era_a, era_b, language),
        "era_choices": [(e, era_label(e)) for e in eras],
        "era_a": era_a, "era_b": era_b,
    }
    template = "quiz/history_scenario.html"
    if request.htmx:
        template += "#trace-pair"
    return render(request, template, context)


@require_safe
def what_if(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    scenario = _published(slug)
    version = scenario.current_version
    assert version is not None
    language = get_language()
    eras = version.eras_in_order
    asked = request.GET.get("era")
    era = asked if asked in eras else (CURRENT.key if CURRENT.key in eras else eras[-1])
    knobs = history.knobs(version, language)
    values = {k.name: request.GET.get(k.name, k.value) for k in knobs}
    if request.GET.get("changed"):
        for k in knobs:
            if k.kind == "bool":
                values[k.name] = k.name in request.GET
    context = {
        "scenario": scenario, "title": scenario.title(language),
        "knobs": [(k, values[k.name]) for k in knobs], "era": era,
        "era_choices": [(e, era_label(e)) for e in eras],
        "result": history.what_if(version, era, request.GET, language),
    }
    template = "quiz/history_whatif.html"
    if request.htmx:
        template += "#what-if-result"
    return render(request, template, context)


@require_safe
def rules(request: HttpRequest) -> HttpResponse:
    """The rule index, with a search by number or words (``?q=``): a number that meant one
    rule goes straight to its page; anything else lists what matched, or says nothing did."""
    language = get_language()
    query = request.GET.get("q", "")
    search = history.rules_find(query, language) if query.strip() else None
    if search is not None and search.redirect:
        return redirect("quiz:rule", search.redirect)
    return render(request, "quiz/history_rules.html", {
        "rules": history.rule_index(language), "search": search,
        "query": search.query if search else "", "max_query": history.MAX_QUERY,
    })


@require_safe
def rule_detail(request: HttpRequest, key: str) -> HttpResponse:
    if key not in rule_catalogue():
        raise Http404
    language = get_language()
    rows = history.rule_history(key, language)
    return render(request, "quiz/history_rule.html", {
        "key": key, "rows": rows, "any_unsure": any(r.get("unsure") for r in rows),
        "scenarios": history.scenarios_citing(key, language),
        "eras": [(e.key, e.name) for e in ERAS],
    })
