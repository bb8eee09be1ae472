"""The one reader of authored documents: size first, no anchors or aliases, no key given
twice, the caps while composing, plain data only; and the engine's character check on
every key and text of a document, however it arrived."""

from __future__ import annotations

import json
from typing import Any

import pytest
import yaml

from engine import reader
from engine.__main__ import main
from engine.errors import DocumentError
from engine.notation import MAX_DEPTH, MAX_NODES, _check_size, parse
from engine.reader import MAX_DOCUMENT_BYTES, ReadError, read_bytes, read_text, read_value
from scenarios.library import LIBRARY, dump_document, library_files
from tests.bench.authoring_bench import alias_bomb
from tests.factories import scenario_document

LOADERS = pytest.mark.parametrize("loader", reader.LOADERS,
                                  ids=[c.__name__ for c in reader.LOADERS])


def refusal(text: str, loader: reader.Loader | None = None) -> ReadError:
    with pytest.raises(ReadError) as info:
        reader._read_yaml(text, loader) if loader else read_text(text)
    return info.value


@LOADERS
def test_an_alias_bomb_is_refused_at_its_first_anchor_without_expanding(loader: Any) -> None:
    events = []

    class Counting(loader):  # type: ignore[misc, valid-type]
        def get_event(self) -> Any:
            events.append(1)
            return super().get_event()

    error = refusal(alias_bomb(), Counting)
    assert error.message == ("anchors and aliases (&name, *name) are not allowed in a "
                             "scenario document")
    assert error.line == 8 and error.path == "a"
    assert len(events) < 30  # the events of the first seven lines, nothing more


@LOADERS
@pytest.mark.parametrize(("text", "line"), [
    ("a: &x 1\n", 1),                     # an anchor alone
    ("a: 1\nb: *x\n", 2),                 # an alias alone
    ("a: [1]\n&k b: 2\n", 2),             # an anchored key
])
def test_anchors_and_aliases_are_refused_with_their_line(loader: Any, text: str,
                                                         line: int) -> None:
    error = refusal(text, loader)
    assert "anchors and aliases" in error.message and error.line == line


@LOADERS
def test_a_merge_key_is_refused(loader: Any) -> None:
    error = refusal("a: 1\nb:\n  <<: {c: 1}\n", loader)
    assert error.message == "merge keys (<<) are not allowed in a scenario document"
    assert (error.line, error.path) == (3, "b")
    assert read_text('a: {"<<": 1}\n').document == {"a": {"<<": 1}}  # quoted: just a key


@LOADERS
@pytest.mark.parametrize(("text", "path", "message", "line"), [
    ("id: a\nformat: 1\nid: b\n", "id", '"id" given twice (first at line 1)', 3),
    ("setup:\n  players:\n    - {id: a, life: 2, life: 3}\n", "setup.players[0].life",
     '"life" given twice (on the same line)', 3),
    ("a: 1\ntrue: 2\n1: 3\n", "1", '"1" given twice (first at line 2)', 3),  # as the dict
    ('a: 1\n"a": 2\n', "a", '"a" given twice (first at line 1)', 2),
])
def test_a_key_given_twice_is_refused_with_its_path_and_line(loader: Any, text: str, path: str,
                                                             message: str, line: int) -> None:
    error = refusal(text, loader)
    assert (error.path, error.message, error.line) == (path, message, line)


@LOADERS
def test_nesting_is_bounded_while_composing(loader: Any) -> None:
    def nested(depth: int) -> str:
        return "{n: " * depth + "x" + "}" * depth + "\n"

    assert reader._read_yaml(nested(MAX_DEPTH), loader).document is not None
    error = refusal(nested(MAX_DEPTH + 1), loader)
    assert error.message == "the document is nested too deeply (more than 12 levels)"
    assert error.path == ".".join(["n"] * (MAX_DEPTH + 1))
    deep = refusal("[" * 100_000, loader)  # refused near the start (libyaml's scanner
    assert "nested too deeply" in deep.message or "nesting depth" in deep.message  # runs ahead)


@LOADERS
def test_the_number_of_values_is_bounded_while_composing_as_the_engine_counts(
        loader: Any) -> None:
    def items(n: int) -> str:
        return "a: [" + ", ".join(["1"] * n) + "]\n"

    at_cap = reader._read_yaml(items(MAX_NODES - 2), loader).document  # the mapping, the list
    _check_size(at_cap, "")  # the engine agrees: at the cap, not over it
    error = refusal(items(MAX_NODES - 1), loader)
    assert error.message == "the document is too large (more than 4000 values)"
    assert error.path == f"a[{MAX_NODES - 2}]"  # the 4,001st value
    with pytest.raises(DocumentError, match="too large"):
        _check_size({"a": [1] * (MAX_NODES - 1)}, "")


@LOADERS
@pytest.mark.parametrize(("text", "shown"), [
    ("a: !!binary aGVsbG8=\n", "!!binary"), ("a: !!timestamp 2024-01-01\n", "!!timestamp"),
    ("a: !!set {x}\n", "!!set"), ("a: !local x\n", "!local"),
    ("a: !!python/object/apply:os.system ['true']\n", "!!python/object/apply:os.system"),
])
def test_only_plain_data_tags_are_read(loader: Any, text: str, shown: str) -> None:
    error = refusal(text, loader)
    assert error.message.startswith(f"the tag {shown} is not allowed") and error.line == 1


@LOADERS
def test_plain_data_reads_as_json_would_hold_it(loader: Any) -> None:
    text = "a: 2024-01-01\nb: =\nc: !!str 12\nd: [1, 1.5, true, null, x]\n"
    assert reader._read_yaml(text, loader).document == {
        "a": "2024-01-01", "b": "=", "c": "12", "d": [1, 1.5, True, None, "x"]}


@LOADERS
def test_lines_of_every_path_come_from_the_same_reading(loader: Any) -> None:
    text = dump_document(scenario_document("lines"))
    reading = reader._read_yaml(text, loader)
    lines = text.splitlines()
    assert reading.document == scenario_document("lines")
    assert lines[reading.lines["actions"] - 1] == "actions:"
    assert lines[reading.lines["questions[0].ask.it"] - 1].strip().startswith("it:")
    assert reading.lines[""] == 1


def test_the_size_is_checked_before_anything_else() -> None:
    over = "[" * (MAX_DOCUMENT_BYTES + 1)  # not YAML, and far too deep: the size says first
    assert refusal(over).message == "the document is larger than 256 KB (256 KB)"
    wide = "é" * (MAX_DOCUMENT_BYTES // 2 + 1)  # fewer characters than bytes
    assert "larger than 256 KB" in refusal(wide).message
    with pytest.raises(ReadError, match="larger than 256 KB"):
        read_bytes(b"\xff" * (MAX_DOCUMENT_BYTES + 1))  # before decoding, too
    assert MAX_DOCUMENT_BYTES == 256 * 1024


def test_the_largest_library_file_is_well_within_the_size_limit() -> None:
    # The largest are generators in six languages (about 40 KB: stories and explanations
    # that hold for every draw); an author's document five times as large still fits.
    largest = max(p.stat().st_size for p in library_files())
    assert largest * 5 < MAX_DOCUMENT_BYTES


def test_every_library_file_reads_as_plain_yaml_and_uses_no_anchor() -> None:
    for path in LIBRARY.rglob("*.yaml"):
        text = path.read_text(encoding="utf-8")
        assert read_text(text).document == yaml.safe_load(text), path


@pytest.mark.parametrize(("text", "line", "column", "message"), [
    ("a: 1\nb: x\x00y\n", 2, 5, "a control character U+0000"),
    ("a: \x07\n", 1, 4, "a control character U+0007"),
    ("a: 1\n# \x7f\n", 2, 3, "a control character U+007F"),
    ("a: \x85\n", 1, 4, "a control character U+0085"),
    ("a: \x9b\n", 1, 4, "a control character U+009B"),
    ("a: x\ud800\n", 1, 5, "a lone surrogate U+D800"),
])
def test_control_characters_in_the_text_are_refused_by_line_and_column(
        text: str, line: int, column: int, message: str) -> None:
    for syntax in ("yaml", "json"):
        error = refusal(text) if syntax == "yaml" else _json_refusal(text)
        assert (error.line, error.column) == (line, column)
        assert error.message == f"{message} is not allowed in a scenario document"


def _json_refusal(text: str) -> ReadError:
    with pytest.raises(ReadError) as info:
        read_text(text, syntax="json")
    return info.value


def test_tabs_line_breaks_and_a_byte_order_mark_are_fine() -> None:
    assert read_text("a: 1\r\nb:\r\n  - x\ty\r\n").document == {"a": 1, "b": ["x\ty"]}
    assert read_bytes("\ufeffa: 1\n".encode()).document == {"a": 1}
    assert read_bytes(b'\xef\xbb\xbf{"a": 1}', syntax="json").document == {"a": 1}


def test_a_file_that_is_not_utf8_is_refused() -> None:
    with pytest.raises(ReadError, match="not UTF-8 text"):
        read_bytes(b"a: \xe9t\xe9\n")


def test_a_second_document_in_the_stream_is_refused() -> None:
    assert refusal("a: 1\n---\nb: 2\n").line == 2


def test_bad_yaml_is_a_syntax_error_with_its_place() -> None:
    error = refusal("a: [1, 2\nb: 3\n")
    assert error.syntax and error.message.startswith("not valid YAML: ") and error.line
    assert error.located().startswith(f"not valid YAML: line {error.line}, column ")


def test_a_form_value_is_read_under_the_same_rules() -> None:
    assert read_value("{bob: 3, alice: 2}") == {"bob": 3, "alice": 2}
    with pytest.raises(ReadError, match="given twice"):
        read_value("{bob: 3, bob: 2}")
    with pytest.raises(ReadError, match="anchors and aliases"):
        read_value("[&a x, *a]")


# -- JSON ------------------------------------------------------------------------------------

def test_json_goes_through_the_same_caps() -> None:
    document = read_text(json.dumps(scenario_document("j")), syntax="json").document
    assert document == scenario_document("j") and type(document) is dict
    duplicate = _json_refusal('{"id": "a", "setup": {"turn": 1, "turn": 2}}')
    assert (duplicate.path, duplicate.message) == ("setup.turn", '"turn" given twice')
    assert read_text("[" * 13 + "]" * 13, syntax="json").document  # depth 12, the cap
    assert "nested too deeply" in _json_refusal("[" * 14 + "]" * 14).message
    assert "nested too deeply" in _json_refusal("[" * 100_000).message
    assert "too large" in _json_refusal(json.dumps({"a": [1] * MAX_NODES})).message
    assert _json_refusal('{"a": NaN}').message == (
        "NaN is not a number a scenario document can hold")
    assert _json_refusal('{"a": 1,}').line == 1


def test_the_command_line_refuses_a_key_given_twice(tmp_path: Any, capsys: Any) -> None:
    path = tmp_path / "twice.json"
    path.write_text('{"format": 1, "id": "a", "id": "b"}', encoding="utf-8")
    assert main(["check", str(path)]) == 1
    assert f'{path}: "id" given twice' in capsys.readouterr().err
    path = tmp_path / "bomb.yaml"
    path.write_text(alias_bomb(), encoding="utf-8")
    assert main(["check", str(path)]) == 1
    assert "line 8: anchors and aliases" in capsys.readouterr().err


# -- the engine's character check, on a document however it arrived ----------------------------

@pytest.mark.parametrize(("char", "kind"), [
    ("\x00", "a control character U+0000"), ("\x1b", "a control character U+001B"),
    ("\r", "a control character U+000D"), ("\x7f", "a control character U+007F"),
    ("\x9f", "a control character U+009F"), ("\ud83d", "a lone surrogate U+D83D"),
    ("\u202e", "a bidirectional control character U+202E"),
    ("\u2066", "a bidirectional control character U+2066"),
    ("\u200f", "a bidirectional control character U+200F"),
])
def test_a_refused_character_in_a_text_is_named_with_the_field_path(char: str,
                                                                    kind: str) -> None:
    doc = scenario_document("chars")
    doc["questions"][0]["ask"]["it"] = f"Vita{char} di Bob?"
    with pytest.raises(DocumentError) as info:
        parse(doc)
    assert [(e.path, e.message) for e in info.value.items] == [
        ("questions[0].ask.it", f"contains {kind} at position 5")]


def test_every_refused_character_is_reported_and_keys_are_named_safely() -> None:
    doc = scenario_document("chars")
    doc["story"]["en"] = "a\x00"
    doc["setup"]["battlefield"][0]["na\ud800me"] = {"x\u202e": "y"}
    with pytest.raises(DocumentError) as info:
        parse(doc)
    assert [(e.path, e.message) for e in info.value.items] == [
        ("story.en", "contains a control character U+0000 at position 2"),
        ("setup.battlefield[0]",
         'the key "na\\ud800me" contains a lone surrogate U+D800 at position 3'),
        ("setup.battlefield[0].na\\ud800me",
         'the key "x\\u202e" contains a bidirectional control character U+202E at position 2'),
    ]
    str(info.value).encode("utf-8")  # the messages themselves can be sent as UTF-8


def test_tabs_newlines_and_letters_of_every_language_are_fine_in_texts() -> None:
    doc = scenario_document("chars")
    doc["story"] = {"en": "Alice\tattacks.\nBob blocks.", "it": "Perché? «Sì»",
                    "es": "¿Qué? Ñandú — ok"}
    parse(doc)


def test_a_number_that_is_not_finite_is_refused() -> None:
    doc = scenario_document("nan")
    doc["questions"][0]["expect"] = float("nan")
    with pytest.raises(DocumentError) as info:
        parse(doc)
    assert [(e.path, e.message) for e in info.value.items] == [
        ("questions[0].expect", "must be a finite number")]


def test_make_obj_builds_what_the_dataclass_builds() -> None:
    """engine.state.make_obj skips the frozen __init__ for speed: same value, same checks."""
    import pytest

    from engine.state import Obj, make_obj

    values = {"id": "x", "name": {"en": "X"}, "types": frozenset({"creature"}),
              "controller": "a", "owner": "a", "power": 2, "toughness": 2}
    made = make_obj(**values)
    assert made == Obj(**values)  # type: ignore[arg-type]
    assert made.counters == {} and made.counters is not make_obj(**values).counters
    with pytest.raises(TypeError):
        make_obj(**values, colour="red")
    with pytest.raises(TypeError):
        make_obj(id="x")
