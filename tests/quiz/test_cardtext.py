"""Card texts by era (scenarios.presentation.cardtext) and the question page that shows
them: the wording of the question's era, localized names, and author text escaped with its
cards as buttons."""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path

import pytest
from django.conf import settings
from django.test import Client
from django.utils import translation

from engine import ERA_KEYS, find_card, find_era, parse, render_text, scenario_eras
from quiz.models import QuizItem, QuizSession
from scenarios.library import read_document
from scenarios.presentation.board import question_board
from scenarios.presentation.cardtext import card_text, oracle_lines, segments_html, text_segments
from tests.factories import ScenarioFactory, UserFactory, scenario_document

LIBRARY = Path(settings.BASE_DIR) / "scenarios" / "library"
BOLT_OLD = "Lightning Bolt deals 3 damage to target creature or player."
BOLT_NEW = "Lightning Bolt deals 3 damage to any target."


class _Text(HTMLParser):
    """The text of an HTML fragment, and its buttons."""

    def __init__(self) -> None:
        super().__init__()
        self.text: list[str] = []
        self.buttons: list[dict[str, str | None]] = []
        self.tags: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append(tag)
        if tag == "button":
            self.buttons.append(dict(attrs))

    def handle_data(self, data: str) -> None:
        self.text.append(data)


def parsed(html: str) -> _Text:
    p = _Text()
    p.feed(html)
    return p


# -- wordings by era --------------------------------------------------------------------------

@pytest.mark.parametrize(("era", "wording"), [
    ("lrw-2007", BOLT_OLD), ("xln-2017", BOLT_OLD), ("dom-2018", BOLT_NEW),
    ("fdn-2024", BOLT_NEW)])
def test_lightning_bolt_is_worded_as_in_the_era(era, wording):
    text = card_text(find_card("lightning-bolt"), (era,), "en", "t")
    assert [o.lines for o in text.oracle] == [(wording,)]
    assert find_era(era).name in text.note and "English" in text.note


def test_loyalty_abilities_are_worded_as_in_the_era_with_a_minus_sign():
    chandra = find_card("chandra-nalaar")
    old = oracle_lines(chandra, find_era("m10-2009"))
    new = oracle_lines(chandra, find_era("dom-2018"))
    assert old[0] == "+1: Chandra Nalaar deals 1 damage to target player."
    assert new[0] == "+1: Chandra Nalaar deals 1 damage to target player or planeswalker."
    assert old[1].startswith("−X: ")


def test_planeswalkers_are_legendary_from_ixalan():
    jace = find_card("jace-beleren")
    assert card_text(jace, ("m14-2013",), "en", "t").type_line == "Planeswalker — Jace"
    assert card_text(jace, ("xln-2017",), "en", "t").type_line == (
        "Legendary Planeswalker — Jace")


def test_chaos_abilities_read_roll_before_march_of_the_machine():
    goldmeadow = find_card("goldmeadow")
    assert oracle_lines(goldmeadow, find_era("mh2-2021"))[-1].startswith(
        "Whenever you roll {CHAOS}, ")
    assert oracle_lines(goldmeadow, find_era("mom-2023"))[-1].startswith(
        "Whenever chaos ensues, ")


def test_every_era_question_shows_each_wording_with_its_eras():
    text = card_text(find_card("lightning-bolt"), ERA_KEYS, "it", "t")
    assert [(o.eras, o.lines) for o in text.oracle] == [
        ("Lorwyn – Ixalan", (BOLT_OLD,)), ("Dominaria – Foundations", (BOLT_NEW,))]


@pytest.mark.parametrize(("language", "name"), [
    ("en", "Lightning Bolt"), ("it", "Fulmine"), ("es", "Relámpago")])
def test_the_name_is_the_readers_and_the_english_one_is_given_beside(language, name):
    with translation.override(language):
        text = card_text(find_card("lightning-bolt"), ("dom-2018",), language, "t")
    assert text.name == name
    assert text.english == ("" if language == "en" else "Lightning Bolt")


def test_every_catalog_card_has_a_text_in_every_era():
    from engine import catalog

    for card in catalog().values():
        for era in ERA_KEYS:
            text = card_text(card, (era,), "en", "t")
            assert text.type_line, card.slug
            if card.wordings or card.abilities:
                assert all(line.strip() for o in text.oracle for line in o.lines), card.slug


# -- author texts -----------------------------------------------------------------------------

def _scenario(path: str):
    return parse(read_document(LIBRARY / path))


@pytest.mark.parametrize("language", ["en", "it", "es"])
def test_story_html_reads_exactly_as_render_text_for_the_whole_library(language):
    """Same words as the plain renderer, for every library story; the cards are buttons."""
    buttons = 0
    for path in sorted(LIBRARY.glob("*/*.yaml")):
        scenario = parse(read_document(path))
        if not scenario.story:
            continue
        variant = scenario.variant(0)
        segments = text_segments(scenario.story, language, variant)
        html = segments_html(segments, {s.key: "x" for s in segments if not isinstance(s, str)})
        page = parsed(html)
        assert "".join(page.text) == render_text(scenario.story, language, variant), path.stem
        assert set(page.tags) <= {"button", "span"}
        buttons += len(page.buttons)
    assert buttons > 200


def test_author_text_is_escaped_and_never_markup():
    doc = scenario_document("evil-story")
    doc["story"] = {"en": "<script>alert(1)</script> {garruk} & <b>{bears}</b>'s"}
    variant = parse(doc).variant(0)
    segments = text_segments(doc["story"], "en", variant)
    html = segments_html(segments, {"card:garruk-wildspeaker": "card-text-1",
                                    "card:grizzly-bears": "card-text-2"})
    assert "<script>" not in html and "<b>" not in html
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html
    page = parsed(html)
    assert [b["popovertarget"] for b in page.buttons] == ["card-text-1", "card-text-2"]
    assert all(b["aria-describedby"] == b["popovertarget"] for b in page.buttons)
    assert all(b["type"] == "button" for b in page.buttons)


def test_punctuation_touching_a_card_name_stays_on_its_line():
    scenario = _scenario("trample-into-planeswalkers/firecat-double-block-garruk.yaml")
    qb = question_board(scenario, 0, "m10-2009", "en")
    # "Blistering Firecat's combat damage": the button and the "'s" in one unbreakable span
    assert re.search(r'<span class="card-ref-glue"><button[^>]*>Blistering Firecat</button>'
                     r"&#x27;s</span>", str(qb.story))


def test_a_parameter_naming_a_card_slug_opens_that_card():
    scenario = _scenario("redirection-era/two-spells-two-walkers.yaml")
    variant = scenario.variant(0)
    qb = question_board(scenario, 0, "dom-2018", "it")
    burn = find_card(variant.values["burn"])
    text = next(c for c in qb.cards if c.key == f"card:{burn.slug}")
    assert f">{burn.name['it']}</button>" in str(qb.story)
    assert f'popovertarget="{text.dom_id}"' in str(qb.story)
    assert text.oracle[0].lines == (burn.wording("dom-2018").text,)


def test_each_card_has_one_text_shared_by_the_board_and_the_story():
    scenario = _scenario("redirection-era/burn-targets-by-era.yaml")
    qb = question_board(scenario, 0, "xln-2017", "en")
    keys = [c.key for c in qb.cards]
    assert len(keys) == len(set(keys))
    assert {"card:liliana-vess", "card:grizzly-bears", "card:lightning-bolt",
            "card:lava-spike", "card:flame-slash"} <= set(keys)
    ids = {c.key: c.dom_id for c in qb.cards}
    # the story's Liliana and the board's open the same text
    assert f'popovertarget="{ids["card:liliana-vess"]}"' in str(qb.story)
    assert f'data-card-text="{ids["card:liliana-vess"]}"' in qb.svg
    assert f'data-card-text="{ids["card:liliana-vess"]}"' in qb.narrow_svg


def test_an_object_the_scenario_defines_says_it_has_no_oracle_text():
    doc = scenario_document("inline")
    scenario = parse(doc)
    with translation.override("es"):
        qb = question_board(scenario, 0, "dom-2018", "es")
        wurm = next(c for c in qb.cards if c.key == "object:wurm")
    assert wurm.name == "Sierpe" and not wurm.printed
    assert wurm.stats == "6/6"
    assert wurm.oracle[0].lines == ("Arrollar",)


def test_the_cards_of_every_library_board_and_story_have_texts():
    for path in sorted(LIBRARY.glob("*/*.yaml")):
        scenario = parse(read_document(path))
        variant = scenario.variant(0)
        era = scenario_eras(scenario, variant)[-1]
        qb = question_board(scenario, 0, era, "it")
        ids = {c.dom_id for c in qb.cards}
        for target in re.findall(r'data-card-text="([^"]+)"', qb.svg + qb.narrow_svg):
            assert target in ids, path.stem
        for target in re.findall(r'popovertarget="([^"]+)"', str(qb.story)):
            assert target in ids, path.stem


# -- the question page ------------------------------------------------------------------------

@pytest.fixture
def burn_scenario(db):
    doc = read_document(LIBRARY / "redirection-era/burn-targets-by-era.yaml")
    return ScenarioFactory(slug=doc["id"], document=doc)


def _page(client: Client, scenario, era: str, language: str, question: str = "bolt-at-bob",
          story: dict | None = None) -> str:
    user = UserFactory()
    client.force_login(user)
    session = QuizSession.objects.create(user=user, mode="practice", length=1)
    QuizItem.objects.create(session=session, position=1, version=scenario.current_version,
                            question_id=question, era=era, seed=0)
    response = client.get(f"/{language}/quiz/{session.pk}/q/1/")
    assert response.status_code == 200
    return response.content.decode()


@pytest.mark.django_db
@pytest.mark.parametrize(("era", "shown", "hidden"), [
    ("xln-2017", BOLT_OLD, BOLT_NEW), ("dom-2018", BOLT_NEW, BOLT_OLD)])
def test_the_question_page_shows_the_wording_of_its_era(client, burn_scenario, era, shown,
                                                        hidden):
    html = _page(client, burn_scenario, era, "en")
    assert shown in html and hidden not in html
    assert 'class="card-pop" popover' in html
    assert "Oracle text, in English" in html


@pytest.mark.django_db
@pytest.mark.parametrize(("language", "bolt", "spike"), [
    ("it", "Fulmine", "Getto di Lava"), ("es", "Relámpago", "Descarga de lava")])
def test_the_question_page_names_cards_in_the_readers_language(client, burn_scenario, language,
                                                               bolt, spike):
    html = _page(client, burn_scenario, "dom-2018", language)
    for name in (bolt, spike):
        assert re.search(rf'<button type="button" class="card-ref" popovertarget="card-text-\d+" '
                         rf'aria-describedby="card-text-\d+">{name}</button>', html)
        assert f'<span class="card-pop-title">{name}</span>' in html
    assert '<p class="card-pop-english">Lightning Bolt</p>' in html
    assert BOLT_NEW in html  # Oracle text stays English


@pytest.mark.django_db
def test_a_story_with_a_script_tag_stays_text_on_the_page(client):
    doc = scenario_document("script-story")
    doc["story"] = {"en": "<script>alert('x')</script> {garruk}", "it": "x", "es": "x"}
    scenario = ScenarioFactory(slug="script-story", document=doc)
    html = _page(client, scenario, "dom-2018", "en", question="life")
    assert "<script>alert" not in html
    assert "&lt;script&gt;alert(&#x27;x&#x27;)&lt;/script&gt;" in html
    assert ">Garruk Wildspeaker</button>" in html


@pytest.mark.django_db
def test_an_eras_question_shows_each_wording_with_its_eras(client, burn_scenario):
    html = _page(client, burn_scenario, "dom-2018", "en", question="eras-spike-liliana")
    assert "Lava Spike deals 3 damage to target player." in html
    assert "Lava Spike deals 3 damage to target player or planeswalker." in html
    assert '<p class="card-pop-eras" lang="en">Lorwyn – Ixalan</p>' in html


@pytest.mark.django_db
def test_a_question_across_eras_names_no_era_on_the_board(client, burn_scenario):
    html = _page(client, burn_scenario, "dom-2018", "en", question="eras-spike-liliana")
    assert "Dominaria rules, 2018-04-27" not in html
    html = _page(client, burn_scenario, "dom-2018", "en")
    assert "Dominaria rules, 2018-04-27" in html
