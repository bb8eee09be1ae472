"""The board and the card texts in a real browser: hovering a card, reaching it with Tab
and tapping it show its Oracle wording of the question's era; Escape and a tap elsewhere
close it; on a 390 px phone the narrow board draws names and numbers at 11 px or more.
Screenshots in English, Italian and Spanish at 1280 and 390 px go to the artifacts."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.conf import settings
from playwright.sync_api import expect

from quiz.models import QuizItem, QuizSession
from scenarios.library import read_document
from tests.browser.axe import assert_accessible
from tests.conftest import LANGUAGES
from tests.factories import PASSWORD, ScenarioFactory, UserFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

LIBRARY = Path(settings.BASE_DIR) / "scenarios" / "library"
BOLT_OLD = "Lightning Bolt deals 3 damage to target creature or player."
BOLT_NEW = "Lightning Bolt deals 3 damage to any target."
OPEN = ".card-pop:popover-open"
WIDE = "svg.board-svg:not(.board-svg--narrow)"
NARROW = "svg.board-svg--narrow"


def question(live_server, page, *items: tuple[str, str, str]) -> str:
    """Sign in a new candidate with a session of the given (scenario, question, era)
    items; the session's URL."""
    user = UserFactory()
    session = QuizSession.objects.create(user=user, mode="practice", length=len(items))
    for n, (path, qid, era) in enumerate(items, start=1):
        doc = read_document(LIBRARY / path)
        scenario = ScenarioFactory(slug=doc["id"], document=doc)
        QuizItem.objects.create(session=session, position=n, question_id=qid, era=era,
                                version=scenario.current_version, seed=0)
    page.goto(f"{live_server.url}/en/accounts/login/")
    page.fill("input[name=username]", user.username)
    page.fill("input[name=password]", PASSWORD)
    page.locator("main form button[type=submit]").click()
    page.wait_for_url(lambda url: "/login/" not in url)
    return f"{live_server.url}/{{language}}/quiz/{session.pk}/q/{{n}}/"


def test_hover_focus_and_click_show_the_wording_of_the_era(axe_page, live_server, artifacts):
    page = axe_page  # with axe-core loaded (conftest.py)
    errors: list[str] = []
    page.on("console", lambda m: m.type == "error" and errors.append(m.text))
    page.on("pageerror", lambda e: errors.append(str(e)))
    url = question(live_server, page,
                   ("redirection-era/burn-targets-by-era.yaml", "bolt-at-bob", "xln-2017"),
                   ("trample-into-planeswalkers/firecat-double-block-garruk.yaml",
                    "what-is-legal", "m10-2009"))
    page.goto(url.format(language="en", n=1))
    # a click on a card named in the story: Lightning Bolt as worded in Ixalan
    bolt = page.locator(".story .card-ref", has_text="Lightning Bolt")
    bolt.click()
    pop = page.locator(OPEN)
    expect(pop).to_have_count(1)
    expect(pop).to_contain_text(BOLT_OLD)
    expect(pop).to_contain_text("Oracle text, in English")
    page.mouse.move(2, 2)
    page.wait_for_timeout(400)
    expect(pop).to_have_count(1)  # opened by a click: it stays
    page.keyboard.press("Escape")
    expect(page.locator(OPEN)).to_have_count(0)

    # hover a card in the picture; leave it and the text goes
    liliana = page.locator(f'{WIDE} [data-card-text][data-object="liliana"]')
    expect(liliana).to_have_accessible_name("Liliana Vess Planeswalker 5")
    liliana.hover()
    expect(page.locator(OPEN)).to_contain_text("Liliana Vess")
    expect(liliana).to_have_attribute("aria-expanded", "true")
    page.screenshot(path=str(artifacts / "board-hover-en.png"))
    page.mouse.move(2, 2)
    expect(page.locator(OPEN)).to_have_count(0)

    # Tab reaches the story's cards, then the board's: each shows its text on focus
    page.locator("h1").click()
    described, in_svg = [], 0
    for _ in range(8):  # the story's six card names, then the board's two cards
        page.keyboard.press("Tab")
        target = page.evaluate("document.activeElement.getAttribute('aria-describedby')")
        assert target and target.startswith("card-text-")
        expect(page.locator(OPEN)).to_have_attribute("id", target)
        described.append(target)
        in_svg += page.evaluate("document.activeElement.closest('svg') !== null")
    assert len(set(described)) == 5 and in_svg == 2
    page.screenshot(path=str(artifacts / "board-focus-en.png"))
    page.keyboard.press("Escape")
    expect(page.locator(OPEN)).to_have_count(0)

    # a click anywhere else closes a text opened by a click
    liliana.click()
    expect(page.locator(OPEN)).to_have_count(1)
    page.locator("h1").click()
    expect(page.locator(OPEN)).to_have_count(0)
    assert_accessible(page, "question page with card texts")
    assert errors == [], errors


def test_the_wording_follows_the_era_of_the_question(page, live_server):
    url = question(live_server, page,
                   ("redirection-era/burn-targets-by-era.yaml", "bolt-at-bob", "dom-2018"))
    page.goto(url.format(language="it", n=1))
    page.locator(".story .card-ref", has_text="Fulmine").click()
    pop = page.locator(OPEN)
    expect(pop).to_contain_text("Fulmine")
    expect(pop).to_contain_text("Lightning Bolt")
    expect(pop).to_contain_text(BOLT_NEW)
    assert BOLT_OLD not in pop.inner_text()


def _rendered_sizes(page, selector: str) -> list[float]:
    """The drawn font size, in CSS pixels, of each text matching ``selector`` in the
    board shown: its font size times the SVG's scale."""
    return page.evaluate(
        """(sel) => [...document.querySelectorAll(sel)]
             .filter(el => el.getClientRects().length)
             .map(el => parseFloat(getComputedStyle(el).fontSize) * el.getScreenCTM().a)""",
        selector)


@pytest.mark.parametrize("language", LANGUAGES)
def test_on_a_phone_the_board_is_narrow_readable_and_opens_on_tap(browser, live_server,
                                                                  artifacts, language):
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True,
                                  has_touch=True, device_scale_factor=2)
    page = context.new_page()
    try:
        url = question(live_server, page,
                       ("trample-into-planeswalkers/firecat-double-block-garruk.yaml",
                        "what-is-legal", "m10-2009"),
                       ("two-headed-giant/thg-block-for-teammate.yaml", "bd-life",
                        "dom-2018"))
        for n in (1, 2):
            page.goto(url.format(language=language, n=n))
            expect(page.locator(NARROW)).to_be_visible()
            expect(page.locator(WIDE)).to_be_hidden()
            sizes = _rendered_sizes(page, f"{NARROW} .board-card-name, {NARROW} "
                                          f".board-badge-text, {NARROW} .board-life-value, "
                                          f"{NARROW} .board-player-name, {NARROW} .board-zones")
            assert sizes and min(sizes) >= 11, (language, n, min(sizes))
            width = page.evaluate("document.documentElement.scrollWidth")
            assert width <= 390, "nothing makes the page scroll sideways"
            page.screenshot(path=str(artifacts / f"board-{language}-390-{n}.png"),
                            full_page=True)
        card = page.locator(f"{NARROW} [data-card-text]").first
        card.tap()
        expect(page.locator(OPEN)).to_have_count(1)
        page.screenshot(path=str(artifacts / f"board-tap-{language}-390.png"))
        page.locator("h1").tap()
        expect(page.locator(OPEN)).to_have_count(0)
        page.locator(".story .card-ref").first.tap()
        expect(page.locator(OPEN)).to_have_count(1)
        card.tap()  # another card: its text instead
        expect(page.locator(OPEN)).to_have_count(1)
    finally:
        context.close()


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_wide_board_at_1280(page, live_server, artifacts, language):
    url = question(live_server, page,
                   ("trample-into-planeswalkers/firecat-double-block-garruk.yaml",
                    "what-is-legal", "m10-2009"),
                   ("two-headed-giant/thg-block-for-teammate.yaml", "bd-life", "dom-2018"))
    for n in (1, 2):
        page.goto(url.format(language=language, n=n))
        expect(page.locator(WIDE)).to_be_visible()
        expect(page.locator(NARROW)).to_be_hidden()
        sizes = _rendered_sizes(page, f"{WIDE} .board-card-name, {WIDE} .board-badge-text")
        assert min(sizes) >= 11
        page.screenshot(path=str(artifacts / f"board-{language}-1280-{n}.png"), full_page=True)
