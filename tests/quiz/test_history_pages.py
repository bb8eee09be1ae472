"""Rule-history reads in the reader's language: what-if controls, era comparison cells,
the what-if's message when an era can't run the scenario, rule pills that link to their
rule pages, and an explanation that says so when no action was run."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation

from engine import find_era, parse, rulebook, run_variant, scenario_eras
from quiz import history
from quiz.presenters import explained_html
from quiz.templatetags.rules import rule_pill
from scenarios.library import LIBRARY, read_document
from scenarios.presentation.explain import explain_trace
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


def test_what_if_runs_only_the_variant_and_era_asked(monkeypatch) -> None:
    """A public page: no whole-document check of every variant in every era per request
    (up to a third of a second at the work budget); its answers are those the check gives
    for that era."""
    from engine import check, play
    from scenarios.library import LIBRARY, read_document

    document = read_document(LIBRARY / "removed-attack-target/rat-downfall-before-blocks.yaml")
    version = ScenarioFactory(slug=document["id"], document=document).current_version
    era = version.eras_in_order[-1]
    full = check.check_document(document)
    runs: list[str] = []

    def counted(era_class, variant):
        runs.append(era_class.key)
        return play(era_class, variant)

    monkeypatch.setattr(check, "check_document", lambda *a, **k: pytest.fail("full check"))
    monkeypatch.setattr("scenarios.presentation.present.play", counted)  # the other eras
    monkeypatch.setattr("engine.runner.play", counted)
    result = history.what_if(version, era, {}, "en")
    assert not result["errors"]
    assert set(runs) <= {era} | set(version.eras_in_order) and runs.count(era) == 1
    shown = dict(result["answers"])
    for q in full.scenario.variant(0).questions:
        from scenarios.presentation.labels import render_text

        ask = render_text(q.ask, "en", full.scenario.variant(0))
        assert shown[ask] != "—", q.id  # every question answered, as the check answers it


PILL = re.compile(r'<a class="badge text-bg-light border trace-rule" href="([^"]+)" '
                  r'aria-label="([^"]+)">([^<]+?)( <span class="trace-unsure">[^<]+</span>)?</a>')


def assert_pills_link_to_their_rules(html: str, language: str = "en") -> int:
    """Every rule pill on the page is a link to the page of the rule it cites, named
    "Rule <number>"; returns how many there are."""
    pills = PILL.findall(html)
    assert html.count("trace-rule") == len(pills)  # no pill left as plain text
    with translation.override(language):
        for href, label, number, unsure in pills:
            key = href.rstrip("/").rsplit("/", 1)[-1]
            assert href == reverse("quiz:rule", args=[key])
            assert key in rulebook.catalogue()
            versions = [v for v in rulebook.history(key) if v["number"] == number]
            assert versions
            if unsure:  # shown as not verified only where the rules facts say so
                assert any(v["unsure"] for v in versions)
                assert label == f"Rule {number} (number not verified)"
            else:
                assert label == f"Rule {number}"
    return len(pills)


def test_every_rule_pill_of_the_era_comparison_links_to_its_rule_page(client: Client) -> None:
    document = read_document(LIBRARY / "redirection-era/lava-spike-redirected-to-garruk.yaml")
    ScenarioFactory(slug=document["id"], document=document)
    url = reverse("quiz:history_scenario", args=[document["id"]])
    html = client.get(url, {"a": "lrw-2007", "b": "fdn-2024"}).content.decode()
    assert assert_pills_link_to_their_rules(html) >= 4
    assert f'href="{reverse("quiz:rule", args=["pw.redirection"])}" aria-label="Rule 212.9g"' \
        in html  # Lorwyn's number, linking to the one page of the redirection rule


def test_every_rule_pill_of_a_what_if_run_links_to_its_rule_page(client: Client) -> None:
    scenario = ScenarioFactory(slug="whatif-pills")
    html = client.get(reverse("quiz:what_if", args=[scenario.slug])).content.decode()
    assert assert_pills_link_to_their_rules(html) >= 2


def test_trace_steps_carry_the_key_of_the_rule_they_cite() -> None:
    scenario = parse(read_document(LIBRARY / "redirection-era/earthquake-redirect-era.yaml"))
    outcome = run_variant(find_era("lrw-2007"), scenario.variant(0))
    steps = explain_trace(outcome.trace.steps, outcome.state, "lrw-2007", "en")
    assert [s.key for s in steps] == [s.rule_key for s in outcome.trace.steps]
    assert any(s.key == "pw.redirection" and s.rule == "212.9g" for s in steps)


@pytest.mark.parametrize("language", ["en", "it", "es"])
def test_the_feedback_explanation_links_each_rule_it_cites(language: str) -> None:
    scenario = parse(read_document(LIBRARY / "redirection-era/earthquake-redirect-era.yaml"))
    with translation.override(language):
        html = explained_html(scenario, "lrw-2007", 0, language)
        rule_page = reverse("quiz:rule", args=["pw.redirection"])
    assert f'href="{rule_page}"' in html
    assert "trace-none" not in html


@pytest.mark.parametrize("path", ["planechase/pc-face-up-plane-controller.yaml",
                                  "redirection-era/burn-targets-by-era.yaml"])
def test_an_answer_from_the_board_alone_says_so_instead_of_an_empty_list(path: str) -> None:
    scenario = parse(read_document(LIBRARY / path))
    variant = scenario.variant(0)
    era = scenario_eras(scenario, variant)[-1]
    with translation.override("en"):
        html = explained_html(scenario, era, variant.seed, "en")
    assert "What the rules engine did" in html
    assert "The answer comes from the board alone: no action was run before the question." \
        in html
    assert "<ol" not in html


def test_a_number_the_rules_facts_did_not_verify_is_never_shown_as_sure(client: Client) -> None:
    assert rulebook.unsure("pw.can-be-attacked", "lrw-2007")  # 212.9f: letter inferred
    assert not rulebook.unsure("pw.can-be-attacked", "m14-2013")
    html = client.get(reverse("quiz:rule", args=["pw.can-be-attacked"])).content.decode()
    row = re.search(r"<tr><td>Lorwyn.*?</tr>", html, re.S)
    assert row and "212.9f" in row.group() and "number not verified" in row.group()
    assert html.count("number not verified") == 1  # that row only: later eras verified it
    assert "not read in a Comprehensive Rules text of that date" in html  # what it means
    with translation.override("it"):
        html = client.get(reverse("quiz:rule", args=["pw.can-be-attacked"])).content.decode()
    assert "numero non verificato" in html


def test_a_trace_step_citing_an_unverified_number_says_so() -> None:
    scenario = parse(scenario_document())
    outcome = run_variant(find_era("lrw-2007"), scenario.variant(0))
    steps = explain_trace(outcome.trace.steps, outcome.state, "lrw-2007", "en")
    flagged = [s for s in steps if s.unsure]
    assert flagged and all(rulebook.unsure(s.key, "lrw-2007") for s in flagged if s.key)
    pill = str(rule_pill(flagged[0]))
    assert f'{flagged[0].rule} <span class="trace-unsure">(number not verified)</span>' in pill
    assert "(number not verified)" not in str(rule_pill(next(s for s in steps if not s.unsure)))
