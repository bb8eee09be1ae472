"""Instructor pages: the scenario list, the editor with its live preview, translations
side by side, versions and publishing, import and export, re-check. (A scenario's
statistics read the quiz's attempts: the quiz serves that page, ``quiz.views.stats``.)

Every view is for instructors only. Documents go through the one validation service;
whatever an instructor typed comes back to them with the errors next to it.
"""

from __future__ import annotations

import io
import zipfile
from typing import Any

from django.contrib import messages
from django.core.paginator import Paginator
from django.http import HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.utils.text import capfirst
from django.utils.translation import get_language, get_language_info
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from engine import (
    MAX_DOCUMENT_BYTES,
    DocumentError,
    check_document,
    languages,
    parse,
    scenario_eras,
)
from engine import Scenario as ParsedScenario
from scenarios import editing
from scenarios.http import AuthenticatedHttpRequest
from scenarios.library import dump_document
from scenarios.models import TOPIC_CHOICES, Scenario, ScenarioVersion
from scenarios.presentation.present import present
from scenarios.presentation.variants import gallery as gallery_of
from scenarios.presentation.variants import survey_view
from scenarios.roles import instructor_required
from scenarios.selectors import PER_PAGE, scenario_list, scenario_rows
from scenarios.services import (
    NotPublishable,
    ScenarioInvalid,
    StoredCheck,
    scenario_import,
    scenario_publish,
    scenario_retire,
    scenarios_recheck,
    version_check,
)

MAX_UPLOAD_FILES = 100


@require_safe
@instructor_required
def author_home(request: AuthenticatedHttpRequest) -> HttpResponse:
    topic = request.GET.get("topic", "")
    status = request.GET.get("status", "")
    query = request.GET.get("q", "").strip()[:80]
    page = Paginator(scenario_list(topic=topic, status=status, query=query),
                     PER_PAGE).get_page(request.GET.get("page"))
    return render(request, "scenarios/author_home.html", {
        "rows": scenario_rows(list(page), language=get_language()), "page": page,
        "topics": TOPIC_CHOICES, "statuses": Scenario.Status.choices,
        "topic": topic, "status": status, "query": query})


def _preview_context(source: str, era: str | None, language: str) -> dict[str, Any]:
    """Validation, answers in every era, board and trace for the editor's preview."""
    try:
        reading = editing.read_source(source)  # one reading: the document and its lines
        document, lines = editing.as_document(reading.document), reading.lines
    except editing.SourceError as err:
        return {"errors": [{"path": "", "message": str(err), "line": err.line}],
                "warnings": [], "ok": False}
    return _document_preview(document, era, language, lines)


def _document_preview(document: dict[str, Any], era: str | None, language: str,
                      lines: dict[str, int] | None = None) -> dict[str, Any]:
    """The preview of a document checked now. ``lines``: those of the text it was read
    from; without them (the form editor shows no YAML) the errors have no line."""
    result = check_document(document)
    check = StoredCheck([e.as_dict() for e in result.errors],
                        [w.as_dict() for w in result.warnings], list(result.eras),
                        result.answers, result.disagreements, result.variants)
    return _checked_preview(check, result.scenario, era, language, lines)


def _version_preview(version: ScenarioVersion, era: str | None, language: str,
                     source: str | None = None) -> dict[str, Any]:
    """The preview of a stored version from what its check stored (no check runs);
    ``source``: the YAML text shown beside it, for the errors' lines."""
    check = version_check(version=version)
    scenario = parse(version.document) if not check.errors and check.eras else None
    lines = None
    if source is not None and (check.errors or check.warnings):  # lines for their markers
        lines = editing.path_lines(source)
    return _checked_preview(check, scenario, era, language, lines)


def _checked_preview(check: StoredCheck, scenario: ParsedScenario | None, era: str | None,
                     language: str, lines: dict[str, int] | None) -> dict[str, Any]:
    """The preview from a check: its errors and warnings (with their lines, given the
    text's), and for a document without errors the board, steps and every era's answers
    of variant 0 under ``era`` (else the latest era)."""

    def line(path: str) -> int | None:
        return editing.line_of(lines, path) if lines is not None else None

    errors = [{**e, "line": line(e["path"])} for e in check.errors]
    warnings = [{**w, "line": line(w["path"])} for w in check.warnings]
    context: dict[str, Any] = {"errors": errors, "warnings": warnings, "ok": check.ok,
                               "eras": check.eras}
    if check.errors or not check.eras:
        return context
    era = era if era in check.eras else check.eras[-1]
    assert scenario is not None  # checked without errors: parsed
    shown = present(scenario, era, language, keep=False)  # a document being edited
    disagreements = {(d["era"], d["question"]) for d in check.disagreements}
    context.update({
        "era": era,
        "era_label": shown.era_label,
        "board": shown.board,
        "steps": shown.steps,
        "answers": [{"id": q.id, "kind": q.kind,
                     "cells": [{"era": e, "bad": (e, q.id) in disagreements,
                                "value": editing.flow_yaml(check.answers[e].get(q.id))}
                               for e in check.eras]}
                    for q in shown.variant.questions],
        "disagreements": check.disagreements,
        "survey": survey_view(check.variants, era),
    })
    return context


@require_POST
@instructor_required
def preview(request: AuthenticatedHttpRequest) -> HttpResponse:
    source = request.POST.get("source", "")
    context = _preview_context(source, request.POST.get("era"), get_language())
    return render(request, "scenarios/editor.html#preview", context)


@require_POST
@instructor_required
def gallery(request: AuthenticatedHttpRequest) -> HttpResponse:
    """Variants of the document being edited, drawn at random (htmx): the YAML editor
    posts its text, the form editor its fields (with the scenario's slug, if any)."""
    document: dict[str, Any] | None
    if "source" in request.POST:
        try:
            document = editing.as_document(editing.read_source(request.POST["source"]).document)
        except editing.SourceError as err:
            return render(request, "scenarios/editor.html#gallery", {"problem": str(err)})
    else:
        slug = request.POST.get("slug") or None
        if slug is not None and not Scenario.objects.filter(slug=slug).exists():
            slug = None
        base = _form_base(slug)[2]
        document = _composed(_form_sets(request.POST, base, new=slug is None),
                             _action_rows(request.POST, base), base)
    problem, drawn = "", []
    try:
        scenario = parse(document) if document is not None else None
    except DocumentError:
        scenario = None
    if scenario is None or not scenario.params:
        problem = _("Fix the errors in the preview first; the gallery shows a generator's "
                    "variants (a scenario with parameters).")
    else:
        eras = scenario_eras(scenario)
        era = request.POST.get("era") or ""
        drawn = gallery_of(scenario, era if era in eras else eras[-1], get_language())
    return render(request, "scenarios/editor.html#gallery", {"problem": problem,
                                                             "drawn": drawn})


def _editor(request: AuthenticatedHttpRequest, scenario: Scenario | None) -> HttpResponse:
    latest = scenario.latest_version() if scenario else None
    source = dump_document(latest.document) if latest else editing.NEW_DOCUMENT
    if request.method == "POST":
        source = request.POST.get("source", "")
        action = request.POST.get("action", "save")
        try:
            document = editing.parse_source(source)
            if scenario is not None and document.get("id") != scenario.slug:
                raise editing.SourceError(
                    _("The id can't change: it is this scenario's identity (%(slug)s).")
                    % {"slug": scenario.slug})
            if scenario is None and Scenario.objects.filter(
                    slug=str(document.get("id"))).exists():
                raise editing.SourceError(
                    _("A scenario with the id %(slug)s exists already: open it to edit it, "
                      "or choose another id.") % {"slug": document.get("id")})
            result = scenario_import(document=document, author=request.user,
                                     publish=action == "publish")
        except editing.SourceError as err:
            messages.error(request, str(err))
        except ScenarioInvalid:
            messages.error(request, _("The document has errors: nothing was saved. "
                                      "See the preview."))
        except NotPublishable as err:
            draft = scenario_import(document=document, author=request.user, publish=False)
            messages.warning(request, _("Saved as draft version %(n)s, but not published: "
                                        "%(why)s") % {"n": draft.version.number,
                                                      "why": err})
            return HttpResponseRedirect(
                reverse("scenarios:edit", args=[draft.scenario.slug]), status=303)
        else:
            if result.outcome == "unchanged" and action != "publish":
                messages.info(request, _("No change since version %(n)s.")
                              % {"n": result.version.number})
            elif action == "publish":
                messages.success(request, _("Version %(n)s is published.")
                                 % {"n": result.version.number})
            else:
                messages.success(request, _("Saved as draft version %(n)s.")
                                 % {"n": result.version.number})
            return HttpResponseRedirect(
                reverse("scenarios:edit", args=[result.scenario.slug]), status=303)
    era, language = request.GET.get("era"), get_language()
    if request.method == "POST" or latest is None:  # a text typed (or the new document)
        preview = _preview_context(source, era, language)
    else:  # the latest version, from what its check stored
        preview = _version_preview(latest, era, language, source)
    context = {"scenario": scenario, "latest": latest, "source": source,
               "glossary": _glossary(language), **preview}
    return render(request, "scenarios/editor.html", context)


def _glossary(language: str) -> list[tuple[str, str]]:
    if language == "en":
        return []
    from django.conf import settings

    from engine import read_bytes

    path = settings.BASE_DIR / "scenarios" / "glossary" / f"{language}.yaml"
    if language not in dict(settings.LANGUAGES) or not path.is_file():
        return []  # a language without a glossary yet
    data = read_bytes(path.read_bytes()).document or {}
    # an entry is the term, or {term, wrong, note} (the wrong variants are for the tests)
    return sorted((en, entry["term"] if isinstance(entry, dict) else entry)
                  for en, entry in data.items())


@require_http_methods(["GET", "POST"])
@instructor_required
def scenario_new(request: AuthenticatedHttpRequest) -> HttpResponse:
    return _editor(request, None)


@require_http_methods(["GET", "POST"])
@instructor_required
def scenario_edit(request: AuthenticatedHttpRequest, slug: str) -> HttpResponse:
    return _editor(request, get_object_or_404(Scenario, slug=slug))


@require_http_methods(["GET", "POST"])
@instructor_required
def translate(request: AuthenticatedHttpRequest, slug: str) -> HttpResponse:
    """Every text of the latest version in English beside one other language of the site
    (``?to=``; by default the first with a text missing, else the page's language), with
    that language's glossary; saving makes a draft version."""
    scenario = get_object_or_404(Scenario, slug=slug)
    latest = scenario.latest_version()
    assert latest is not None
    document = latest.document
    targets = [code for code in languages() if code != "en"]
    posted = request.POST if request.method == "POST" else request.GET
    if request.method == "POST":
        document = editing.apply_texts(latest.document, request.POST)
        try:
            result = scenario_import(document=document, author=request.user, publish=False)
        except ScenarioInvalid as err:
            messages.error(request, "; ".join(e["message"] for e in err.report.errors))
        else:
            messages.success(request, _("Saved as draft version %(n)s.")
                             % {"n": result.version.number})
            to = str(posted.get("to", ""))
            query = f"?to={to}" if to in targets else ""
            return HttpResponseRedirect(
                reverse("scenarios:translate", args=[slug]) + query, status=303)
    rows = editing.text_rows(document)
    missing = {code: sum(1 for r in rows if not r.values[code]) for code in targets}
    to = str(posted.get("to", ""))
    if to not in targets:
        page = get_language()
        to = next((code for code in targets if missing[code]),
                  page if page in targets else targets[0] if targets else "en")
    return render(request, "scenarios/translate.html", {
        "scenario": scenario, "latest": latest, "to": to,
        "to_name": capfirst(get_language_info(to)["name_local"]),
        "rows": [(row, row.values["en"], row.values.get(to, "")) for row in rows],
        "missing": missing.get(to, 0),
        "languages": [(code, capfirst(get_language_info(code)["name_local"]), missing[code])
                      for code in targets],
        "glossary": _glossary(to)})


@require_POST
@instructor_required
def publish(request: AuthenticatedHttpRequest, slug: str) -> HttpResponse:
    scenario = get_object_or_404(Scenario, slug=slug)
    version = scenario.latest_version()
    assert version is not None
    try:
        scenario_publish(scenario=scenario, version=version)
    except NotPublishable as err:
        messages.error(request, _("Not published: %(why)s") % {"why": err})
    else:
        messages.success(request, _("Version %(n)s is published.") % {"n": version.number})
    return HttpResponseRedirect(reverse("scenarios:edit", args=[slug]), status=303)


@require_POST
@instructor_required
def retire(request: AuthenticatedHttpRequest, slug: str) -> HttpResponse:
    scenario = get_object_or_404(Scenario, slug=slug)
    scenario_retire(scenario=scenario)
    messages.success(request, _("The scenario is retired: new quizzes won't use it; its "
                                "attempts are kept."))
    return HttpResponseRedirect(reverse("scenarios:edit", args=[slug]), status=303)


@require_safe
@instructor_required
def versions(request: AuthenticatedHttpRequest, slug: str) -> HttpResponse:
    scenario = get_object_or_404(Scenario, slug=slug)
    all_versions = list(scenario.versions.order_by("-number").select_related("created_by"))
    numbers = [v.number for v in all_versions]
    diff: list[str] = []
    a = b = None
    try:
        a = int(request.GET.get("a", ""))
        b = int(request.GET.get("b", ""))
    except ValueError:
        pass
    if a in numbers and b in numbers:
        va = next(v for v in all_versions if v.number == a)
        vb = next(v for v in all_versions if v.number == b)
        diff = editing.version_diff(va.document, vb.document, f"v{a}", f"v{b}")
    return render(request, "scenarios/versions.html", {
        "scenario": scenario, "versions": all_versions, "diff": diff, "a": a, "b": b})


@require_safe
@instructor_required
def export_one(request: AuthenticatedHttpRequest, slug: str) -> HttpResponse:
    scenario = get_object_or_404(Scenario, slug=slug)
    version = scenario.current_version or scenario.latest_version()
    assert version is not None
    response = HttpResponse(dump_document(version.document),
                            content_type="application/x-yaml; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{scenario.slug}.yaml"'
    return response


@require_safe
@instructor_required
def export_all(request: AuthenticatedHttpRequest) -> HttpResponse:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for scenario in Scenario.objects.select_related("current_version"):
            version = scenario.current_version or scenario.latest_version()
            if version is not None:
                archive.writestr(f"{scenario.topic}/{scenario.slug}.yaml",
                                 dump_document(version.document))
    response = HttpResponse(buffer.getvalue(), content_type="application/zip")
    response["Content-Disposition"] = 'attachment; filename="scenario-library.zip"'
    return response


@require_http_methods(["GET", "POST"])
@instructor_required
def import_files(request: AuthenticatedHttpRequest) -> HttpResponse:
    results: list[dict[str, Any]] = []
    if request.method == "POST":
        files = request.FILES.getlist("files")[:MAX_UPLOAD_FILES]
        if not files:
            messages.error(request, _("Choose one or more YAML files."))
        for upload in files:
            row: dict[str, Any] = {"name": upload.name, "errors": []}
            results.append(row)
            if upload.size is None or upload.size > MAX_DOCUMENT_BYTES:
                row["errors"] = [_("larger than %(kb)s KB") % {"kb": MAX_DOCUMENT_BYTES // 1024}]
                continue
            try:
                text = upload.read(MAX_DOCUMENT_BYTES + 1).decode("utf-8-sig")
                document = editing.parse_source(
                    text, syntax="json" if (upload.name or "").lower().endswith(".json")
                    else "yaml")
                result = scenario_import(document=document, author=request.user,
                                         publish=False)
            except UnicodeDecodeError:
                row["errors"] = [_("not UTF-8 text")]
            except editing.SourceError as err:
                row["errors"] = [_("line %(n)s: %(error)s") % {"n": err.line, "error": err}
                                 if err.line else str(err)]
            except ScenarioInvalid as err:
                row["errors"] = [f"{e['path']}: {e['message']}" for e in err.report.errors]
            else:
                row["outcome"] = result.outcome
                row["scenario"] = result.scenario
                row["version"] = result.version.number
    return render(request, "scenarios/import.html", {
        "results": results, "max_kb": MAX_DOCUMENT_BYTES // 1024})


@require_http_methods(["GET", "POST"])
@instructor_required
def recheck(request: AuthenticatedHttpRequest) -> HttpResponse:
    changes = scenarios_recheck() if request.method == "POST" else None
    return render(request, "scenarios/recheck.html", {"changes": changes})


def _form_base(slug: str | None) -> tuple[Scenario | None, Any, dict[str, Any]]:
    """The scenario, its latest version and the document its forms start from; a new
    scenario (no slug) starts from the same document as in the YAML editor."""
    if slug is None:
        return None, None, editing.parse_source(editing.NEW_DOCUMENT)
    scenario = get_object_or_404(Scenario, slug=slug)
    latest = scenario.latest_version()
    assert latest is not None
    return scenario, latest, latest.document


def _form_sets(data: Any, document: dict[str, Any], *, new: bool = False) -> dict[str, Any]:
    from scenarios import forms as f

    initial = f.initial_from(document)
    return {
        "meta": f.MetadataForm(data, initial=initial["meta"], prefix="meta", new=new),
        "players": f.PlayerFormSet(data, initial=initial["players"], prefix="players"),
        "teams": f.TeamFormSet(data, initial=initial["teams"], prefix="teams"),
        "planechase": f.PlanechaseForm(data, initial=initial["planechase"], prefix="planechase"),
        "objects": f.ObjectFormSet(data, initial=initial["objects"], prefix="objects"),
        "questions": f.QuestionFormSet(data, initial=initial["questions"], prefix="questions"),
        "params": f.ParamFormSet(data, initial=initial["params"], prefix="params"),
    }


def _rows(formset: Any) -> list[dict[str, Any]]:
    rows = []
    for i, form in enumerate(formset.forms):
        data = form.cleaned_data
        if not data or data.get("DELETE"):
            continue
        rows.append({**data, "_i": i})
    return rows


def _action_rows(data: Any, document: dict[str, Any]) -> list[Any]:
    from scenarios import action_forms as af

    if data is not None:
        return af.rows_from_post(data)
    rows = af.rows_from_document(document.get("actions") or [])
    return rows + af.blank_rows(len(rows))


def _composed(sets: dict[str, Any], rows: list[Any],
              document: dict[str, Any]) -> dict[str, Any] | None:
    from scenarios import action_forms as af
    from scenarios import forms as f

    actions = af.composed_actions(rows)
    if actions is None or not all(s.is_valid() for s in sets.values()):
        return None
    return f.compose(document, sets["meta"].cleaned_data, _rows(sets["players"]),
                     _rows(sets["objects"]), actions, _rows(sets["questions"]),
                     _rows(sets["params"]), teams=_rows(sets["teams"]),
                     planechase=sets["planechase"].cleaned_data)


@require_http_methods(["GET", "POST"])
@instructor_required
def form_edit(request: AuthenticatedHttpRequest, slug: str | None = None) -> HttpResponse:
    """The form editor of a scenario, or of a new one (no slug)."""
    from scenarios import forms as f

    scenario, latest, base = _form_base(slug)
    beyond = editing.beyond_the_forms(base)
    if beyond:  # nothing the forms would lose: the YAML editor edits it
        return render(request, "scenarios/form_editor.html", {
            "scenario": scenario, "latest": latest, "beyond": beyond},
            status=409 if request.method == "POST" else 200)
    sets = _form_sets(request.POST or None, base, new=scenario is None)
    rows = _action_rows(request.POST or None, base)
    preview: dict[str, Any] = {}
    if request.method == "POST":
        document = _composed(sets, rows, base)
        if document is None:
            messages.error(request, _("Some fields need fixing: see the messages next to "
                                      "them."))
        else:
            try:
                result = scenario_import(document=document, author=request.user,
                                         publish=False)
            except ScenarioInvalid:
                messages.error(request, _("The document has errors: nothing was saved. "
                                          "See the preview."))
                preview = _form_preview_context(document, None)
            else:
                _saved_message(request, result)
                return HttpResponseRedirect(
                    reverse("scenarios:form", args=[result.scenario.slug]), status=303)
    elif latest is not None:  # the latest version, from what its check stored
        preview = _version_preview(latest, None, get_language())
    else:
        preview = _form_preview_context(base, None)
    return render(request, "scenarios/form_editor.html", {
        "scenario": scenario, "latest": latest, **sets, **preview, "action_rows": rows,
        "cards": f.card_choices()})


def _form_preview_context(document: dict[str, Any], era: str | None) -> dict[str, Any]:
    """The preview of a composed document, checked as it is (no YAML text written and read
    back), without line numbers: they would point into a YAML text the form editor
    doesn't show."""
    return _document_preview(document, era, get_language())


def _saved_message(request: AuthenticatedHttpRequest, result: Any) -> None:
    if result.outcome == "unchanged":
        messages.info(request, _("No change since version %(n)s.")
                      % {"n": result.version.number})
    else:
        messages.success(request, _("Saved as draft version %(n)s.")
                         % {"n": result.version.number})


def _form_errors(sets: dict[str, Any], rows: list[Any]) -> list[dict[str, Any]]:
    """Each field's errors as preview lines, the field's name as their path. Untouched
    extra rows have none; a row marked Remove is not checked."""
    from scenarios import action_forms as af

    errors: list[dict[str, Any]] = []
    forms_: list[Any] = []
    for name, form_set in sets.items():
        if hasattr(form_set, "forms"):
            errors += [{"path": name, "message": m, "line": None}
                       for m in form_set.non_form_errors()]
            forms_ += form_set.forms
        else:
            forms_.append(form_set)
    forms_ += [row for row in rows if row.is_bound and not af.is_blank(row)]
    for form in forms_:
        if form.errors and not form.cleaned_data.get("DELETE"):
            errors += [{"path": form.add_prefix(field) if field != "__all__" else form.prefix,
                        "message": message, "line": None}
                       for field, texts in form.errors.items() for message in texts]
    return errors


@require_POST
@instructor_required
def form_preview(request: AuthenticatedHttpRequest, slug: str | None = None) -> HttpResponse:
    base = _form_base(slug)[2]
    if editing.beyond_the_forms(base):
        return render(request, "scenarios/editor.html#preview", {"errors": [], "warnings": []})
    sets = _form_sets(request.POST, base, new=slug is None)
    rows = _action_rows(request.POST, base)
    document = _composed(sets, rows, base)
    if document is None:
        context: dict[str, Any] = {"errors": _form_errors(sets, rows), "warnings": [],
                                   "ok": False}
    else:
        context = _form_preview_context(document, request.POST.get("era"))
    return render(request, "scenarios/editor.html#preview", context)


@require_safe
@instructor_required
def action_fields(request: AuthenticatedHttpRequest) -> HttpResponse:
    """The fields of one action row for a newly chosen kind (htmx)."""
    from scenarios import action_forms as af

    try:
        index = max(0, min(59, int(request.GET.get("i", "0"))))
    except ValueError:
        index = 0
    # htmx sends the select's own value under its name, actions-N-kind.
    kind = request.GET.get(f"actions-{index}-kind") or request.GET.get("kind", "attack")
    row = af.ActionRow(prefix=f"actions-{index}", kind=kind, initial={"kind": kind})
    return render(request, "scenarios/_action_row.html#action-fields", {"row": row})
