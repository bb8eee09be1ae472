"""The form editor in a real browser: an instructor builds a new scenario from the forms
alone, and edits one value of library scenarios with Two-Headed Giant teams and a
Planechase setup, every other field (blank extra rows included) posted back as shown."""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import expect

from scenarios.library import LIBRARY, read_document
from scenarios.models import Scenario
from tests.factories import PASSWORD, InstructorFactory, ScenarioFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def sign_in(page, base: str) -> None:
    instructor = InstructorFactory(username="teacher")
    page.goto(f"{base}/en/accounts/login/")
    page.fill("input[name=username]", instructor.username)
    page.fill("input[name=password]", PASSWORD)
    page.locator("main form button[type=submit]").click()
    page.wait_for_url(lambda url: "/login/" not in url)  # signed in before moving on


def console_errors(page) -> list[str]:
    errors: list[str] = []
    page.on("console", lambda m: m.type == "error" and errors.append(m.text))
    return errors


def test_instructor_builds_a_new_scenario_in_the_form_editor(page, live_server,
                                                              artifacts) -> None:
    errors = console_errors(page)
    sign_in(page, live_server.url)
    page.goto(f"{live_server.url}/en/author/")
    page.get_by_role("link", name="New scenario in forms").click()
    page.wait_for_url("**/author/new/form/")
    expect(page.locator("#preview table")).to_contain_text("bob-life")  # page and preview
    page.fill("#id_meta-id", "elves-join-in")
    page.fill("#id_meta-title_en", "The elves join the attack")
    page.fill("#id_meta-story_en", "Alice attacks {garruk} with {wurm} and Bob with {elves}; "
                                   "Bob blocks {wurm} with {bears}.")
    page.fill("#id_meta-difficulty", "3")
    page.fill("#id_players-0-life", "15")
    # A board object in the first empty row, attacking in the first action.
    page.fill("#id_objects-3-id", "elves")
    page.fill("#id_objects-3-card", "llanowar-elves")
    page.fill("#id_objects-3-controller", "alice")
    page.fill("#id_actions-0-pairs", "wurm: garruk\nelves: bob")
    page.fill("#id_questions-0-expect", "19")
    # A second question in the empty question row.
    page.fill("#id_questions-1-id", "alice-life")
    page.select_option("#id_questions-1-kind", "number")
    page.fill("#id_questions-1-ask_en", "What is Alice's life total now?")
    page.fill("#id_questions-1-answer", "{life: alice}")
    page.fill("#id_questions-1-expect", "15")
    page.locator("#id_questions-1-expect").press("Tab")  # its change event: the preview
    expect(page.locator("#preview table")).to_contain_text("alice-life")
    expect(page.locator("#preview .alert-danger")).to_have_count(0)
    expect(page.locator("#preview td.table-danger")).to_have_count(0)
    page.screenshot(path=str(artifacts / "form-editor-new.png"), full_page=True)
    page.get_by_role("button", name="Save a draft version").click()
    page.wait_for_url("**/author/s/elves-join-in/form/")
    expect(page.locator(".alert-success")).to_contain_text("Saved as draft version 1")
    page.get_by_role("link", name="Versions", exact=True).click()
    page.wait_for_url("**/author/s/elves-join-in/versions/")
    expect(page.locator("main table tbody tr")).to_have_count(1)
    expect(page.locator("main table tbody")).to_contain_text("teacher")
    scenario = Scenario.objects.get(slug="elves-join-in")
    assert scenario.status == Scenario.Status.DRAFT
    document = scenario.latest_version().document
    assert document["title"] == {"en": "The elves join the attack"}
    assert document["setup"]["players"][0] == {"id": "alice", "life": 15}
    assert {"id": "elves", "card": "llanowar-elves", "controller": "alice"} in (
        document["setup"]["battlefield"])
    assert document["actions"][0] == {"attack": {"wurm": "garruk", "elves": "bob"}}
    assert [q["id"] for q in document["questions"]] == ["bob-life", "alice-life"]
    assert document["questions"][1]["answer"] == {"life": "alice"}
    assert errors == [], errors


def _team_life(document: dict[str, Any]) -> None:
    document["setup"]["teams"][1]["life"] = 24


def _difficulty(document: dict[str, Any]) -> None:
    document["difficulty"] = 4


@pytest.mark.parametrize(("path", "field", "value", "change"), [
    ("two-headed-giant/thg-team-damage-one-player.yaml", "#id_teams-1-life", "24",
     _team_life),
    ("planechase/pc-communal-planar-deck.yaml", "#id_meta-difficulty", "4", _difficulty),
], ids=["two-headed-giant", "planechase"])
def test_instructor_changes_one_value_of_a_library_scenario(
        page, live_server, artifacts, path: str, field: str, value: str,
        change: Callable[[dict[str, Any]], None]) -> None:
    errors = console_errors(page)
    document = read_document(LIBRARY / path)
    ScenarioFactory(slug=document["id"], document=document)
    sign_in(page, live_server.url)
    page.goto(f"{live_server.url}/en/author/s/{document['id']}/form/")
    expect(page.locator("#preview h2")).to_have_text("Live preview")
    page.fill(field, value)
    page.get_by_role("button", name="Save a draft version").click()
    page.wait_for_url(f"**/author/s/{document['id']}/form/")
    expect(page.locator(".alert-success")).to_contain_text("Saved as draft version 2")
    page.screenshot(path=str(artifacts / f"form-editor-{document['id']}.png"))
    expected = copy.deepcopy(document)
    change(expected)
    saved = Scenario.objects.get(slug=document["id"]).latest_version()
    assert saved.number == 2 and saved.document == expected
    assert errors == [], errors
