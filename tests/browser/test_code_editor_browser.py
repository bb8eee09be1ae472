"""The YAML editor as a code editor, in Debian's Chromium as an instructor: line numbers, a
marker at the line of each problem the live preview finds, completion from the JSON
Schema, saving; no console error and no Content Security Policy violation; keyboard users
can leave it; axe finds nothing serious; and without JavaScript the plain textarea saves."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.conf import settings
from playwright.sync_api import Page, expect

from scenarios import editing
from scenarios.library import LIBRARY, read_document
from scenarios.models import Scenario
from tests.browser.axe import assert_accessible
from tests.factories import PASSWORD, InstructorFactory, ScenarioFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

BUNDLE = Path(settings.BASE_DIR) / "static" / "js" / "yaml-editor.js"
EDITOR = ".yaml-editor .cm-editor"
# Recorded by the page itself: Chromium also logs each violation to the console.
CSP_LISTENER = """
window.__cspViolations = [];
document.addEventListener("securitypolicyviolation", (event) => {
  window.__cspViolations.push(event.violatedDirective + " " + (event.blockedURI || "inline"));
});
"""


@pytest.fixture(autouse=True)
def built_bundle() -> None:
    if not BUNDLE.exists():
        pytest.fail(f"{BUNDLE} is missing: run `make assets` (npm run build)")


def sign_in(page: Page, base: str, language: str = "en") -> None:
    page.goto(f"{base}/{language}/accounts/login/")
    page.fill("input[name=username]", "teacher")
    page.fill("input[name=password]", PASSWORD)
    page.locator("main form button[type=submit]").click()
    page.wait_for_url(lambda url: "/login/" not in url)


def watch(page: Page) -> list[str]:
    """Console errors, uncaught exceptions and CSP violations, as they happen."""
    problems: list[str] = []
    page.add_init_script(CSP_LISTENER)
    page.on("console", lambda m: (m.type == "error" or "Content Security Policy" in m.text)
            and problems.append(m.text))
    page.on("pageerror", lambda error: problems.append(str(error)))
    return problems


def edit_line(page: Page, text: str, typed: str, erase: int = 0) -> None:
    """Click the editor's line showing ``text``, go to its end, erase, then type.
    CodeMirror draws only the lines in view (and the order of a stored document's keys
    depends on the database: PostgreSQL's jsonb sorts them), so scroll until it shows."""
    line = page.locator(".cm-line", has_text=text).first
    for _ in range(40):
        if line.count():
            break
        page.locator(".cm-scroller").evaluate("s => { s.scrollTop += s.clientHeight / 2; }")
        page.wait_for_timeout(50)
    line.scroll_into_view_if_needed()
    line.click()
    page.keyboard.press("End")
    for _ in range(erase):
        page.keyboard.press("Backspace")
    page.keyboard.type(typed)


def test_code_editor_numbers_lines_marks_a_problem_at_its_line_and_saves(
        page: Page, live_server, artifacts) -> None:
    InstructorFactory(username="teacher")
    problems = watch(page)
    sign_in(page, live_server.url)
    page.goto(f"{live_server.url}/en/author/new/")
    expect(page.locator(EDITOR)).to_be_visible()
    expect(page.locator("#source")).to_be_hidden()
    lines = len(editing.NEW_DOCUMENT.splitlines())
    numbers = page.locator(".cm-lineNumbers .cm-gutterElement:visible")
    expect(numbers.filter(has_text=str(lines))).to_have_count(1)
    expect(page.locator("#source-keys")).to_be_visible()  # the keyboard hint

    edit_line(page, "difficulty: 2", "9", erase=1)
    marked = page.locator(".cm-line:has(.cm-lintRange-error)")
    expect(marked).to_have_text("difficulty: 9")
    expect(page.locator(".cm-lint-marker-error")).to_have_count(1)
    line = editing.NEW_DOCUMENT.splitlines().index("difficulty: 2") + 1
    expect(page.locator(f'#preview li[data-line="{line}"]')).to_contain_text("difficulty")
    page.screenshot(path=str(artifacts / "code-editor-marker.png"), full_page=True)

    edit_line(page, "difficulty: 9", "2", erase=1)
    expect(page.locator(".cm-lint-marker-error")).to_have_count(0)
    edit_line(page, "id: new-scenario", "-in-code")
    assert "id: new-scenario-in-code" in page.locator("#source").input_value()
    page.locator("button[name=action][value=save]").click()
    page.wait_for_url("**/author/s/new-scenario-in-code/")
    scenario = Scenario.objects.get(slug="new-scenario-in-code")
    assert scenario.latest_version().document["difficulty"] == 2
    expect(page.locator(EDITOR)).to_contain_text("id: new-scenario-in-code")
    assert page.evaluate("window.__cspViolations") == []
    assert problems == [], problems


def test_code_editor_completes_keys_and_values_from_the_schema(page: Page, live_server) -> None:
    InstructorFactory(username="teacher")
    problems = watch(page)
    sign_in(page, live_server.url)
    page.goto(f"{live_server.url}/en/author/new/")
    edit_line(page, "kind: number", "yes", erase=len("number"))
    options = page.locator(".cm-tooltip-autocomplete li")
    # A click, not Enter: CodeMirror ignores Enter for 75 ms after the list changes.
    options.filter(has_text="yesno").click()
    expect(page.locator(".cm-line", has_text="kind: yesno")).to_have_count(1)
    edit_line(page, "difficulty: 2", "\n")
    page.keyboard.press("Control+Space")
    expect(options.filter(has_text="eras")).to_have_count(1)
    expect(options.filter(has_text="topic")).to_have_count(0)  # already written above
    options.filter(has_text="eras").click()
    expect(page.locator(".cm-line", has_text="eras:")).to_have_text("eras: ")
    assert problems == [], problems


def test_code_editor_works_without_the_schema(page: Page, live_server) -> None:
    InstructorFactory(username="teacher")
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.route("**/schema.json", lambda route: route.fulfill(status=404, body="gone"))
    sign_in(page, live_server.url)
    page.goto(f"{live_server.url}/en/author/new/")
    edit_line(page, "difficulty: 2", "\n")
    page.keyboard.press("Control+Space")
    page.keyboard.type("eras: [fdn-2024]")
    expect(page.locator(".cm-line", has_text="eras: [fdn-2024]")).to_have_count(1)
    expect(page.locator(".cm-tooltip-autocomplete")).to_have_count(0)
    assert "eras: [fdn-2024]" in page.locator("#source").input_value()
    assert errors == [], errors


def test_keyboard_users_indent_with_tab_and_leave_with_escape_then_tab(
        axe_page: Page, live_server) -> None:
    """On a library scenario long enough for the editor to scroll, with a problem marked."""
    page = axe_page
    InstructorFactory(username="teacher")
    document = read_document(LIBRARY / "redirection-era/earthquake-redirect-era.yaml")
    ScenarioFactory(slug=document["id"], document=document)
    sign_in(page, live_server.url)
    page.goto(f"{live_server.url}/en/author/s/{document['id']}/")
    content = page.locator(".cm-content")
    expect(content).to_have_accessible_name("The scenario document (YAML)")
    edit_line(page, "difficulty: 3", "9", erase=1)
    expect(page.locator(".cm-lint-marker-error")).to_have_count(1)
    page.keyboard.press("Home")
    page.keyboard.press("Tab")
    expect(page.locator(".cm-line", has_text="difficulty: 9")).to_have_text("  difficulty: 9")
    assert page.evaluate("document.activeElement.classList.contains('cm-content')")
    page.keyboard.press("Escape")
    page.keyboard.press("Tab")
    assert not page.evaluate("!!document.activeElement.closest('.cm-editor')")
    assert page.evaluate("""() => {
        const scroller = document.querySelector('.cm-scroller');
        return scroller.scrollHeight > scroller.clientHeight;
    }"""), "the editor scrolls: axe checks that keyboard users can reach it"
    assert_accessible(page, "the YAML editor with a problem marked")


def test_yaml_editor_saves_without_javascript(browser, live_server) -> None:
    InstructorFactory(username="teacher")
    context = browser.new_context(java_script_enabled=False, locale="en-GB")
    page = context.new_page()
    try:
        sign_in(page, live_server.url)
        page.goto(f"{live_server.url}/en/author/new/")
        expect(page.locator(".cm-editor")).to_have_count(0)
        source = page.locator("#source")
        source.fill(source.input_value().replace("id: new-scenario", "id: no-script"))
        page.locator("button[name=action][value=save]").click()
        page.wait_for_url("**/author/s/no-script/")
        assert Scenario.objects.filter(slug="no-script").exists()
    finally:
        context.close()
