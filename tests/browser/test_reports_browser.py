"""Problem reports in a real browser: a candidate opens "Report a problem" under the
feedback and sends it through htmx (the page stays, a thank-you comes in); an instructor
closes it with a reply from the list, in place; the candidate reads the reply. axe finds
no serious or critical violation on the way."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from scenarios.models import ProblemReport
from tests.browser.axe import AXE_JS, assert_accessible
from tests.factories import PASSWORD, InstructorFactory, ScenarioFactory, UserFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def log_in(page, base: str, username: str) -> None:
    page.goto(f"{base}/en/accounts/login/")
    page.fill("input[name=username]", username)
    page.fill("input[name=password]", PASSWORD)
    page.locator("main form button[type=submit]").click()
    page.wait_for_url(f"{base}/en/")


def test_report_reply_and_read_back(browser, live_server) -> None:
    ScenarioFactory(slug="browser-report")
    candidate, instructor = UserFactory(), InstructorFactory()
    context = browser.new_context(viewport={"width": 390, "height": 844})  # a phone
    context.add_init_script(path=str(AXE_JS))
    page = context.new_page()
    errors: list[str] = []
    page.on("console", lambda m: m.type == "error" and errors.append(m.text))
    base = live_server.url
    log_in(page, base, candidate.username)
    page.goto(f"{base}/en/practice/")
    page.fill("input[name=length]", "1")
    page.locator("button[name=mode][value=practice]").click()
    page.locator("form.answer-form input[name=answer]").fill("7")
    page.locator("form.answer-form button[type=submit]").click()
    page.locator("#problem-report summary").click()
    question_url = page.url
    assert_accessible(page, "the feedback with the report form open")
    page.locator("#problem-report input[value=unclear]").check()
    page.fill("#problem-report textarea", "<b>Which</b> Bob?")
    page.locator("#problem-report button[type=submit]").click()
    expect(page.locator("#problem-report .alert-success")).to_be_visible()
    assert page.url == question_url  # swapped in place, no reload
    expect(page.locator("#problem-report")).to_contain_text("<b>Which</b> Bob?")
    assert page.locator("#problem-report summary").count() == 0
    assert ProblemReport.objects.get().text == "<b>Which</b> Bob?"

    teacher = browser.new_context(viewport={"width": 1280, "height": 900})
    teacher.add_init_script(path=str(AXE_JS))
    desk = teacher.new_page()
    log_in(desk, base, instructor.username)
    desk.goto(f"{base}/en/author/reports/")
    card = desk.locator("article.report-card")
    expect(card).to_contain_text("The question is unclear")
    assert_accessible(desk, "the report list")
    card.locator("textarea").fill("Bob is the player on the right.")
    card.locator("button[value=close]").click()
    expect(desk.locator("article.report-card .alert-success")).to_be_visible()
    expect(desk.locator("article.report-card button[value=reopen]")).to_be_visible()
    teacher.close()

    page.reload()
    expect(page.locator("#problem-report")).to_contain_text("Bob is the player on the right.")
    expect(page.locator("#problem-report summary")).to_be_visible()  # closed: may report again
    assert errors == [], errors
    context.close()
