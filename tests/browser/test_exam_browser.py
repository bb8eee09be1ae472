"""A mock exam in a real browser: the clock counts down, a question is skipped and
flagged, the navigator brings it back, the hand-in asks for confirmation, the review
opens; with the keyboard alone, focus lands on the verdict after answering."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.browser.test_quiz_browser import small_library

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_exam_skip_flag_come_back_clock_and_hand_in(page, live_server, artifacts) -> None:
    small_library()
    errors: list[str] = []
    page.on("console", lambda m: m.type == "error" and errors.append(m.text))
    page.goto(f"{live_server.url}/en/practice/")
    page.locator("button[name=mode][value=exam]").click()
    page.wait_for_url(re.compile(r".*/q/1/$"))
    clock = page.locator("#exam-countdown")
    first = clock.inner_text()
    expect(clock).not_to_have_text(first, timeout=3000)  # the clock moves
    assert re.fullmatch(r"\d{1,2}:\d\d", clock.inner_text())
    assert page.locator(".exam-nav-item").count() == 6
    page.screenshot(path=str(artifacts / "exam-question-en.png"), full_page=True)
    # flag question 1 (htmx), then skip it
    page.get_by_role("button", name=re.compile("Flag to come back")).click()
    expect(page.locator(".exam-nav-item").first).to_have_class(re.compile("is-flagged"))
    page.get_by_role("link", name="Skip for now").click()
    page.wait_for_url(re.compile(r".*/q/2/$"))
    # answer question 2
    page.locator("form.answer-form input[name=answer]").fill("20")
    page.locator("form.answer-form button[type=submit]").click()
    expect(page.locator(".verdict")).to_be_focused()
    expect(page.locator(".exam-nav-item").nth(1)).to_have_class(re.compile("is-answered"))
    # come back to the flagged question from the navigator
    page.locator(".exam-nav-item").first.click()
    page.wait_for_url(re.compile(r".*/q/1/$"))
    page.locator("form.answer-form input[name=answer]").fill("20")
    page.locator("form.answer-form button[type=submit]").click()
    expect(page.locator(".verdict")).to_contain_text("Answer recorded")
    # hand in: a confirmation with the count of unanswered questions
    page.get_by_role("link", name="Hand in the exam").click()
    page.wait_for_url("**/finish/")
    expect(page.locator(".alert-warning")).to_contain_text("4 questions are not answered yet")
    page.screenshot(path=str(artifacts / "exam-hand-in-en.png"), full_page=True)
    page.get_by_role("button", name="Yes, hand in the exam").click()
    page.wait_for_url("**/results/")
    page.screenshot(path=str(artifacts / "exam-results-en.png"), full_page=True)
    # the review: each question's feedback is open now
    page.locator(".list-group-item a").first.click()
    expect(page.locator(".feedback")).to_be_visible()
    assert errors == [], errors


def test_the_exam_hands_itself_in_at_the_deadline(page, live_server) -> None:
    from datetime import timedelta

    from django.utils import timezone

    from quiz.models import QuizSession

    small_library()
    page.goto(f"{live_server.url}/it/practice/")
    page.locator("button[name=mode][value=exam]").click()
    page.wait_for_url(re.compile(r".*/q/1/$"))
    # a few seconds left (enough for the reload on a loaded machine): the page warns at
    # once, then the script hands the exam in by going to the results at zero
    QuizSession.objects.update(deadline=timezone.now() + timedelta(seconds=10))
    page.reload()
    expect(page.locator("#exam-clock-box")).to_have_class(re.compile("is-warning"))
    page.wait_for_url("**/results/", timeout=30000)
    expect(page.locator(".alert-warning")).to_contain_text("consegnato automaticamente")


def test_a_question_answered_with_the_keyboard_alone(page, live_server) -> None:
    small_library()
    page.goto(f"{live_server.url}/es/practice/")
    page.fill("input[name=length]", "1")
    page.locator("button[name=mode][value=practice]").focus()
    page.keyboard.press("Enter")
    page.wait_for_selector("form.answer-form")
    page.locator("form.answer-form input[name=answer]").focus()
    page.keyboard.type("20")
    page.keyboard.press("Enter")
    verdict = page.locator(".verdict")
    expect(verdict).to_be_focused()
    assert verdict.get_attribute("role") == "status"
    assert page.locator("[aria-live]").filter(has=page.locator(".trace-steps")).count() == 0
