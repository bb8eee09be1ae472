"""The rule catalogue, the card catalog and the era chain."""

from __future__ import annotations

from datetime import date

import pytest

from engine import rulebook
from engine.cards import catalog, find_card, slugify
from engine.eras import ERA_KEYS, ERAS, era_on, find_era
from engine.errors import EngineError
from engine.notation import parse, render_text


def test_every_rule_version_has_a_number_and_three_summaries() -> None:
    for key, versions in rulebook.catalogue().items():
        assert versions, key
        eras = [v["era"] for v in versions]
        assert eras == sorted(eras, key=ERA_KEYS.index), key
        for v in versions:
            assert v["removed"] or v["number"], key
            for lang in ("en", "it", "es"):
                assert v["summary"].get(lang), (key, v["era"], lang)


def test_rule_numbers_differ_by_era_where_the_rules_were_renumbered() -> None:
    assert rulebook.number("pw.redirection", "lrw-2007") == "212.9g"
    assert rulebook.number("pw.redirection", "xln-2017") == "306.7"
    assert not rulebook.exists("pw.redirection", "dom-2018")
    assert rulebook.number("sba.legend", "m14-2013") == "704.5k"
    assert rulebook.number("sba.legend", "xln-2017") == "704.5j"
    assert rulebook.number("trample.planeswalker-excess", "fdn-2024") == "702.19f"


def test_eras_subclass_each_other_in_order() -> None:
    for older, newer in zip(ERAS, ERAS[1:], strict=False):
        assert issubclass(newer, older)
        assert newer.effective > older.effective
        assert newer.__doc__ and older.__doc__


@pytest.mark.parametrize(("day", "key"), [
    (date(2007, 10, 1), "lrw-2007"), (date(2015, 6, 1), "m14-2013"),
    (date(2018, 4, 26), "xln-2017"), (date(2018, 4, 27), "dom-2018"),
    (date(2026, 11, 30), "fdn-2024"),
])
def test_era_on_a_date(day: date, key: str) -> None:
    assert era_on(day).key == key


def test_no_era_before_planeswalkers() -> None:
    with pytest.raises(EngineError):
        era_on(date(2006, 1, 1))
    with pytest.raises(EngineError):
        find_era("m12-2011")


def test_card_slugs_follow_the_rule_and_every_card_has_three_names() -> None:
    assert slugify("Hero's Downfall") == "heros-downfall"
    assert slugify("Thrasta, Tempest's Roar") == "thrasta-tempests-roar"
    for slug, card in catalog().items():
        assert slug == slugify(card.name["en"])
        assert card.name.get("it") and card.name.get("es"), slug
        if "planeswalker" in card.types:
            assert card.loyalty and card.abilities, slug
        if "creature" in card.types:
            assert card.power is not None and card.toughness is not None, slug


def test_required_cards_are_in_the_catalog() -> None:
    for slug in ("shock", "lightning-bolt", "lava-spike", "arc-lightning", "earthquake",
                 "blightning", "flame-slash", "heros-downfall", "act-of-treason",
                 "ajani-goldmane", "chandra-nalaar", "garruk-wildspeaker", "jace-beleren",
                 "liliana-vess", "ajani-vengeant", "jace-the-mind-sculptor", "gideon-jura",
                 "chandra-ablaze", "thrasta-tempests-roar"):
        find_card(slug)


def test_wording_changes_by_era() -> None:
    bolt = find_card("lightning-bolt")
    assert bolt.wording("xln-2017").targets == (frozenset({"creature", "player"}),)
    assert "planeswalker" in bolt.wording("dom-2018").targets[0]
    assert "battle" in bolt.wording("mom-2023").targets[0]
    assert find_card("earthquake").wording("fdn-2024").targets == ()


def test_texts_render_card_names_and_parameters_in_the_reader_language() -> None:
    doc = {
        "format": 1, "id": "render", "topic": "loyalty", "difficulty": 1,
        "title": {"en": "{bolt} and {jace} with {n}"},
        "params": {"n": {"range": [2, 4]}, "c": {"choice": ["grizzly-bears"]}},
        "setup": {"players": [{"id": "alice"}, {"id": "bob"}],
                  "battlefield": [{"id": "jace", "card": "jace-beleren", "controller": "bob",
                                   "counters": {"loyalty": "$n"}}]},
        "actions": [],
        "questions": [{"id": "q", "kind": "number", "ask": {"en": "{c}? {bob}"},
                       "answer": {"loyalty": "jace"}}],
    }
    scenario = parse(doc)
    variant = scenario.variant(0)
    assert render_text({"en": "{jace} has {n}", "it": "{jace} ha {n}"}, "it", variant) == \
        "Jace Beleren ha 2"
    assert render_text({"en": "{c} hit {bob}"}, "es", variant) == \
        f"{find_card('grizzly-bears').name['es']} hit Bob"
    assert render_text({"en": "{unknown}"}, "en", variant) == "{unknown}"
