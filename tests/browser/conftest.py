"""Browser tests: Python Playwright driving Debian's Chromium against live_server.

Playwright's sync API runs an asyncio event loop in the test thread; the Django code that
the test itself runs (fixtures creating users) is still synchronous, so allow it, but only
while a browser is open: the variable is restored when the module's browser closes, so no
other test (nor a subprocess such as the deploy check) ever inherits it.
"""

import os
from pathlib import Path

import pytest

CHROMIUM = Path(os.environ.get("CHROMIUM_PATH", "/usr/bin/chromium"))
ARTIFACTS = Path(__file__).parent / "artifacts"
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


@pytest.fixture(scope="module")
def browser():
    if not CHROMIUM.exists():
        if os.environ.get("CI"):
            pytest.fail(f"{CHROMIUM} is missing: install Debian's chromium package")
        pytest.skip(f"{CHROMIUM} is missing (apt-get install chromium); browser tests skipped")
    sync_api = pytest.importorskip("playwright.sync_api")
    previous = os.environ.get("DJANGO_ALLOW_ASYNC_UNSAFE")
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    try:
        with sync_api.sync_playwright() as playwright:
            browser = playwright.chromium.launch(
                executable_path=str(CHROMIUM), args=CHROMIUM_ARGS, headless=True
            )
            yield browser
            browser.close()
    finally:
        if previous is None:
            os.environ.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
        else:
            os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = previous


@pytest.fixture
def page(browser):
    context = browser.new_context(viewport={"width": 1280, "height": 900}, locale="en-GB")
    page = context.new_page()
    yield page
    context.close()


@pytest.fixture
def artifacts() -> Path:
    ARTIFACTS.mkdir(exist_ok=True)
    return ARTIFACTS


@pytest.fixture
def axe_page(browser):
    """A page whose context carries axe-core (tests/browser/axe.py). It is added as an init
    script: Playwright's script tag would be inline, which the site's CSP (script-src
    'self') blocks, while the pages must be checked with their real CSP in force."""
    from tests.browser.axe import AXE_JS

    if not AXE_JS.exists():
        pytest.fail(f"{AXE_JS} is missing: run `npm ci` in the project root")
    context = browser.new_context(viewport={"width": 1280, "height": 900}, locale="en-GB")
    context.add_init_script(path=str(AXE_JS))
    page = context.new_page()
    yield page
    context.close()
