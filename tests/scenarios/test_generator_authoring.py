"""A generator as its author reviews it (issue 18): the preview's survey (distinct boards,
skips per era, each question's spread over the draws, degenerate questions) and the
gallery of variants drawn at random; what a version stores of its check."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse

from scenarios.library import dump_document
from scenarios.services import scenario_import
from tests.engine.test_generators import _doc
from tests.factories import InstructorFactory, UserFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def instructor_client() -> Client:
    client = Client()
    client.force_login(InstructorFactory())
    return client


def _generator() -> dict:
    """More sets of values than a check runs (so it draws 200), one question degenerate."""
    doc = _doc()
    doc["params"]["life"] = {"range": [10, 20]}
    doc["setup"]["players"][1]["life"] = "$life"
    doc["eras"] = ["dom-2018", "mh2-2021", "mom-2023", "fdn-2024"]
    doc["questions"].append({"id": "same", "kind": "number", "ask": {"en": "Alice's life?"},
                             "answer": {"life": "alice"}})
    return doc


def test_the_preview_shows_the_survey_and_flags_a_degenerate_question(
        instructor_client: Client) -> None:
    response = instructor_client.post(reverse("scenarios:preview"),
                                      {"source": dump_document(_generator()),
                                       "era": "fdn-2024"})
    html = response.content.decode()
    assert response.status_code == 200
    boards = re.search(r"(\d[\d,]*) distinct boards", html)
    assert boards and int(boards.group(1).replace(",", "")) > 10
    assert "200 variants drawn and checked" in html
    assert "degenerate: the answer is 20 in 100%" in html  # the warning, with its path
    assert '<code>same</code> <span class="badge text-bg-warning">degenerate' in html
    assert '<code>bob</code> <span class="badge' not in html  # Bob's life varies
    assert "<progress" in html and "Skipped: board not at rest" in html


def test_the_gallery_draws_distinct_variants_with_their_answers(
        instructor_client: Client) -> None:
    response = instructor_client.post(reverse("scenarios:gallery"),
                                      {"source": dump_document(_generator()),
                                       "era": "fdn-2024"})
    html = response.content.decode()
    assert response.status_code == 200 and "<html" not in html
    seeds = re.findall(r"Variant (\d+), under", html)
    assert len(seeds) == 6 and len(set(seeds)) == 6
    assert html.count("<svg") >= 6
    assert "<code>atk</code> = " in html and "<code>blocked</code> = " in html


def test_the_gallery_of_a_document_in_error_or_without_parameters_says_so(
        instructor_client: Client) -> None:
    url = reverse("scenarios:gallery")
    broken = instructor_client.post(url, {"source": "format: 1\nid: [oops"})
    assert broken.status_code == 200 and "Variant " not in broken.content.decode()
    plain = _doc()
    del plain["params"]
    response = instructor_client.post(url, {"source": dump_document(plain)})
    assert response.status_code == 200
    assert "a scenario with parameters" in response.content.decode()


def test_the_gallery_escapes_authored_text(instructor_client: Client) -> None:
    doc = _generator()
    doc["questions"][0]["ask"] = {"en": "<script>alert(1)</script> {a}?"}
    html = instructor_client.post(reverse("scenarios:gallery"),
                                  {"source": dump_document(doc)}).content.decode()
    assert "<script>alert(1)" not in html and "&lt;script&gt;alert(1)" in html


def test_the_gallery_is_for_instructors_and_needs_csrf() -> None:
    candidate = Client()
    candidate.force_login(UserFactory())
    url = reverse("scenarios:gallery")
    assert candidate.post(url, {"source": dump_document(_doc())}).status_code == 403
    guarded = Client(enforce_csrf_checks=True)
    guarded.force_login(InstructorFactory())
    assert guarded.post(url, {"source": dump_document(_doc())}).status_code == 403


def test_a_version_stores_its_generators_survey() -> None:
    result = scenario_import(document=_generator(), publish=False)
    variants = result.version.variants
    assert variants["boards"] > 200 and variants["drawn"] == 200
    assert set(variants["answers"]) == {"bob", "bears", "same"}
    plain = _doc(id="plain")
    del plain["params"]
    plain["setup"]["battlefield"][0]["card"] = "siege-rhino"
    plain["setup"]["battlefield"][1]["counters"] = {"loyalty": 3}
    for item in (plain["setup"]["battlefield"][2], plain["actions"][1], plain["questions"][1]):
        del item["when"]
    assert scenario_import(document=plain, publish=False).version.variants == {}


def test_story_alternatives_are_translated_like_any_text(instructor_client: Client) -> None:
    doc = _doc(story=[{"when": {"blocked": True}, "en": "Bob blocks."},
                      {"en": "Bob doesn't block."}])
    result = scenario_import(document=doc, publish=False)
    missing = {w["path"] for w in result.version.warnings}
    assert {"story[0].it", "story[1].es"} <= missing  # the check asks for them
    url = reverse("scenarios:translate", args=[doc["id"]])
    page = instructor_client.get(url + "?to=it").content.decode()
    assert "text:story[0]:it" in page and "text:story[1]:it" in page
    instructor_client.post(url + "?to=it", {"to": "it", "text:story[0]:it": "Bob blocca.",
                                            "text:story[1]:it": "Bob non blocca."})
    latest = result.scenario.latest_version()
    assert latest.document["story"][0] == {"when": {"blocked": True}, "en": "Bob blocks.",
                                           "it": "Bob blocca."}
    assert latest.document["story"][1]["it"] == "Bob non blocca."


def test_the_form_editor_sends_a_generator_with_conditions_to_the_yaml_editor(
        instructor_client: Client) -> None:
    """The forms can't show `when:`: saving from them would lose it, so they aren't offered
    and a post saves nothing."""
    result = scenario_import(document=_doc(), publish=False)
    url = reverse("scenarios:form", args=["gen"])
    page = instructor_client.get(url)
    html = page.content.decode()
    assert page.status_code == 200 and 'id="form-editor"' not in html
    assert "<code>actions[1].when</code>" in html
    assert reverse("scenarios:edit", args=["gen"]) in html
    posted = instructor_client.post(url, {"meta-id": "gen"})
    assert posted.status_code == 409
    assert result.scenario.versions.count() == 1  # nothing saved
