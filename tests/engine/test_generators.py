"""Generators (docs/scenario-format.md, "Generators"): cards drawn from catalog filters,
`when:` switching items, texts that follow the draw, the candidate's draw and the
check's survey. Each rule on the smallest document that shows it."""

from __future__ import annotations

import copy
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import DocumentError, check_document, find_era, parse, render_text
from engine.draws import board_count, draw, playable
from engine.runner import play


def _doc(**over: Any) -> dict[str, Any]:
    doc: dict[str, Any] = {
        "format": 1, "id": "gen", "topic": "trample-into-planeswalkers", "difficulty": 2,
        "title": {"en": "A generator"},
        "params": {
            "atk": {"card": {"types": ["creature"], "keywords": ["trample"],
                             "without": ["flying"]}, "default": "siege-rhino"},
            "l": {"range": [1, 4]},
            "blocked": {"choice": [True, False]},
        },
        "setup": {
            "turn": {"active": "alice", "step": "main1", "number": 3},
            "players": [{"id": "alice", "life": 20}, {"id": "bob", "life": 20}],
            "battlefield": [
                {"id": "a", "card": "$atk", "controller": "alice"},
                {"id": "g", "card": "garruk-wildspeaker", "controller": "bob",
                 "counters": {"loyalty": "$l"}},
                {"id": "b", "card": "grizzly-bears", "controller": "bob",
                 "when": {"blocked": True}},
            ],
        },
        "actions": [{"attack": {"a": "g"}}, {"block": {"b": "a"}, "when": {"blocked": True}},
                    {"combat_damage": {}}],
        "questions": [
            {"id": "bob", "kind": "number", "ask": {"en": "Bob's life?"},
             "answer": {"life": "bob"}},
            {"id": "bears", "kind": "number", "when": {"blocked": True},
             "ask": {"en": "Damage on {b}?"}, "answer": {"damage": "b"}},
        ],
    }
    doc.update(over)
    return doc


def test_a_card_filter_draws_from_the_catalog_cards_it_matches() -> None:
    scenario = parse(_doc())
    atk = scenario.params[0]
    assert atk.kind == "card"
    assert "siege-rhino" in atk.values and "colossal-dreadmaw" in atk.values
    assert "grizzly-bears" not in atk.values  # no trample
    assert "akroma-angel-of-wrath" not in atk.values  # flying


@pytest.mark.parametrize(("spec", "path", "says"), [
    ({"types": ["creature"], "keywords": ["tramp"]}, "params.atk.card.keywords[0]",
     "no catalog card has keywords 'tramp'"),
    ({"types": ["creature"], "power": [40, 50]}, "params.atk.card", "no catalog card matches"),
    ({"types": ["creature"], "colour": ["red"]}, "params.atk.card.colour", "unknown field"),
    ({"types": ["creature"], "power": [5, 2]}, "params.atk.card.power", "lo <= hi"),
])
def test_a_bad_filter_is_an_error_at_its_path(spec: dict[str, Any], path: str,
                                               says: str) -> None:
    doc = _doc()
    doc["params"]["atk"] = {"card": spec}
    with pytest.raises(DocumentError) as err:
        parse(doc)
    assert any(i.path == path and says in i.message for i in err.value.items), err.value


def test_when_switches_items_off_and_keeps_every_other_items_path() -> None:
    scenario = parse(_doc())
    off = next(s for s in range(1, 50)
               if scenario.values_for(s)["blocked"] is False)
    variant = scenario.variant(off)
    assert "b" not in variant.state.objects
    assert [a.path for a in variant.actions] == ["actions[0].attack", "actions[2].combat_damage"]
    assert [q.id for q in variant.questions] == ["bob"]
    on = scenario.variant(0)
    assert [a.path.split(".")[0] for a in on.actions] == ["actions[0]", "actions[1]", "actions[2]"]


def test_an_illegal_action_in_a_variant_names_its_original_path() -> None:
    doc = _doc()
    doc["actions"][1] = {"block": {"b": "a"}, "when": {"blocked": True}}
    doc["setup"]["battlefield"][2]["tapped"] = True  # a tapped creature can't block
    result = check_document(doc)
    assert any(e.path.startswith("actions[1].block") for e in result.errors), result.errors


@pytest.mark.parametrize(("when", "path", "says"), [
    ({"blockd": True}, "actions[1].when.blockd", "unknown parameter"),
    ({"blocked": "maybe"}, "actions[1].when.blocked", "not one of the values"),
])
def test_a_bad_when_is_an_error_at_its_path(when: Any, path: str, says: str) -> None:
    doc = _doc()
    doc["actions"][1]["when"] = when
    with pytest.raises(DocumentError) as err:
        parse(doc)
    assert any(i.path == path and says in i.message for i in err.value.items), err.value


def test_when_without_parameters_is_an_error() -> None:
    doc = _doc()
    del doc["params"]
    doc["setup"]["battlefield"][0]["card"] = "siege-rhino"
    doc["setup"]["battlefield"][1]["counters"] = {"loyalty": 3}
    with pytest.raises(DocumentError) as err:
        parse(doc)
    assert any(i.path == "actions[1].when" for i in err.value.items)


def test_texts_follow_the_draw_with_attributes_and_plural_forms() -> None:
    doc = _doc()
    doc["questions"][0]["ask"] = {
        "en": "{a}, a {a.pt}, attacks {g} ({g.loyalty} {g.loyalty|counter|counters}); "
              "{atk.power} power printed; {l|# counter|# counters}",
        "fr": "{l|# marqueur|# marqueurs}", "it": "{l|# segnalino|# segnalini}"}
    scenario = parse(doc)
    for seed in range(0, 30):
        variant = scenario.variant(seed)
        l_value = variant.values["l"]
        en = render_text(variant.questions[0].ask, "en", variant)
        obj = variant.state.objects["a"]
        assert f", a {obj.power}/{obj.toughness}, " in en
        word = "counter" if l_value == 1 else "counters"
        assert en.endswith(f"{l_value} {word}")
        assert f"({l_value} {word})" in en
        assert render_text(variant.questions[0].ask, "it", variant) == (
            f"{l_value} {'segnalino' if l_value == 1 else 'segnalini'}")


def test_french_and_portuguese_count_zero_as_one() -> None:
    doc = _doc()
    doc["params"]["l"] = {"range": [0, 2]}
    doc["setup"]["battlefield"][1]["counters"] = {"loyalty": 3}
    doc["questions"][0]["ask"] = {"en": "{l|# thing|# things}", "fr": "{l|# chose|# choses}",
                                  "pt-br": "{l|# coisa|# coisas}"}
    scenario = parse(doc)
    zero = next(s for s in range(1, 80) if scenario.values_for(s)["l"] == 0)
    variant = scenario.variant(zero)
    ask = variant.questions[0].ask
    assert render_text(ask, "en", variant) == "0 things"
    assert render_text(ask, "fr", variant) == "0 chose"
    assert render_text(ask, "pt-br", variant) == "0 coisa"


def test_a_placeholder_that_cant_be_filled_is_an_error() -> None:
    doc = _doc()
    doc["questions"][0]["ask"] = {"en": "{a.colour} {l.pt} {g|one|many}"}
    result = check_document(doc)
    messages = [e.message for e in result.errors if e.path == "questions[0].ask.en"]
    assert any("unknown attribute 'colour'" in m for m in messages)
    assert any("is a number or a choice, not a card" in m for m in messages)
    assert any("plural forms follow a number" in m for m in messages)


def test_a_text_naming_a_switched_off_object_is_an_error() -> None:
    doc = _doc()
    doc["questions"][0]["ask"] = {"en": "Did {b} block?"}
    result = check_document(doc)
    assert any(e.path == "questions[0].ask" and "{b} can't be filled in" in e.message
               for e in result.errors), result.errors


def test_story_alternatives_are_picked_by_when() -> None:
    doc = _doc(story=[{"when": {"blocked": True}, "en": "Bob blocks with {b}."},
                      {"en": "Bob doesn't block."}])
    scenario = parse(doc)
    assert check_document(doc).ok
    for seed in range(0, 20):
        values = scenario.values_for(seed)
        assert scenario.story_for(values)["en"] == (
            "Bob blocks with {b}." if values["blocked"] else "Bob doesn't block.")


def test_a_candidate_is_only_served_a_variant_that_asks_the_question() -> None:
    scenario = parse(_doc())
    rng = random.Random(7)
    for _ in range(20):
        seed = draw(scenario, "fdn-2024", "bears", rng)
        assert scenario.values_for(seed)["blocked"] is True
        assert "bears" in [q.id for q in scenario.variant(seed).questions]


def test_the_draw_skips_a_card_not_yet_printed_in_the_era() -> None:
    scenario = parse(_doc())
    rng = random.Random(3)
    for _ in range(20):
        seed = draw(scenario, "m10-2009", None, rng)
        card = scenario.values_for(seed)["atk"]
        # Siege Rhino (2014), Colossal Dreadmaw (2017), Thrasta (2021) didn't exist in 2009
        assert card not in ("siege-rhino", "colossal-dreadmaw", "thrasta-tempests-roar")


def test_the_draw_skips_a_board_that_is_not_at_rest() -> None:
    doc = _doc()
    doc["params"]["dmg"] = {"range": [0, 3]}
    doc["setup"]["battlefield"][2]["damage"] = "$dmg"  # 2 or more kills the 2/2 bears
    doc["params"]["blocked"] = {"choice": [True]}
    doc["eras"] = ["fdn-2024"]
    scenario = parse(doc)
    era = find_era("fdn-2024")
    assert not playable(scenario, next(s for s in range(1, 99)
                                       if scenario.values_for(s)["dmg"] >= 2), era, None)
    for seed in (draw(scenario, "fdn-2024", None, random.Random(i)) for i in range(20)):
        assert scenario.values_for(seed)["dmg"] < 2
    result = check_document(doc)
    assert result.ok
    assert result.variants["eras"]["fdn-2024"]["skipped"]["restless"] > 0


def test_a_generator_that_skips_more_than_half_its_draws_is_refused() -> None:
    doc = _doc()
    doc["params"]["dmg"] = {"range": [0, 9]}
    doc["setup"]["battlefield"][2]["damage"] = "$dmg"
    result = check_document(doc)
    assert not result.ok
    error = next(e for e in result.errors if e.path == "params")
    assert "can't be shown in" in error.message and "isn't at rest" in error.message


def test_the_survey_counts_boards_and_spreads_answers() -> None:
    result = check_document(_doc())
    assert result.ok, result.errors
    scenario = result.scenario
    assert scenario is not None
    atk = len(scenario.params[0].values)
    # blocked: atk x l boards; not blocked: the same (the bears aren't shown)
    assert result.variants["boards"] == atk * 4 * 2
    assert result.variants["exact"] is True
    spread = result.variants["answers"]["bob"]["fdn-2024"]
    assert sum(n for _a, n in spread) == result.variants["drawn"] - sum(
        result.variants["eras"]["fdn-2024"]["skipped"].values())


def test_a_parameter_only_a_switched_off_part_uses_draws_no_new_board() -> None:
    doc = _doc()
    doc["params"]["blk"] = {"choice": ["grizzly-bears", "hill-giant", "spined-wurm"]}
    doc["setup"]["battlefield"][2]["card"] = "$blk"
    scenario = parse(doc)
    atk = len(scenario.params[0].values)
    # blocked: 3 blockers; not blocked: the blocker's card is not on the board
    assert board_count(scenario) == (atk * 4 * 3 + atk * 4, True)


def test_a_degenerate_question_is_flagged() -> None:
    doc = _doc()
    doc["questions"].append({"id": "turn", "kind": "number", "ask": {"en": "Garruk's owner?"},
                             "answer": {"life": "alice"}})
    result = check_document(doc)
    assert result.ok
    flagged = [w for w in result.warnings if w.path == "questions[2]"]
    assert flagged and "degenerate: the answer is 20 in 100%" in flagged[0].message
    assert not [w for w in result.warnings if w.path == "questions[1]"
                and "degenerate" in w.message]  # the bears' damage varies with the attacker


def test_expect_on_a_question_the_default_variant_doesnt_ask_is_an_error() -> None:
    doc = _doc()
    doc["params"]["blocked"]["default"] = False
    doc["questions"][1]["expect"] = 0
    result = check_document(doc)
    assert any(e.path == "questions[1].expect" for e in result.errors)


def test_a_document_without_generator_fields_keeps_its_meaning() -> None:
    doc = _doc()
    del doc["params"]
    doc["setup"]["battlefield"][0]["card"] = "siege-rhino"
    doc["setup"]["battlefield"][1]["counters"] = {"loyalty": 3}
    del doc["setup"]["battlefield"][2]["when"]
    del doc["actions"][1]["when"]
    del doc["questions"][1]["when"]
    result = check_document(copy.deepcopy(doc))
    assert result.ok and not result.variants
    assert result.answers["fdn-2024"] == {"bob": 20, "bears": 0}  # the bears died


@settings(max_examples=40, deadline=None)
@given(st.integers(min_value=0, max_value=2**31 - 2), st.sampled_from(
    ["lrw-2007", "m10-2009", "dom-2018", "fdn-2024"]), st.sampled_from([None, "bob", "bears"]))
def test_every_draw_is_playable_in_its_era_and_asks_its_question(
        seed: int, era: str, question: str | None) -> None:
    scenario = parse(_doc())
    drawn = draw(scenario, era, question, random.Random(seed))
    assert playable(scenario, drawn, find_era(era), question)
    variant = scenario.variant(drawn)
    play(find_era(era), variant)  # never raises
    if question is not None:
        assert question in [q.id for q in variant.questions]



def test_an_attribute_of_an_object_named_like_its_parameter_is_the_objects() -> None:
    """`{id: a, card: $a}` is the natural way to write a drawn card: `{a}` names it either
    way, and `{a.pt}` is the object's, counters included, not the card's as printed."""
    doc = _doc()
    doc["params"]["a"] = doc["params"].pop("atk")
    doc["setup"]["battlefield"][0].update(card="$a", counters={"+1/+1": 2})
    doc["questions"][0]["ask"] = {"en": "{a} is a {a.pt}"}
    scenario = parse(doc)
    variant = scenario.variant(0)  # Siege Rhino, 4/5, with two +1/+1 counters
    assert render_text(variant.questions[0].ask, "en", variant) == "Siege Rhino is a 6/7"


def test_a_parameter_that_would_hide_an_object_in_texts_is_an_error() -> None:
    """A yes/no parameter named like Carth's object made every text say "True"."""
    doc = _doc()
    doc["params"]["g"] = {"choice": [True, False]}  # `g` is Garruk's id
    with pytest.raises(DocumentError) as err:
        parse(doc)
    assert any(i.path == "params.g" and "has the id 'g' too" in i.message
               for i in err.value.items)
    fine = _doc()  # the object drawn by its own parameter: {a} names the same card
    fine["params"]["a"] = fine["params"].pop("atk")
    fine["setup"]["battlefield"][0]["card"] = "$a"
    parse(fine)


def test_an_eras_question_is_only_drawn_where_the_variant_plays_in_every_era() -> None:
    """An "in which eras" question is answered over every era the variant can be shown in:
    the draw tries them all, so a variant that an era refuses is skipped, not served."""
    doc = _doc()
    doc["questions"].append({"id": "when", "kind": "eras", "ask": {"en": "In which eras?"},
                             "claim": {"query": {"life": "bob"}, "is": 20}})
    scenario = parse(doc)
    calls: list[str] = []

    def run(era: Any, variant: Any) -> None:
        calls.append(era.key)
        if era.key == "xln-2017":  # (Siege Rhino, the default, is printed from m14-2013)
            raise DocumentError.at("actions[0]", "refused in this era (for the test)")

    assert not playable(scenario, 0, find_era("fdn-2024"), "when", run)
    assert "xln-2017" in calls
    assert playable(scenario, 0, find_era("fdn-2024"), "bob", run)  # one era is enough
