"""An endless drill in a real browser (issue 18), in English, Italian and Spanish: three
of the library's generators, each question's board drawn afresh; the level moves after
each answer, and stopping shows the summary with the level reached."""

from __future__ import annotations

import pytest
from django.utils import translation
from django.utils.formats import number_format
from playwright.sync_api import expect

from quiz.drill import LEVEL_START, next_level
from quiz.models import QuizSession
from scenarios.library import LIBRARY, read_document
from tests.browser.test_quiz_browser import answer_current_question
from tests.factories import ScenarioFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

GENERATORS = ("trample-into-planeswalkers/gen-trampler-into-walker.yaml",
              "redirection-era/gen-burn-redirect-loyalty-life.yaml",
              "planechase/gen-pc-roll-then-effect-roll.yaml")


@pytest.mark.parametrize(("language", "stop", "results"), [
    ("en", "Stop the drill", "Results"), ("it", "Ferma l'allenamento", "Risultati"),
    ("es", "Terminar el entrenamiento", "Resultados")])
def test_an_endless_drill_adapts_and_stops_when_asked(page, live_server, artifacts,
                                                      language: str, stop: str,
                                                      results: str) -> None:
    for path in GENERATORS:
        document = read_document(LIBRARY / path)
        ScenarioFactory(slug=document["id"], document=document)
    errors: list[str] = []
    page.on("console", lambda m: m.type == "error" and errors.append(m.text))
    page.goto(f"{live_server.url}/{language}/practice/")
    page.locator("input[value=mixed]").check()  # every era the generators are asked in
    page.locator("button[name=mode][value=drill]").click()
    levels, level = [], LEVEL_START
    for n in range(4):
        page.wait_for_selector("form.answer-form")
        assert page.locator("svg").count() >= 1
        assert page.locator(".untranslated").count() == 0
        levels.append(page.locator("#quiz-progress").inner_text())
        if n == 0:
            page.screenshot(path=str(artifacts / f"drill-{language}.png"), full_page=True)
        answer_current_question(page)
        # the level above the question is swapped with the answer (out of band): up after
        # a right answer, down after a wrong one
        session = QuizSession.objects.latest("created_at")
        right = session.items.get(position=n + 1).attempt.correct
        assert session.level == next_level(level, right)
        level = session.level
        with translation.override(language):
            shown = number_format(level, 1)
        expect(page.locator("#quiz-progress")).to_contain_text(f"{shown} ")
        assert page.locator(".trace-steps li").count() >= 1
        page.locator("#question-card nav a.btn-primary").click()
        page.locator(".feedback").wait_for(state="detached")
    page.wait_for_selector("form.answer-form")
    page.get_by_role("button", name=stop).click()
    page.wait_for_url("**/results/")
    assert results in page.locator("h1").inner_text()
    assert page.locator("ol.list-group li").count() == 4  # the waiting question is dropped
    page.screenshot(path=str(artifacts / f"drill-results-{language}.png"), full_page=True)
    assert errors == [], errors
