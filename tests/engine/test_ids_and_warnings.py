"""Notation gaps: an id in error hides none of the document's other errors, its message
says the cap (64 characters for slugs); `check` warns about a `redirect_to` in an era
without the redirection rule (a warning, not an error) and lists it in its JSON."""

from __future__ import annotations

import json

import pytest

from engine import check_document, parse
from engine.__main__ import main
from engine.errors import DocumentError

BASE = {
    "format": 1, "id": "ids", "topic": "redirection-era", "difficulty": 1,
    "title": {"en": "Ids", "it": "Id", "es": "Id"},
    "explain": {"en": "x", "it": "x", "es": "x"},
    "setup": {
        "players": [{"id": "alice"}, {"id": "bob"}],
        "battlefield": [{"id": "jace", "card": "jace-beleren", "controller": "bob",
                         "counters": {"loyalty": 5}}],
    },
    "actions": [{"cast": {"card": "lightning-bolt", "by": "alice", "targets": ["bob"],
                          "redirect_to": {"bob": "jace"}}}],
    "questions": [{"id": "q", "kind": "number", "ask": {"en": "?", "it": "?", "es": "?"},
                   "answer": {"loyalty": "jace"},
                   "expect": {"xln-2017": 2, "dom-2018": 5}}],
}


def errors_of(document: dict) -> list:
    with pytest.raises(DocumentError) as info:
        parse(document)
    return info.value.items


def test_a_long_scenario_id_says_the_cap_and_hides_no_other_error() -> None:
    document = {**BASE, "id": "a" * 65, "actions": [{"attack": {"nobody": "bob"}}]}
    items = errors_of(document)
    assert any(i.path == "id" and "at most 64 characters" in i.message for i in items)
    assert any(i.path == "actions[0].attack.nobody" for i in items), items


def test_a_question_id_in_error_hides_no_error_of_that_question() -> None:
    question = {**BASE["questions"][0], "id": "Q 1", "answer": {"loyalty": "nobody"}}
    items = errors_of({**BASE, "questions": [question]})
    assert any(i.path == "questions[0].id" and "at most 64 characters" in i.message
               for i in items)
    assert any(i.path.startswith("questions[0].answer") for i in items), items


def test_an_object_id_in_error_hides_no_error_of_that_object() -> None:
    setup = {**BASE["setup"], "battlefield": [{"id": "9jace", "card": "no-such-card",
                                               "controller": "bob"}]}
    items = errors_of({**BASE, "setup": setup, "actions": []})
    paths = {i.path for i in items}
    assert {"setup.battlefield[0].id", "setup.battlefield[0].card"} <= paths, items


def test_check_warns_about_redirect_to_where_the_rule_is_gone() -> None:
    result = check_document(BASE)
    assert result.ok, (result.errors, result.disagreements)
    warnings = [w for w in result.warnings if w.path == "actions[0].cast.redirect_to"]
    assert len(warnings) == 1 and "dom-2018" in warnings[0].message
    assert "xln-2017" not in warnings[0].message.split(":")[0]
    assert warnings[0].rule == "306.7"
    assert {"path": "actions[0].cast.redirect_to", "message": warnings[0].message,
            "rule": "306.7"} in result.as_json()["warnings"]


def test_no_warning_where_every_era_has_the_rule() -> None:
    result = check_document({**BASE, "eras": ["lrw-2007", "xln-2017"],
                             "questions": [{**BASE["questions"][0], "expect": 2}]})
    others = [w for w in result.warnings if not w.message.endswith(" translation")]
    assert result.ok and not others, others


def test_the_command_line_shows_the_warning(tmp_path, capsys) -> None:
    path = tmp_path / "ids.json"
    path.write_text(json.dumps(BASE), encoding="utf-8")
    assert main(["check", str(path)]) == 0
    assert "warning: actions[0].cast.redirect_to: `redirect_to` does nothing in dom-2018" \
        in capsys.readouterr().err
    assert main(["check", str(path), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert any(w["path"] == "actions[0].cast.redirect_to" for w in out["warnings"])
