"""Rule history in a real browser: a scenario's era comparison, then another era."""

from __future__ import annotations

import pytest

from scenarios.library import LIBRARY, read_document
from tests.factories import ScenarioFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_compare_eras_and_change_one(page, live_server, artifacts) -> None:
    document = read_document(LIBRARY / "redirection-era/lava-spike-redirected-to-garruk.yaml")
    ScenarioFactory(slug=document["id"], document=document)
    errors: list[str] = []
    page.on("console", lambda m: m.type == "error" and errors.append(m.text))
    page.goto(f"{live_server.url}/es/history/scenario/{document['id']}/?a=xln-2017&b=dom-2018")
    assert page.locator("html").get_attribute("lang") == "es"
    assert page.locator(".era-changed").count() >= 1
    diverging = page.locator("#trace-pair .trace-diverge")
    assert diverging.count() == 2
    assert "306.7" in diverging.first.inner_text()
    page.screenshot(path=str(artifacts / "history-es.png"), full_page=True)
    # Compare Ixalan with Lorwyn instead: the engine does the same thing in both.
    page.select_option("#era-b", "lrw-2007")
    page.locator("#trace-pair .trace-diverge").first.wait_for(state="detached")
    assert page.locator("#trace-pair").inner_text().count("212.9g") == 1
    assert errors == [], errors
