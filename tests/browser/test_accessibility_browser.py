"""axe-core on the key pages, in English and Italian: no serious or critical violation on
the home, practice, question, feedback, results, progress, history, account and authoring
pages; the era comparison table of the widest library scenario stays inside a 1366 px page
and its scrolling region is reached with Tab."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import pytest

from engine import parse, scenario_eras
from scenarios.library import LIBRARY, read_document
from tests.browser.axe import axe_violations, describe
from tests.factories import PASSWORD, InstructorFactory, ScenarioFactory, UserFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# A small library with every kind of question (number, yes/no, choice, multi, eras, assign),
# a scenario answered from the board alone, and the widest era comparison.
LIBRARY_FILES = (
    "redirection-era/earthquake-redirect-era.yaml",
    "loyalty/indestructible-gideon-zero-loyalty.yaml",
    "loyalty/flickered-ajani-printed-loyalty.yaml",
    "trample-into-planeswalkers/firecat-free-division-jace.yaml",
    "planechase/pc-face-up-plane-controller.yaml",
)
WIDEST = "redirection-era/earthquake-redirect-era.yaml"


def load(paths: Iterable[str]) -> list[str]:
    slugs = []
    for path in paths:
        document = read_document(LIBRARY / path)
        ScenarioFactory(slug=document["id"], document=document)
        slugs.append(document["id"])
    return slugs


def check(page, found: dict[str, list[dict[str, Any]]], where: str) -> None:
    """Run axe on the page as it is now; keep what it finds under ``where``."""
    violations = axe_violations(page)
    if violations:
        found[where] = violations


def report(found: dict[str, list[dict[str, Any]]]) -> str:
    return "\n\n".join(describe(v, where) for where, v in found.items())


def visit(page, base: str, language: str, paths: Iterable[str],
          found: dict[str, list[dict[str, Any]]]) -> None:
    for path in paths:
        response = page.goto(f"{base}/{language}{path}")
        assert response is not None and response.status == 200, path
        assert page.locator("html").get_attribute("lang") == language
        check(page, found, f"{language}{path}")


def sign_in(page, base: str, language: str, username: str) -> None:
    page.goto(f"{base}/{language}/accounts/login/")
    page.fill("input[name=username]", username)
    page.fill("input[name=password]", PASSWORD)
    page.locator("main form button[type=submit]").click()
    page.wait_for_url(lambda url: "/login/" not in url)


def answer_current_question(page) -> None:
    """Answer whatever is asked (right or wrong does not matter here)."""
    form = page.locator("form.answer-form")
    numbers = form.locator("input[type=number]")
    if numbers.count():
        for field in numbers.all():
            field.fill("1")
    else:
        form.locator("input[name=answer]").first.check()
    form.locator("button[type=submit]").click()
    page.wait_for_selector(".feedback")


def test_axe_reports_what_it_finds_by_rule_and_element(axe_page) -> None:
    """The helper itself: axe runs and its failure message names rule, help and target."""
    axe_page.set_content('<html lang="en"><title>t</title><main><h1>t</h1>'
                         '<input type="text" id="unnamed"><img src="x.png"></main></html>')
    message = describe(axe_violations(axe_page), "a crafted page")
    assert "label (critical): Form elements must have labels" in message
    assert "#unnamed" in message and "image-alt (critical)" in message


@pytest.mark.parametrize("language", ["en", "it"])
def test_public_and_history_pages_have_no_serious_violation(axe_page, live_server,
                                                            language: str) -> None:
    slug = load([WIDEST])[0]
    found: dict[str, list[dict[str, Any]]] = {}
    visit(axe_page, live_server.url, language, [
        "/", "/practice/", "/accounts/signup/", "/accounts/login/",
        "/history/", f"/history/scenario/{slug}/", f"/history/scenario/{slug}/what-if/",
        "/history/rules/", "/history/rules/?q=702.19c", "/history/rules/?q=zzz",
        "/history/rules/pw.redirection/",
    ], found)
    assert not found, report(found)


@pytest.mark.parametrize(("language", "length"), [("en", 4), ("it", 2)])
def test_a_candidates_practice_question_feedback_results_and_progress(
        axe_page, live_server, language: str, length: int) -> None:
    load(LIBRARY_FILES)
    UserFactory(username="candidate")
    page, base = axe_page, live_server.url
    found: dict[str, list[dict[str, Any]]] = {}
    sign_in(page, base, language, "candidate")
    page.goto(f"{base}/{language}/practice/")
    page.fill("input[name=length]", str(length))
    page.locator("button[name=mode][value=practice]").click()
    for n in range(length):
        page.wait_for_selector("form.answer-form")
        check(page, found, f"question {n + 1}, before answering")
        answer_current_question(page)
        check(page, found, f"question {n + 1}, feedback")
        page.locator("#question-card nav a.btn-primary").click()
        if n < length - 1:
            page.locator(".feedback").wait_for(state="detached")
    page.wait_for_url("**/results/")
    check(page, found, "results")
    visit(page, base, language, ["/progress/"], found)
    assert not found, report(found)


@pytest.mark.parametrize("language", ["en", "it"])
def test_an_instructors_authoring_pages_have_no_serious_violation(
        axe_page, live_server, language: str) -> None:
    slug = load([WIDEST])[0]
    InstructorFactory(username="teacher")
    sign_in(axe_page, live_server.url, language, "teacher")
    found: dict[str, list[dict[str, Any]]] = {}
    visit(axe_page, live_server.url, language, [
        "/author/", "/author/new/", f"/author/s/{slug}/", f"/author/s/{slug}/form/",
        f"/author/s/{slug}/translate/",
    ], found)
    assert not found, report(found)


def widest_comparison() -> list[str]:
    """The library scenarios whose era comparison has the most cells (eras x questions)."""
    sizes: dict[str, int] = {}
    for path in sorted(LIBRARY.glob("*/*.yaml")):
        scenario = parse(read_document(path))
        variant = scenario.variant(0)
        sizes[str(path.relative_to(LIBRARY))] = (
            len(scenario_eras(scenario, variant)) * len(variant.questions))
    most = max(sizes.values())
    return [path for path, size in sizes.items() if size == most]


def test_the_era_table_stays_inside_the_page_and_tab_reaches_it(browser, live_server,
                                                                 artifacts) -> None:
    widest = widest_comparison()
    assert WIDEST in widest  # the library test above checks this one
    context = browser.new_context(viewport={"width": 1366, "height": 768})
    page = context.new_page()
    try:
        for slug in load(widest):
            page.goto(f"{live_server.url}/en/history/scenario/{slug}/")
            assert page.evaluate("document.documentElement.scrollWidth <= innerWidth"), slug
            region = page.locator(".era-table-scroll")
            assert region.get_attribute("role") == "region"
            assert region.get_attribute("tabindex") == "0"
            assert region.get_attribute("aria-label") == "Every question in every era"
            for _ in range(40):
                page.keyboard.press("Tab")
                if page.evaluate("document.activeElement.classList.contains('era-table-scroll')"):
                    break
            else:
                pytest.fail(f"Tab never reaches the era table of {slug}")
            page.screenshot(path=str(artifacts / f"era-table-{slug}.png"))
    finally:
        context.close()


@pytest.mark.parametrize("language", ["en", "es"])
def test_a_mock_exam_its_closed_pages_hand_in_and_review(axe_page, live_server,
                                                         language: str) -> None:
    slug = load(LIBRARY_FILES)[0]
    page, base = axe_page, live_server.url
    found: dict[str, list[dict[str, Any]]] = {}
    page.goto(f"{base}/{language}/practice/")
    page.locator("button[name=mode][value=exam]").click()
    page.wait_for_selector("#exam-navigator")
    check(page, found, "exam question")
    page.locator("#flag-control button").click()
    page.locator(".exam-nav-item.is-flagged").wait_for()
    answer_form = page.locator("form.answer-form")
    numbers = answer_form.locator("input[type=number]")
    if numbers.count():
        numbers.first.fill("1")
    else:
        answer_form.locator("input[name=answer]").first.check()
    answer_form.locator("button[type=submit]").click()
    page.locator(".verdict").wait_for()
    check(page, found, "exam question, answer recorded")
    response = page.goto(f"{base}/{language}/history/scenario/{slug}/")
    assert response is not None and response.status == 403
    check(page, found, "history closed during the exam")
    page.locator("main a.btn-primary").click()  # back to the exam
    page.locator("#exam-navigator").wait_for()
    page.locator(".exam-bar a[href$='/finish/']").click()
    page.wait_for_url("**/finish/")
    check(page, found, "hand-in confirmation")
    page.locator("main form button[type=submit]").click()
    page.wait_for_url("**/results/")
    check(page, found, "exam results")
    page.locator(".list-group-item a").first.click()
    page.locator(".feedback").wait_for()
    check(page, found, "exam review")
    assert not found, report(found)
