"""Rule-history reads in the reader's language: what-if controls, era comparison cells,
and the what-if's message when an era can't run the scenario."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation

from quiz import history
from tests.factories import ScenarioFactory, scenario_document

pytestmark = pytest.mark.django_db

YESNO = {"id": "wurm-blocked", "kind": "yesno",
         "ask": {"en": "Is {wurm} blocked?", "it": "{wurm} è bloccato?",
                 "es": "¿Está bloqueada {wurm}?"},
         "answer": {"blocked": "wurm"}, "expect": True}


def test_what_if_controls_are_labelled_in_the_readers_language(client: Client) -> None:
    scenario = ScenarioFactory(slug="whatif-it")
    with translation.override("it"):
        url = reverse("quiz:what_if", args=[scenario.slug])
    html = client.get(url).content.decode()
    assert "Wurm: forza" in html and "Wurm: costituzione" in html
    assert ": fedeltà" in html
    assert ": P<" not in html and ": T<" not in html
    assert "<td>campo di battaglia</td>" in html and "<td>battlefield</td>" not in html


def test_comparison_cells_show_answers_in_words() -> None:
    document = scenario_document("compare-words")
    document["questions"].append(YESNO)
    version = ScenarioFactory(slug="compare-words", document=document).current_version
    with translation.override("es"):
        rows = {r["id"]: r for r in history.comparison(version, "es").rows}
    cells = [c["text"] for c in rows["wurm-blocked"]["cells"]]
    assert cells == ["Sí"] * len(version.answer_keys)
    assert {c["text"] for c in rows["life"]["cells"]} == {"20"}


def test_what_if_in_an_era_the_scenario_does_not_run_in_says_so() -> None:
    version = ScenarioFactory(
        slug="one-era", document=scenario_document("one-era", eras=["dom-2018"]),
    ).current_version
    result = history.what_if(version, "lrw-2007", {}, "en")
    assert result["errors"] == [
        "Not every card and mechanic of this scenario exists under the Lorwyn (2007-10-01) "
        "rules."]


def test_every_library_scenario_runs_in_what_if_as_it_stands() -> None:
    """Opening the what-if page runs the scenario with its controls as they are; a
    scenario with parameters (a loyalty of $l, a card of $walker) runs at its defaults."""
    from scenarios.library import LIBRARY, read_document

    failures = []
    for path in sorted(LIBRARY.glob("*/*.yaml")):
        document = read_document(path)
        version = ScenarioFactory(slug=document["id"], document=document).current_version
        era = list(version.answer_keys)[-1]
        result = history.what_if(version, era, {}, "en")
        if result["errors"]:
            failures.append((path.stem, result["errors"]))
    assert not failures, failures


def test_what_if_changes_a_value_a_parameter_gave() -> None:
    from scenarios.library import LIBRARY, read_document

    document = read_document(LIBRARY / "planechase/pc-great-forest-rhino-tramples-garruk.yaml")
    version = ScenarioFactory(slug=document["id"], document=document).current_version
    garruk = next(i for i, o in enumerate(document["setup"]["battlefield"])
                  if o["id"] == "garruk")
    result = history.what_if(version, "fdn-2024", {f"bf-{garruk}-loyalty": "5"}, "en")
    assert not result["errors"]
    assert ("Garruk Wildspeaker", "battlefield", 5, 0) in result["objects"]
