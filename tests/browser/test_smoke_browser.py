"""The site in a real browser: Italian home page, language switch, no CSP violations."""

import pytest

pytestmark = pytest.mark.browser


def collect_console_errors(page) -> list[str]:
    errors: list[str] = []
    page.on("console", lambda message: message.type == "error" and errors.append(message.text))
    page.on("pageerror", lambda error: errors.append(str(error)))
    return errors


def test_italian_home_page_then_switch_to_spanish(page, live_server, artifacts):
    errors = collect_console_errors(page)

    page.goto(f"{live_server.url}/it/")

    assert page.locator("html").get_attribute("lang") == "it"
    heading = page.locator("h1").inner_text()
    assert heading == "Padroneggia le regole dei planeswalker, uno scenario alla volta"
    page.screenshot(path=str(artifacts / "home-it.png"), full_page=True)

    # the language menu names the page's language; open, it lists each in itself
    page.locator(".language-menu > summary").click()
    page.get_by_role("button", name="Español").click()
    page.wait_for_url(f"{live_server.url}/es/")

    assert page.locator("html[lang=es]").count() == 1
    assert page.locator("h1").inner_text() == (
        "Domina las reglas de los planeswalkers, escenario a escenario"
    )
    assert page.evaluate("typeof window.htmx") == "object"
    assert page.evaluate("typeof window.bootstrap") == "object"
    assert errors == [], errors  # includes Content-Security-Policy violations


def test_navbar_collapses_and_opens_on_a_phone(browser, live_server, artifacts):
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True)
    page = context.new_page()
    errors = collect_console_errors(page)
    try:
        page.goto(f"{live_server.url}/en/practice/")
        menu_link = page.get_by_role("link", name="Rule history")
        assert not menu_link.is_visible()

        page.get_by_role("button", name="Toggle navigation").click()

        menu_link.wait_for(state="visible")
        page.locator("#main-nav.collapse.show").wait_for()  # transition finished
        page.screenshot(path=str(artifacts / "practice-en-mobile-menu.png"))
        assert errors == [], errors
    finally:
        context.close()
