"""Instructor authoring: permissions, editor, live preview, translations, versions,
publishing, import and export, statistics, re-check."""

from __future__ import annotations

import io
import zipfile
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest
import yaml
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse

from quiz.models import Attempt, QuizItem, QuizSession
from quiz.selectors import point_biserial, question_stats
from scenarios.library import dump_document
from scenarios.models import Scenario, ScenarioVersion
from tests.factories import (
    InstructorFactory,
    ScenarioFactory,
    UserFactory,
    scenario_document,
)

pytestmark = pytest.mark.django_db

URLS = [("scenarios:author_home", [], "get"), ("scenarios:new", [], "get"),
        ("scenarios:import", [], "get"), ("scenarios:export_all", [], "get"),
        ("scenarios:recheck", [], "get"), ("scenarios:edit", ["s1"], "get"),
        ("scenarios:translate", ["s1"], "get"), ("scenarios:versions", ["s1"], "get"),
        ("scenarios:export", ["s1"], "get"), ("quiz:scenario_stats", ["s1"], "get"),
        ("scenarios:publish", ["s1"], "post"), ("scenarios:retire", ["s1"], "post"),
        ("scenarios:preview", [], "post"), ("scenarios:form", ["s1"], "get"),
        ("scenarios:form_preview", ["s1"], "post"), ("scenarios:action_fields", [], "get"),
        ("scenarios:reports", [], "get"), ("scenarios:reports", [], "post"),
        ("scenarios:form_new", [], "get"), ("scenarios:form_new_preview", [], "post"),
        ("scenarios:gallery", [], "post")]


@pytest.fixture
def instructor_client() -> Client:
    client = Client()
    client.force_login(InstructorFactory())
    return client


@pytest.mark.parametrize("role", ["anonymous", "candidate", "instructor"])
def test_every_authoring_url_is_for_instructors_only(role: str) -> None:
    from tests.web.test_pages import AUTHORING

    assert {name for name, _, _ in URLS} == AUTHORING | {"scenarios:author_home"}
    ScenarioFactory(slug="s1")
    client = Client()
    if role == "candidate":
        client.force_login(UserFactory())
    elif role == "instructor":
        client.force_login(InstructorFactory())
    for name, args, method in URLS:
        url = reverse(name, args=args)
        response = getattr(client, method)(url, {"source": ""} if method == "post" else {})
        if role == "anonymous":
            assert response.status_code == 302 and "/accounts/login/" in response["Location"]
        elif role == "candidate":
            assert response.status_code == 403, url
        else:
            assert response.status_code in (200, 303), (url, response.status_code)
    assert Scenario.objects.get(slug="s1").status == (
        Scenario.Status.RETIRED if role == "instructor" else Scenario.Status.PUBLISHED)


def test_saving_a_new_scenario_makes_a_draft_version(instructor_client: Client) -> None:
    source = dump_document(scenario_document("fresh"))
    response = instructor_client.post(reverse("scenarios:new"),
                                      {"source": source, "action": "save"})
    assert response.status_code == 303
    scenario = Scenario.objects.get(slug="fresh")
    assert scenario.status == Scenario.Status.DRAFT
    assert scenario.latest_version().number == 1
    edited = source.replace("difficulty: 2", "difficulty: 3")
    instructor_client.post(reverse("scenarios:edit", args=["fresh"]),
                           {"source": edited, "action": "save"})
    assert scenario.versions.count() == 2


def test_an_invalid_document_keeps_what_was_typed(instructor_client: Client) -> None:
    source = dump_document(scenario_document("fresh")).replace("grizzly-bears", "grizly-bears")
    response = instructor_client.post(reverse("scenarios:new"),
                                      {"source": source, "action": "save"})
    html = response.content.decode()
    assert response.status_code == 200
    assert "grizly-bears" in html and "unknown card" in html
    assert not Scenario.objects.exists()


def test_live_preview_shows_errors_with_their_line(instructor_client: Client) -> None:
    source = dump_document(scenario_document("fresh")).replace("grizzly-bears", "grizly-bears")
    response = instructor_client.post(reverse("scenarios:preview"), {"source": source},
                                      HTTP_HX_REQUEST="true")
    html = response.content.decode()
    assert 'id="preview"' in html and "<html" not in html
    assert "setup.battlefield[2].card" in html and "line " in html


def test_live_preview_shows_answers_and_flags_disagreements(instructor_client: Client) -> None:
    doc = scenario_document("fresh")
    doc["questions"][0]["expect"] = 14
    response = instructor_client.post(reverse("scenarios:preview"),
                                      {"source": dump_document(doc)})
    html = response.content.decode()
    assert "table-danger" in html and "disagree with expect" in html
    assert "<svg" in html and "trace-steps" in html


def test_publishing_needs_three_languages_and_agreement(instructor_client: Client) -> None:
    doc = scenario_document("fresh")
    del doc["title"]["es"]
    instructor_client.post(reverse("scenarios:new"),
                           {"source": dump_document(doc), "action": "publish"})
    scenario = Scenario.objects.get(slug="fresh")
    assert scenario.status == Scenario.Status.DRAFT
    doc["title"]["es"] = "Arrollar"
    instructor_client.post(reverse("scenarios:edit", args=["fresh"]),
                           {"source": dump_document(doc), "action": "publish"})
    scenario.refresh_from_db()
    assert scenario.status == Scenario.Status.PUBLISHED
    assert scenario.current_version.is_published


def test_the_id_of_an_existing_scenario_cannot_change(instructor_client: Client) -> None:
    ScenarioFactory(slug="s1")
    response = instructor_client.post(reverse("scenarios:edit", args=["s1"]), {
        "source": dump_document(scenario_document("other")), "action": "save"})
    assert response.status_code == 200 and "can&#x27;t change" in response.content.decode()
    assert not Scenario.objects.filter(slug="other").exists()


def test_translations_side_by_side(instructor_client: Client) -> None:
    doc = scenario_document("fresh")
    del doc["story"]["it"]
    instructor_client.post(reverse("scenarios:new"), {"source": dump_document(doc),
                                                      "action": "save"})
    page = instructor_client.get(reverse("scenarios:translate", args=["fresh"]))
    assert "1 text is missing" in page.content.decode()
    response = instructor_client.post(reverse("scenarios:translate", args=["fresh"]),
                                      {"text:story:it": "Alice attacca con tutto."})
    assert response.status_code == 303
    latest = Scenario.objects.get(slug="fresh").latest_version()
    assert latest.number == 2 and latest.document["story"]["it"] == "Alice attacca con tutto."


def test_versions_page_shows_a_diff(instructor_client: Client) -> None:
    ScenarioFactory(slug="s1")
    instructor_client.post(reverse("scenarios:edit", args=["s1"]), {
        "source": dump_document(scenario_document("s1", difficulty=4)), "action": "save"})
    html = instructor_client.get(reverse("scenarios:versions", args=["s1"]) + "?a=1&b=2"
                                 ).content.decode()
    assert "-difficulty: 2" in html and "+difficulty: 4" in html


def test_authored_text_is_escaped(instructor_client: Client) -> None:
    doc = scenario_document("xss")
    doc["title"]["en"] = "<script>alert(1)</script>"
    ScenarioFactory(slug="xss", document=doc)
    html = instructor_client.get(reverse("scenarios:author_home")).content.decode()
    assert "<script>alert(1)</script>" not in html and "&lt;script&gt;" in html


def test_import_and_export(instructor_client: Client) -> None:
    good = SimpleUploadedFile("good.yaml", dump_document(scenario_document("up")).encode())
    bad_doc = scenario_document("bad")
    bad_doc["actions"] = [{"attack": {"ghost": "bob"}}]
    bad = SimpleUploadedFile("bad.yaml", dump_document(bad_doc).encode())
    evil = SimpleUploadedFile("evil.yaml", b"!!python/object/apply:os.system ['true']\n")
    html = instructor_client.post(reverse("scenarios:import"),
                                  {"files": [good, bad, evil]}).content.decode()
    assert "actions[0].attack.ghost" in html and "not imported" in html
    assert list(Scenario.objects.values_list("slug", flat=True)) == ["up"]
    one = instructor_client.get(reverse("scenarios:export", args=["up"]))
    assert yaml.safe_load(one.content) == scenario_document("up")
    archive = zipfile.ZipFile(io.BytesIO(instructor_client.get(
        reverse("scenarios:export_all")).content))
    assert archive.namelist() == ["trample-into-planeswalkers/up.yaml"]


def test_recheck_button(instructor_client: Client) -> None:
    version = ScenarioFactory(slug="s1").current_version
    ScenarioVersion.objects.filter(pk=version.pk).update(
        answer_keys={**version.answer_keys, "fdn-2024": {"life": 3}})
    html = instructor_client.post(reverse("scenarios:recheck")).content.decode()
    assert "s1" in html and "fdn-2024" in html


def test_point_biserial_against_a_hand_computed_value() -> None:
    # Candidates' overall scores 0.9, 0.8, 0.3, 0.2; the first two got the item right.
    r = point_biserial([1, 1, 0, 0], [0.9, 0.8, 0.3, 0.2])
    # M1 = 0.85, M0 = 0.25, population sd = 0.30414, p = q = 0.5
    assert round(r, 4) == round((0.85 - 0.25) / 0.3041381 * 0.5, 4)
    assert point_biserial([1, 1], [0.5, 0.7]) is None


def test_question_statistics_on_a_small_data_set() -> None:
    scenario = ScenarioFactory(slug="s1")
    version = scenario.current_version
    users = [UserFactory() for _ in range(4)]
    answers = [(True, 20, 1000), (True, 20, 3000), (False, 14, 2000), (False, 14, 4000)]
    for user, (correct, value, ms) in zip(users, answers, strict=True):
        session = QuizSession.objects.create(user=user, length=1)
        item = QuizItem.objects.create(session=session, position=1, version=version,
                                       question_id="life", era="fdn-2024", seed=0)
        Attempt.objects.create(item=item, user=user, version=version, question_id="life",
                               era="fdn-2024", seed=0, answer=value, correct=correct,
                               expected=20, time_taken_ms=ms)
    (stats,) = question_stats(scenario)
    assert stats.attempts == 4 and stats.facility == 0.5
    assert stats.median_ms == 2500
    assert stats.wrong_answers == [("14", 2)]
    assert stats.discrimination == pytest.approx(1.0)
    assert stats.by_era == [("fdn-2024", 4, 0.5)]


def _form_post(document: dict) -> dict:
    """What the form editor posts for a document it was shown."""
    from scenarios import action_forms as af
    from scenarios import forms as f

    initial = f.initial_from(document)
    data = {}
    for key, value in initial["meta"].items():
        data[f"meta-{key}"] = value
    rows = af.rows_from_document(document.get("actions") or [])
    data["actions-TOTAL_FORMS"] = len(rows)
    for row in rows:
        data[f"{row.prefix}-shown-kind"] = row.action_kind
        data[f"{row.prefix}-existing"] = "1"
        if row.advanced:
            data[f"{row.prefix}-advanced"] = "1"
        for name in row.fields:
            value = row.initial.get(name)
            if value is None or value is False or value == "":
                continue
            data[f"{row.prefix}-{name}"] = value if value is not True else "on"
    for key, value in initial["planechase"].items():
        if value:
            data[f"planechase-{key}"] = value if value is not True else "on"
    for prefix, rows in (("players", initial["players"]), ("teams", initial["teams"]),
                         ("objects", initial["objects"]),
                         ("questions", initial["questions"]), ("params", initial["params"])):
        data[f"{prefix}-TOTAL_FORMS"] = len(rows)
        data[f"{prefix}-INITIAL_FORMS"] = len(rows)
        for i, row in enumerate(rows):
            for key, value in row.items():
                if value is None or value is False:
                    continue
                data[f"{prefix}-{i}-{key}"] = value if value is not True else "on"
    return data


@pytest.mark.parametrize("slug_path", [
    "trample-into-planeswalkers/thrasta-bears-share-liliana",
    "redirection-era/lava-spike-redirected-to-garruk",
    "two-headed-giant/thg-team-damage-one-player",
    "uniqueness-and-legend/ul-one-player-two-lilianas",
    "planechase/pc-communal-planar-deck",
    "planechase/pc-chaos-on-opponents-plane",
])
def test_the_form_editor_gives_back_an_equivalent_document(instructor_client: Client,
                                                           slug_path: str) -> None:
    from engine import check_document
    from scenarios.library import LIBRARY, read_document

    document = read_document(LIBRARY / f"{slug_path}.yaml")
    ScenarioFactory(slug=document["id"], document=document)
    response = instructor_client.post(reverse("scenarios:form", args=[document["id"]]),
                                      _form_post(document))
    assert response.status_code == 303, response.content.decode()[:2000]
    saved = Scenario.objects.get(slug=document["id"]).latest_version().document
    assert check_document(saved).answers == check_document(document).answers
    assert saved["title"] == document["title"] and saved["explain"] == document["explain"]
    for key in ("teams", "planechase"):
        assert saved["setup"].get(key) == document["setup"].get(key)


def test_the_form_editor_edits_teams_and_planechase(instructor_client: Client) -> None:
    from scenarios.library import LIBRARY, read_document

    document = read_document(LIBRARY / "two-headed-giant/thg-team-damage-one-player.yaml")
    ScenarioFactory(slug=document["id"], document=document)
    data = _form_post(document)
    data["teams-0-life"] = "12"
    response = instructor_client.post(reverse("scenarios:form", args=[document["id"]]), data)
    assert response.status_code == 303, response.content.decode()[:2000]
    saved = Scenario.objects.get(slug=document["id"]).latest_version().document
    assert saved["setup"]["teams"][0]["life"] == 12
    assert saved["setup"]["teams"][1] == document["setup"]["teams"][1]


def test_the_form_editor_reports_a_bad_team_next_to_the_engine_error(
        instructor_client: Client) -> None:
    doc = scenario_document("s1")
    ScenarioFactory(slug="s1", document=doc)
    data = _form_post(doc)
    data.update({"teams-TOTAL_FORMS": 1, "teams-INITIAL_FORMS": 0,
                 "teams-0-id": "ab", "teams-0-members": "alice, bob", "teams-0-life": "30"})
    response = instructor_client.post(reverse("scenarios:form", args=["s1"]), data)
    html = response.content.decode()
    assert response.status_code == 200 and "setup.teams" in html
    assert Scenario.objects.get(slug="s1").versions.count() == 1


def test_the_form_editor_reorders_and_removes_actions(instructor_client: Client) -> None:
    doc = scenario_document("s1")
    ScenarioFactory(slug="s1", document=doc)
    data = _form_post(doc)
    data["actions-2-DELETE"] = "on"  # no combat damage any more
    response = instructor_client.post(reverse("scenarios:form", args=["s1"]), data)
    assert response.status_code == 303
    saved = Scenario.objects.get(slug="s1").latest_version().document
    assert [next(iter(a)) for a in saved["actions"]] == ["attack", "block"]


def test_the_form_editor_keeps_bad_input_with_its_error(instructor_client: Client) -> None:
    doc = scenario_document("s1")
    ScenarioFactory(slug="s1", document=doc)
    data = _form_post(doc)
    data["actions-0-pairs"] = "wurm garruk"
    response = instructor_client.post(reverse("scenarios:form", args=["s1"]), data)
    html = response.content.decode()
    assert response.status_code == 200 and "wurm garruk" in html and "Line 1" in html
    assert Scenario.objects.get(slug="s1").versions.count() == 1


def test_form_preview_is_a_partial(instructor_client: Client) -> None:
    doc = scenario_document("s1")
    ScenarioFactory(slug="s1", document=doc)
    response = instructor_client.post(reverse("scenarios:form_preview", args=["s1"]),
                                      _form_post(doc), HTTP_HX_REQUEST="true")
    html = response.content.decode()
    assert 'id="preview"' in html and "<html" not in html and "trace-steps" in html


def test_changing_an_action_kind_shows_its_fields(instructor_client: Client) -> None:
    ScenarioFactory(slug="s1")
    html = instructor_client.get(reverse("scenarios:action_fields") + "?kind=cast&i=3",
                                 HTTP_HX_REQUEST="true").content.decode()
    assert 'name="actions-3-card"' in html and 'name="actions-3-redirect"' in html
    assert 'name="actions-3-shown-kind" value="cast"' in html


def test_every_library_action_round_trips_through_its_kind_fields() -> None:
    from scenarios import action_forms as af
    from scenarios.library import library_files, read_document

    advanced = 0
    for path in library_files():
        for action in read_document(path)["actions"]:
            kind, args = next(iter(action.items()))
            initial = af._from_args(kind, args)
            if initial is None:
                advanced += 1
                continue
            assert af._to_args(kind, initial) == args, (path, action)
    assert advanced < 10


# -- the form editor as a browser uses it ----------------------------------------------------

class _FormFields(HTMLParser):
    """What a browser submits for one form of a page: text inputs and hidden fields with
    their values, ticked boxes, each select's selected options (else its first option),
    textareas with their line breaks sent as CRLF."""

    def __init__(self, form_id: str) -> None:
        super().__init__(convert_charrefs=True)
        self.form_id = form_id
        self.inside = False
        self.fields: list[tuple[str, str]] = []
        self._select: dict[str, Any] | None = None
        self._textarea: list[str] | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        if tag == "form" and a.get("id") == self.form_id:
            self.inside = True
        if not self.inside or "disabled" in a or not (a.get("name") or tag == "option"):
            return
        if tag == "input":
            kind = (a.get("type") or "text").lower()
            if kind in ("checkbox", "radio"):
                if "checked" in a:
                    self.fields.append((a["name"], a.get("value") or "on"))
            elif kind not in ("submit", "button", "reset", "file", "image"):
                self.fields.append((a["name"], a.get("value") or ""))
        elif tag == "select":
            self._select = {"name": a["name"], "multiple": "multiple" in a, "options": []}
        elif tag == "option" and self._select is not None:
            self._select["options"].append((a.get("value") or "", "selected" in a))
        elif tag == "textarea":
            self._textarea = [a["name"], ""]

    def handle_data(self, data: str) -> None:
        if self._textarea is not None:
            self._textarea[1] += data

    def handle_endtag(self, tag: str) -> None:
        if tag == "form":
            self.inside = False
        elif tag == "select" and self._select is not None:
            select, self._select = self._select, None
            chosen = [value for value, selected in select["options"] if selected]
            if not chosen and not select["multiple"] and select["options"]:
                chosen = [select["options"][0][0]]
            self.fields += [(select["name"], value) for value in chosen]
        elif tag == "textarea" and self._textarea is not None:
            (name, text), self._textarea = self._textarea, None
            text = text.removeprefix("\n")  # HTML drops a newline right after <textarea>
            self.fields.append((name, text.replace("\r\n", "\n").replace("\n", "\r\n")))


def _submitted(html: str, form_id: str = "form-editor") -> dict[str, list[str]]:
    parser = _FormFields(form_id)
    parser.feed(html)
    assert parser.fields, f"no form #{form_id} in the page"
    data: dict[str, list[str]] = {}
    for name, value in parser.fields:
        data.setdefault(name, []).append(value)
    return data


def _library_paths() -> list[Path]:
    from scenarios.library import library_files

    return library_files()


@pytest.mark.parametrize("path", _library_paths(), ids=lambda p: p.stem)
def test_saving_an_unchanged_library_scenario_in_the_form_editor_changes_nothing(
        instructor_client: Client, path: Path) -> None:
    """Every field posted back as the page showed it, blank extra rows (players, teams,
    objects, actions, questions, parameters) included: no error, the same document."""
    from scenarios.editing import beyond_the_forms
    from scenarios.library import read_document

    document = read_document(path)
    ScenarioFactory(slug=document["id"], document=document)
    url = reverse("scenarios:form", args=[document["id"]])
    page = instructor_client.get(url).content.decode()
    if beyond_the_forms(document):  # a generator's `when:`: the YAML editor's alone
        assert 'id="form-editor"' not in page and "Open the YAML editor" in page
        return
    data = _submitted(page)
    preview = instructor_client.post(reverse("scenarios:form_preview", args=[document["id"]]),
                                     data).content.decode()
    assert "alert-danger" not in preview and "trace-steps" in preview, preview[:3000]
    response = instructor_client.post(url, data)
    assert response.status_code == 303, response.content.decode()[:3000]
    latest = Scenario.objects.get(slug=document["id"]).latest_version()
    assert latest.document == document
    assert latest.number == 1  # the same content: no new version


def test_saving_an_unchanged_form_says_nothing_changed(instructor_client: Client) -> None:
    doc = scenario_document("s1")
    ScenarioFactory(slug="s1", document=doc)
    url = reverse("scenarios:form", args=["s1"])
    response = instructor_client.post(url, _form_post(doc), follow=True)
    assert response.redirect_chain == [(url, 303)]
    assert "No change since version 1." in response.content.decode()


def test_an_untouched_extra_row_is_not_taken_for_a_filled_one() -> None:
    """A new player's row shows life 20 and a new question's row its first kind; posted
    back as shown, neither has changed, so the formset skips them."""
    from scenarios import forms as f

    extra = {"empty_permitted": True, "use_required_attribute": False}  # as a formset does
    player = f.PlayerForm({"p-id": "", "p-life": "20"}, prefix="p", **extra)
    first_kind = f.QuestionForm.base_fields["kind"].choices[0][0]
    question = f.QuestionForm({"q-kind": first_kind, "q-ask_en": ""}, prefix="q", **extra)
    team = f.TeamForm({"t-life": "30"}, prefix="t", **extra)
    for form in (player, question, team):
        assert not form.has_changed() and form.is_valid()
    assert f.PlayerForm({"p-id": "", "p-life": "25"}, prefix="p", **extra).has_changed()


def test_an_action_row_whose_kind_was_chosen_is_added_even_without_fields(
        instructor_client: Client) -> None:
    doc = scenario_document("s1")
    ScenarioFactory(slug="s1", document=doc)
    data = _form_post(doc)
    data.update({"actions-TOTAL_FORMS": 4, "actions-3-kind": "next_turn",
                 "actions-3-shown-kind": "next_turn"})
    response = instructor_client.post(reverse("scenarios:form", args=["s1"]), data)
    assert response.status_code == 303, response.content.decode()[:2000]
    saved = Scenario.objects.get(slug="s1").latest_version().document
    assert saved["actions"][-1] == {"next_turn": {}}


def test_an_action_number_may_be_a_parameter(instructor_client: Client) -> None:
    from scenarios.library import LIBRARY, read_document

    document = read_document(LIBRARY / "redirection-era/earthquake-redirect-era.yaml")
    ScenarioFactory(slug=document["id"], document=document)
    url = reverse("scenarios:form", args=[document["id"]])
    data = _form_post(document)
    cast = next(i for i, a in enumerate(document["actions"]) if "cast" in a)
    assert data[f"actions-{cast}-x"] == "$x"
    data[f"actions-{cast}-x"] = "two"
    html = instructor_client.post(url, data).content.decode()
    assert "Enter a whole number or a parameter such as $p." in html
    data[f"actions-{cast}-x"] = "3"
    assert instructor_client.post(url, data).status_code == 303
    saved = Scenario.objects.get(slug=document["id"]).latest_version().document
    assert saved["actions"][cast]["cast"]["x"] == 3


def test_the_form_preview_names_the_field_of_each_error(instructor_client: Client) -> None:
    doc = scenario_document("s1")
    ScenarioFactory(slug="s1", document=doc)
    data = _form_post(doc)
    data.update({"players-TOTAL_FORMS": 3, "players-2-life": "25", "meta-difficulty": "9"})
    html = instructor_client.post(reverse("scenarios:form_preview", args=["s1"]),
                                  data).content.decode()
    assert "<code>players-2-id</code> This field is required." in html
    assert "<code>meta-difficulty</code>" in html and "errorlist" not in html


# -- a new scenario, in either editor ----------------------------------------------------------

def test_the_author_home_offers_both_editors_for_a_new_scenario(
        instructor_client: Client) -> None:
    html = instructor_client.get(reverse("scenarios:author_home")).content.decode()
    assert f'href="{reverse("scenarios:form_new")}"' in html
    assert f'href="{reverse("scenarios:new")}"' in html


@pytest.mark.parametrize("editor", ["form", "yaml"])
def test_a_new_scenario_starts_from_the_same_document_in_both_editors(
        instructor_client: Client, editor: str) -> None:
    from scenarios import editing

    if editor == "form":
        url = reverse("scenarios:form_new")
        data: Any = _submitted(instructor_client.get(url).content.decode())
    else:
        url = reverse("scenarios:new")
        data = {**_submitted(instructor_client.get(url).content.decode(), "editor-form"),
                "action": "save"}
    response = instructor_client.post(url, data)
    assert response.status_code == 303, response.content.decode()[:3000]
    scenario = Scenario.objects.get(slug="new-scenario")
    assert scenario.status == Scenario.Status.DRAFT
    assert scenario.latest_version().document == editing.parse_source(editing.NEW_DOCUMENT)
    assert response["Location"] == reverse(
        "scenarios:form" if editor == "form" else "scenarios:edit", args=["new-scenario"])


def test_a_new_scenario_in_the_form_editor_takes_its_id_and_texts(
        instructor_client: Client) -> None:
    url = reverse("scenarios:form_new")
    data = _submitted(instructor_client.get(url).content.decode())
    data.update({"meta-id": ["my-first"], "meta-title_en": ["My first scenario"],
                 "meta-explain_en": [""], "meta-difficulty": ["3"]})
    preview = instructor_client.post(reverse("scenarios:form_new_preview"),
                                     data).content.decode()
    assert "trace-steps" in preview and "alert-danger" not in preview
    assert instructor_client.post(url, data).status_code == 303
    document = Scenario.objects.get(slug="my-first").latest_version().document
    assert document["id"] == "my-first" and document["difficulty"] == 3
    assert document["title"] == {"en": "My first scenario"} and "explain" not in document


@pytest.mark.parametrize("editor", ["form", "yaml"])
def test_a_new_scenario_cannot_take_the_id_of_another(instructor_client: Client,
                                                       editor: str) -> None:
    from scenarios import editing

    ScenarioFactory(slug="new-scenario")
    if editor == "form":
        url = reverse("scenarios:form_new")
        data: Any = _submitted(instructor_client.get(url).content.decode())
    else:
        url = reverse("scenarios:new")
        data = {"source": editing.NEW_DOCUMENT, "action": "save"}
    response = instructor_client.post(url, data)
    assert response.status_code == 200
    assert "exists already" in response.content.decode()
    assert Scenario.objects.get(slug="new-scenario").versions.count() == 1


# -- warnings in the live preview --------------------------------------------------------------

def test_warnings_show_their_line_number(instructor_client: Client) -> None:
    doc = scenario_document("fresh")
    del doc["title"]["it"]
    source = dump_document(doc)
    line = source.splitlines().index("title:") + 1
    html = instructor_client.post(reverse("scenarios:preview"),
                                  {"source": source}).content.decode()
    assert "<code>title.it</code> missing it translation" in html
    assert f'<span class="badge text-bg-warning">line {line}</span>' in html


def test_the_form_editor_preview_shows_warnings_without_lines(
        instructor_client: Client) -> None:
    """Its document has no YAML text on the page: a line number would point nowhere."""
    doc = scenario_document("s1")
    del doc["title"]["it"]
    ScenarioFactory(slug="s1", document=doc, publish=False)
    html = instructor_client.post(reverse("scenarios:form_preview", args=["s1"]),
                                  _form_post(doc)).content.decode()
    assert "<code>title.it</code> missing it translation" in html
    assert "badge text-bg-warning" not in html


def test_a_warning_without_a_line_has_no_badge() -> None:
    from django.template.loader import render_to_string

    html = render_to_string("scenarios/editor.html#preview", {
        "warnings": [{"path": "title.es", "message": "missing es translation", "line": None}]})
    assert "missing es translation" in html and "badge" not in html


# -- who saved each version; one shared library; drafts stay private -----------------------------

def _save_by_yaml(client: Client, doc: dict, action: str = "save") -> None:
    client.post(reverse("scenarios:edit", args=[doc["id"]]),
                {"source": dump_document(doc), "action": action})


def _publish_by_yaml(client: Client, doc: dict) -> None:
    _save_by_yaml(client, doc, action="publish")


def _save_by_form(client: Client, doc: dict) -> None:
    client.post(reverse("scenarios:form", args=[doc["id"]]), _form_post(doc))


def _save_translation(client: Client, doc: dict) -> None:
    client.post(reverse("scenarios:translate", args=[doc["id"]]),
                {"text:story:it": "Alice attacca, di nuovo."})


def _save_by_import(client: Client, doc: dict) -> None:
    upload = SimpleUploadedFile("s.yaml", dump_document(doc).encode())
    client.post(reverse("scenarios:import"), {"files": [upload]})


def _publish_incomplete(client: Client, doc: dict) -> None:
    """Save and publish a document missing a translation: saved as a draft instead."""
    del doc["title"]["es"]
    _save_by_yaml(client, doc, action="publish")


@pytest.mark.parametrize("save", [_save_by_yaml, _publish_by_yaml, _save_by_form,
                                  _save_translation, _save_by_import, _publish_incomplete],
                         ids=lambda f: f.__name__.strip("_"))
def test_any_instructor_saves_a_version_of_another_ones_draft_and_is_named(save: Any) -> None:
    first, second = InstructorFactory(username="ada"), InstructorFactory(username="brook")
    client_first, client_second = Client(), Client()
    client_first.force_login(first)
    client_second.force_login(second)
    client_first.post(reverse("scenarios:new"), {
        "source": dump_document(scenario_document("shared")), "action": "save"})
    scenario = Scenario.objects.get(slug="shared")
    assert scenario.status == Scenario.Status.DRAFT and scenario.author == first
    save(client_second, scenario_document("shared", difficulty=4))
    versions = list(scenario.versions.order_by("number"))
    assert [v.created_by for v in versions] == [first, second]
    html = client_second.get(reverse("scenarios:versions", args=["shared"])).content.decode()
    assert "<td>ada</td>" in html and "<td>brook</td>" in html


def _public_clients() -> list[Client]:
    candidate = Client()
    candidate.force_login(UserFactory())
    return [Client(), candidate]


def test_candidates_never_see_a_draft() -> None:
    """A draft-only scenario is not found on the public pages, and a published
    scenario's newer draft shows nowhere: not in history nor what-if, not in a quiz."""
    from scenarios.services import scenario_import

    ScenarioFactory(slug="draft-only", publish=False)
    published = ScenarioFactory(slug="public")
    scenario_import(document=scenario_document("public", title={"en": "Secret draft title"}),
                    author=InstructorFactory(), publish=False)
    anonymous, candidate = _public_clients()
    for client in (anonymous, candidate):
        for name in ("quiz:history_scenario", "quiz:what_if"):
            assert client.get(reverse(name, args=["draft-only"])).status_code == 404, name
            assert client.get(reverse(name, args=["draft-only"]),
                              HTTP_HX_REQUEST="true").status_code == 404, name
            page = client.get(reverse(name, args=["public"])).content.decode()
            assert "Secret draft title" not in page
        page = client.get(reverse("quiz:history")).content.decode()
        assert "draft-only" not in page and "Secret draft title" not in page
    response = candidate.post(reverse("quiz:practice"), {
        "mode": "practice", "era_mode": "current", "difficulty_min": 1, "difficulty_max": 5,
        "length": 10})
    assert response.status_code == 303
    items = QuizSession.objects.get().items.select_related("version")
    assert {item.version for item in items} == {published.current_version}


def test_translations_one_language_at_a_time_with_its_glossary(
        instructor_client: Client) -> None:
    """English beside the language chosen (?to=): its column, its missing count and its
    glossary; saving keeps the other languages' texts and comes back to that language."""
    doc = scenario_document("sechs")
    instructor_client.post(reverse("scenarios:new"), {"source": dump_document(doc),
                                                      "action": "save"})
    url = reverse("scenarios:translate", args=["sechs"])
    page = instructor_client.get(url + "?to=de").content.decode()
    assert 'name="text:story:de"' in page and 'name="text:story:it"' not in page
    assert "Glossary: Deutsch" in page and "Trampelschaden" in page
    n = page.count("is-invalid")
    assert n >= 3 and f"{n} texts are missing." in page  # no German text yet
    response = instructor_client.post(url, {"to": "de", "text:story:de": "Alice greift an."})
    assert response.status_code == 303 and response["Location"].endswith("?to=de")
    latest = Scenario.objects.get(slug="sechs").latest_version()
    assert latest.document["story"]["de"] == "Alice greift an."
    assert latest.document["story"]["it"] == doc["story"]["it"]  # kept
    # a language the site doesn't offer, or anything else, is the default page, not a 500
    for to in ("xx", "<script>", "en"):
        assert instructor_client.get(url, {"to": to}).status_code == 200
