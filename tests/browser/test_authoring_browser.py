"""An instructor builds a scenario in the browser: edits it, watches the live preview,
translates it side by side and publishes it."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from scenarios.models import Scenario
from tests.factories import PASSWORD, InstructorFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def type_in_editor(page, text: str) -> None:
    """Replace the code editor's text as a person would: select all, delete, type.
    (Playwright's fill() on the editable area makes Chromium merge the selected lines
    into one with a style attribute, which the CSP then reports.)"""
    page.locator(".cm-content").click()
    page.keyboard.press("Control+A")
    page.keyboard.press("Delete")
    page.keyboard.insert_text(text)


def test_instructor_builds_translates_and_publishes(page, live_server, artifacts) -> None:
    instructor = InstructorFactory(username="teacher")
    errors: list[str] = []
    page.on("console", lambda m: m.type == "error" and errors.append(m.text))
    page.goto(f"{live_server.url}/en/accounts/login/")
    page.fill("input[name=username]", instructor.username)
    page.fill("input[name=password]", PASSWORD)
    page.locator("main form button[type=submit]").click()
    page.wait_for_url(lambda url: "/login/" not in url)  # signed in before moving on
    page.goto(f"{live_server.url}/en/author/")
    page.get_by_role("link", name="New scenario in YAML").click()
    page.wait_for_url("**/author/new/")
    source = page.locator("#source")  # the form field, kept in step by the code editor
    text = source.input_value().replace("id: new-scenario", "id: browser-built")
    text = text.replace("expect: 20", "expect: 17")
    type_in_editor(page, text)
    page.wait_for_selector("#preview td.table-danger")  # the live preview flags expect
    page.screenshot(path=str(artifacts / "author-preview.png"), full_page=True)
    type_in_editor(page, text.replace("expect: 17", "expect: 20"))
    page.locator("#preview td.table-danger").first.wait_for(state="detached")
    page.locator("button[name=action][value=save]").click()
    page.wait_for_url("**/author/s/browser-built/")
    assert Scenario.objects.get(slug="browser-built").status == "draft"
    page.get_by_role("link", name="Translations").click()
    # .all() does not wait: be on the translations page before listing its fields.
    page.wait_for_url("**/author/s/browser-built/translate/")
    # English beside one language at a time: Italian first (the first with texts missing),
    # then Spanish from its tab; the two required besides English to publish.
    for version, (language, tab, word) in enumerate(
            [("it", "Italiano", "Testo"), ("es", "Español", "Texto")], start=2):
        page.get_by_role("link", name=tab).click()
        page.wait_for_url(f"**/translate/?to={language}")
        missing = page.locator("textarea.is-invalid").all()
        assert missing, f"the new scenario has {language} texts to fill"
        for field in missing:
            name = field.get_attribute("name") or ""
            assert name.endswith(f":{language}"), name
            field.fill(f"{word} {name.split(':')[1]}")
        page.screenshot(path=str(artifacts / f"author-translate-{language}.png"),
                        full_page=True)
        page.locator("main form button[type=submit]").click()
        expect(page.locator(".alert-success")).to_contain_text(
            f"Saved as draft version {version}")
    page.goto(f"{live_server.url}/en/author/s/browser-built/")
    page.locator("button[name=action][value=publish]").click()
    expect(page.locator(".alert-success")).to_contain_text("Version 3 is published")
    scenario = Scenario.objects.get(slug="browser-built")
    assert scenario.status == "published"
    assert scenario.current_version.document["title"]["it"].startswith("Testo")
    assert errors == [], errors
