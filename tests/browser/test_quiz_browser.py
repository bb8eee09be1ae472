"""A practice session in a real browser: five questions in Italian, one in Spanish, and
three of the library's in French, German and Brazilian Portuguese, answered through htmx,
with feedback, up to the results page."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from scenarios.library import LIBRARY, read_document
from tests.factories import ScenarioFactory, scenario_document

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def small_library() -> None:
    for n in range(6):
        doc = scenario_document(f"browser-{n}")
        doc["setup"]["battlefield"][0]["power"] = 5 + n
        doc["questions"][0]["expect"] = 20
        ScenarioFactory(slug=f"browser-{n}", document=doc)


def answer_current_question(page) -> None:
    """Answer whatever is asked (right or wrong does not matter here)."""
    form = page.locator("form.answer-form")
    if form.locator("input[type=number][name=answer]").count():
        form.locator("input[name=answer]").fill("20")
    else:
        form.locator("input[name=answer]").first.check()
    form.locator("button[type=submit]").click()
    page.wait_for_selector(".feedback")


def play(page, base: str, language: str, length: int, artifacts) -> None:
    errors: list[str] = []
    page.on("console", lambda m: m.type == "error" and errors.append(m.text))
    page.goto(f"{base}/{language}/practice/")
    assert page.locator("html").get_attribute("lang") == language
    page.fill("input[name=length]", str(length))
    page.locator("button[name=mode][value=practice]").click()
    for n in range(length):
        page.wait_for_selector("form.answer-form")
        assert page.locator("svg").count() >= 1
        if n == 0:
            page.screenshot(path=str(artifacts / f"question-{language}.png"), full_page=True)
        # a text the language lacks is shown in English, marked (none in the library)
        assert page.locator(".untranslated").count() == 0
        answer_current_question(page)
        # the answer's response also swaps the progress bar above the question (out of band)
        expect(page.locator("#quiz-progress")).to_have_attribute("value", str(n + 1))
        feedback = page.locator(".feedback").inner_text()
        assert feedback
        assert page.locator(".trace-steps li").count() >= 1
        assert page.locator(".untranslated").count() == 0
        if n == 0:
            page.screenshot(path=str(artifacts / f"feedback-{language}.png"), full_page=True)
        page.locator("#question-card nav a.btn-primary").click()
        if n < length - 1:  # wait for the next question, not the form still on screen
            page.locator(".feedback").wait_for(state="detached")
    page.wait_for_url("**/results/")
    page.screenshot(path=str(artifacts / f"results-{language}.png"), full_page=True)
    assert errors == [], errors


def test_practice_five_questions_in_italian(page, live_server, artifacts) -> None:
    small_library()
    play(page, live_server.url, "it", 5, artifacts)
    assert "Risultati" in page.locator("h1").inner_text()


def test_practice_one_question_in_spanish(page, live_server, artifacts) -> None:
    small_library()
    play(page, live_server.url, "es", 1, artifacts)
    assert page.locator("html").get_attribute("lang") == "es"


# Three of the library's scenarios (every text in the six languages): a planeswalker
# redirection, a loyalty ability and a Planechase plane.
LIBRARY_FILES = ("redirection-era/earthquake-redirect-era.yaml",
                 "loyalty/flickered-ajani-printed-loyalty.yaml",
                 "planechase/pc-chaos-on-opponents-plane.yaml")


@pytest.mark.parametrize(("language", "results"), [
    ("fr", "Résultats"), ("de", "Ergebnisse"), ("pt-br", "Resultados")])
def test_practice_three_library_questions_in_french_german_and_portuguese(
        page, live_server, artifacts, language: str, results: str) -> None:
    for path in LIBRARY_FILES:
        document = read_document(LIBRARY / path)
        ScenarioFactory(slug=document["id"], document=document)
    play(page, live_server.url, language, 3, artifacts)
    assert results in page.locator("h1").inner_text()
