"""Instructor authoring: permissions, editor, live preview, translations, versions,
publishing, import and export, statistics, re-check."""

from __future__ import annotations

import io
import zipfile

import pytest
import yaml
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse

from quiz.models import Attempt, QuizItem, QuizSession
from scenarios.library import dump_document
from scenarios.models import Scenario, ScenarioVersion
from scenarios.selectors import point_biserial, question_stats
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
        ("scenarios:export", ["s1"], "get"), ("scenarios:stats", ["s1"], "get"),
        ("scenarios:publish", ["s1"], "post"), ("scenarios:retire", ["s1"], "post"),
        ("scenarios:preview", [], "post"), ("scenarios:form", ["s1"], "get"),
        ("scenarios:form_preview", ["s1"], "post"), ("scenarios:action_fields", [], "get")]


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
    from engine.check import check_document
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
