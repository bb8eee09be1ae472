"""Malformed documents: each gets a precise error (path, message, rule) and writes nothing."""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

import pytest

from engine import EngineError, parse_text
from scenarios.models import Scenario, ScenarioVersion
from scenarios.services import NotPublishable, ScenarioInvalid, scenario_import
from tests.factories import scenario_document

pytestmark = pytest.mark.django_db

Doc = dict[str, Any]


def bf(doc: Doc, i: int) -> dict[str, Any]:
    return doc["setup"]["battlefield"][i]


def with_loyalty_param(doc: Doc) -> None:
    doc["params"] = {"l": {"range": [1, 3], "default": 3}}
    bf(doc, 1)["counters"] = {"loyalty": "$l"}
    doc["actions"] = [{"activate": {"permanent": "garruk", "ability": 2}}]
    doc["questions"][0]["expect"] = 20


def two_true_options(doc: Doc) -> None:
    doc["questions"] = [{
        "id": "c", "kind": "choice", "ask": {"en": "?", "it": "?", "es": "?"},
        "options": [
            {"id": "a", "text": {"en": "a", "it": "a", "es": "a"},
             "claim": {"query": {"life": "bob"}, "is": 20}},
            {"id": "b", "text": {"en": "b", "it": "b", "es": "b"},
             "claim": {"query": {"life": "alice"}, "is": 20}},
        ], "expect": "a"}]


def nest(depth: int) -> Any:
    node: Any = "x"
    for _ in range(depth):
        node = {"n": node}
    return node


CASES: list[tuple[str, Callable[[Doc], None], str, str]] = [
    ("unknown field", lambda d: d.update(colour="red"), "colour", "unknown field 'colour'"),
    ("wrong type", lambda d: d.update(difficulty="hard"), "difficulty", "whole number from 1"),
    ("difficulty out of range", lambda d: d.update(difficulty=7), "difficulty", "1 to 5"),
    ("format version", lambda d: d.update(format=2), "format", "must be 1"),
    ("unknown topic", lambda d: d.update(topic="banding"), "topic", "unknown topic"),
    ("unknown era", lambda d: d.update(eras=["m12-2011"]), "eras[0]", "unknown era"),
    ("unknown card", lambda d: bf(d, 1).update(card="garruk-wildspeakr"),
     "setup.battlefield[1].card", "unknown card 'garruk-wildspeakr'"),
    ("unknown keyword", lambda d: bf(d, 0).update(keywords=["trampel"]),
     "setup.battlefield[0].keywords[0]", "unknown keyword 'trampel'"),
    ("unknown object in an action", lambda d: d["actions"].__setitem__(0, {"attack": {"ghost": "bob"}}),
     "actions[0].attack.ghost", "unknown object 'ghost'"),
    ("illegal block", lambda d: d["actions"].__setitem__(1, {"block": {"garruk": "wurm"}}),
     "actions[1].block.garruk", "not a creature on the battlefield"),
    ("illegal attack: summoning sick", lambda d: bf(d, 0).update(sick=True),
     "actions[0].attack.wurm", "has no haste"),
    ("duplicate object id", lambda d: d["setup"]["battlefield"].append(dict(bf(d, 2))),
     "setup.battlefield[3].id", "duplicate id 'bears'"),
    ("duplicate question id", lambda d: d["questions"].append(copy.deepcopy(d["questions"][0])),
     "questions[1].id", "duplicate question id"),
    ("two true options in a choice", two_true_options, "questions[0].options",
     "exactly one true option"),
    ("parameter range making an action illegal", with_loyalty_param, "actions[0].activate",
     "variant l=1"),
    ("unknown parameter", lambda d: bf(d, 0).update(power="$nope"), "setup.battlefield[0].power",
     "unknown parameter $nope"),
    ("action with two kinds", lambda d: d["actions"].__setitem__(0, {"attack": {}, "block": {}}),
     "actions[0]", "one key"),
    ("unknown action", lambda d: d["actions"].append({"sacrifice": {"wurm": True}}),
     "actions[3]", "unknown action 'sacrifice'"),
    ("unknown query", lambda d: d["questions"][0].update(answer={"poison": "bob"}),
     "questions[0].answer", "unknown query 'poison'"),
    ("number question with a yes/no query", lambda d: d["questions"][0].update(
        answer={"blocked": "wurm"}), "questions[0].answer", "needs a query with a number"),
    ("choice with one option", lambda d: d["questions"].__setitem__(0, {
        "id": "c", "kind": "choice", "ask": {"en": "?"}, "options": [{"id": "a"}]}),
     "questions[0].options", "at least two options"),
    ("unknown language", lambda d: d["title"].update(Italian="Travolgere"), "title.Italian",
     "unknown language 'Italian'"),
    ("missing English", lambda d: d["title"].pop("en"), "title.en", "English text"),
    ("team of three", lambda d: d["setup"].update(
        players=[{"id": p} for p in ("alice", "bob", "carol", "dave")],
        teams=[{"id": "t1", "members": ["alice", "carol", "bob"]}, {"id": "t2", "members": ["dave"]}]),
     "setup.teams[0].members", "exactly two members"),
    ("negative damage assignment", lambda d: d["actions"].insert(
        2, {"assign": {"wurm": {"bears": -1}}}), "actions[2].assign.wurm.bears", "whole number from 0"),
    ("planeswalker without loyalty counters", lambda d: bf(d, 1).pop("counters"),
     "setup.battlefield[1].counters", "counters: {loyalty: N}"),
    ("inline creature without power", lambda d: bf(d, 0).pop("power"),
     "setup.battlefield[0]", "needs `power` and `toughness`"),
    ("unknown card type", lambda d: bf(d, 0).update(types=["creeture"]),
     "setup.battlefield[0].types", "unknown card type 'creeture'"),
    ("unknown redirect target", lambda d: d["actions"].__setitem__(2, {
        "cast": {"card": "shock", "by": "alice", "targets": ["bob"], "redirect_to": {"bob": "jace"}}}),
     "actions[2].cast.redirect_to.bob", "unknown object 'jace'"),
    ("unknown caster", lambda d: d["actions"].__setitem__(2, {
        "cast": {"card": "shock", "by": "carol", "targets": ["bob"]}}),
     "actions[2].cast.by", "'carol' is not a player"),
    ("too many actions", lambda d: d.update(actions=[{"step": "main2"}] * 41), "actions",
     "at most 40 actions"),
    ("deeply nested", lambda d: d.update(story=nest(20)), "story", "nested too deeply"),
    ("huge document", lambda d: d["setup"].update(
        battlefield=[{"id": f"o{i}", "controller": "bob", "types": ["creature"], "power": 1,
                      "toughness": 1} for i in range(800)]), "", "too large"),
    ("illegal order of blockers", lambda d: d.update(eras=["m10-2009"], actions=[
        {"attack": {"wurm": "garruk"}}, {"block": {"bears": "wurm"}},
        {"order": {"wurm": ["bears", "wurm"]}}]), "actions[2].order.wurm", "exactly the creatures"),
    ("redirect own damage", lambda d: d.update(eras=["m10-2009"], actions=[
        {"cast": {"card": "shock", "by": "alice", "targets": ["alice"],
                  "redirect_to": {"alice": "garruk"}}}]),
     "actions[0].cast.redirect_to.alice", "their own source"),
    # Characters no authored text may hold, whichever way the document arrived (issue 12).
    ("NUL in a text", lambda d: d["story"].update(en="Alice\x00 attacks."), "story.en",
     "contains a control character U+0000 at position 6"),
    ("escape character in a text", lambda d: d["questions"][0]["ask"].update(it="\x1b[31m?"),
     "questions[0].ask.it", "contains a control character U+001B at position 1"),
    ("DEL in a text", lambda d: d["title"].update(es="Arrollar\x7f"), "title.es",
     "contains a control character U+007F at position 9"),
    ("C1 control in a text", lambda d: d["explain"].update(en="702.19\x85"), "explain.en",
     "contains a control character U+0085 at position 7"),
    ("lone surrogate in a text", lambda d: d["story"].update(it="Alice \ud800"), "story.it",
     "contains a lone surrogate U+D800 at position 7"),
    ("bidi override in a text", lambda d: d["title"].update(en="\u202eTrample"), "title.en",
     "contains a bidirectional control character U+202E at position 1"),
    ("bidi isolate in an object name", lambda d: bf(d, 0)["name"].update(en="W\u2067urm"),
     "setup.battlefield[0].name.en", "contains a bidirectional control character U+2067"),
    ("control character in a key", lambda d: d["setup"].update({"hand\x00": []}), "setup",
     'the key "hand\\u0000" contains a control character U+0000 at position 5'),
    ("not a finite number", lambda d: bf(d, 0).update(power=float("inf")),
     "setup.battlefield[0].power", "must be a finite number"),
]


@pytest.mark.parametrize(("name", "mutate", "path", "message"), CASES,
                         ids=[c[0] for c in CASES])
def test_malformed_document(name: str, mutate: Callable[[Doc], None], path: str,
                            message: str) -> None:
    doc = scenario_document("bad-doc")
    mutate(doc)
    with pytest.raises(ScenarioInvalid) as info:
        scenario_import(document=doc)
    errors = info.value.report.errors
    assert any(e["path"].startswith(path) and message in e["message"] for e in errors), errors
    assert not Scenario.objects.exists() and not ScenarioVersion.objects.exists()


def test_illegal_action_names_the_rule() -> None:
    doc = scenario_document("bad-doc")
    bf(doc, 0)["sick"] = True
    with pytest.raises(ScenarioInvalid) as info:
        scenario_import(document=doc)
    error = info.value.report.errors[0]
    assert error["rule"] == "302.6" and error["era"] == "m10-2009" or error["rule"] in (
        "212.3d", "302.6")


def test_missing_italian_on_a_published_scenario() -> None:
    doc = scenario_document("bad-doc")
    del doc["questions"][0]["ask"]["it"]
    with pytest.raises(NotPublishable) as info:
        scenario_import(document=doc)
    assert "questions[0].ask.it: missing it translation" in str(info.value)
    assert not Scenario.objects.exists()


@pytest.mark.parametrize("text", ["format: 1\nid: [unclosed\n", "a: b: c\n", "\t- x"])
def test_bad_yaml_is_a_clear_error(text: str) -> None:
    with pytest.raises(EngineError) as info:
        parse_text(text, "bad.yaml")
    assert "not valid YAML" in str(info.value)


def test_yaml_tags_are_refused() -> None:
    with pytest.raises(EngineError):
        parse_text("!!python/object/apply:os.system ['true']\n", "evil.yaml")


def _import_text(text: str, name: str = "bad.yaml") -> tuple[str, int | None, list[Any]]:
    """What import (and the YAML editor) makes of a text: the reader's refusal (message,
    line), or the engine's errors."""
    from scenarios import editing

    try:
        document = editing.parse_source(text, syntax="json" if name.endswith(".json")
                                        else "yaml")
        scenario_import(document=document)
    except editing.SourceError as err:
        return str(err), err.line, []
    except ScenarioInvalid as err:
        return "", None, err.report.errors
    raise AssertionError("imported")


def _good_text() -> str:
    from scenarios.library import dump_document

    return dump_document(scenario_document("bad-doc"))


def _bomb() -> str:
    from tests.bench.authoring_bench import alias_bomb

    return alias_bomb()


def _with_story(story: str) -> str:
    return _good_text().replace("story:\n  en: Alice attacks.", f"story:\n  en: {story}")


def _too_many_values() -> str:
    return _good_text() + "params:\n  p: {choice: [" + ", ".join(["1"] * 4000) + "]}\n"


def _json_with_story(story: str) -> str:
    import json

    return json.dumps(scenario_document("bad-doc")).replace('"Alice attacks."', story)


STORY_LINE = _good_text().splitlines().index("story:") + 2

TEXT_CASES: list[tuple[str, Callable[[], str], str, str, str | int | None]] = [
    ("alias bomb", _bomb, "bomb.yaml",
     "anchors and aliases (&name, *name) are not allowed in a scenario document", 8),
    ("a second id", lambda: _good_text() + "id: another-scenario\n", "bad.yaml",
     '"id" given twice (first at line 2)', _good_text().count("\n") + 1),
    ("raw NUL", lambda: _with_story("Alice\x00 attacks."), "bad.yaml",
     "a control character U+0000 is not allowed in a scenario document (column 12)",
     STORY_LINE),
    ("escaped NUL", lambda: _with_story('"Alice\\0 attacks."'), "bad.yaml",
     "contains a control character U+0000 at position 6", "story.en"),
    ("raw control character", lambda: _with_story("Alice\x07 attacks."), "bad.yaml",
     "a control character U+0007 is not allowed", STORY_LINE),
    ("escaped lone surrogate in JSON", lambda: _json_with_story('"Alice \\ud800"'), "bad.json",
     "contains a lone surrogate U+D800 at position 7", "story.en"),
    ("escaped NUL in JSON", lambda: _json_with_story('"Alice\\u0000"'), "bad.json",
     "contains a control character U+0000 at position 6", "story.en"),
    ("raw bidi override", lambda: _with_story("Alice \u202eattacks."), "bad.yaml",
     "contains a bidirectional control character U+202E at position 7", "story.en"),
    ("over the size limit", lambda: _good_text() + "#" * (256 * 1024), "bad.yaml",
     "the document is larger than 256 KB", None),
    ("too deep", lambda: _good_text().replace("format: 1", "format: 1\nx: " + "[" * 20 + "]" * 20),
     "bad.yaml", "the document is nested too deeply (more than 12 levels)", 2),
    ("too many values", _too_many_values, "bad.yaml",
     "the document is too large (more than 4000 values)", _good_text().count("\n") + 2),
]


@pytest.mark.parametrize(("name", "text", "filename", "message", "where"), TEXT_CASES,
                         ids=[c[0] for c in TEXT_CASES])
def test_hostile_text_is_refused_precisely_and_writes_nothing(
        name: str, text: Callable[[], str], filename: str, message: str,
        where: str | int | None) -> None:
    refused, line, errors = _import_text(text(), filename)
    if isinstance(where, str):  # the engine's validation, naming the field
        assert any(e["path"] == where and message in e["message"] for e in errors), (
            refused, errors)
    else:  # the reader, naming the line
        assert message in refused and line == where, (refused, line, errors)
    assert not Scenario.objects.exists() and not ScenarioVersion.objects.exists()


def test_a_json_document_with_a_key_given_twice_is_refused_with_its_path() -> None:
    import json

    text = json.dumps(scenario_document("bad-doc"))[:-1] + ', "id": "another-scenario"}'
    refused, _, _ = _import_text(text, "bad.json")
    assert refused == '"id" given twice'
    assert not Scenario.objects.exists()


def test_not_a_mapping() -> None:
    with pytest.raises(ScenarioInvalid) as info:
        scenario_import(document=["not", "a", "mapping"])
    assert "mapping" in info.value.report.errors[0]["message"]
