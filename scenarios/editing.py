"""Authoring helpers: YAML text <-> documents with line numbers for error paths, the
texts of a document as a side-by-side translation table, version diffs."""

from __future__ import annotations

import copy
import difflib
from dataclasses import dataclass
from typing import Any

import yaml

from engine import ReadError, Reading, Syntax, languages, read_text, setup_items
from scenarios.library import dump_document

NEW_DOCUMENT = """format: 1
id: new-scenario
topic: trample-into-planeswalkers
difficulty: 2
title: {en: "A new scenario"}
story: {en: "Alice attacks {garruk} with {wurm}; Bob blocks with {bears}."}
setup:
  turn: {active: alice, step: main1}
  players:
    - {id: alice, life: 20}
    - {id: bob, life: 20}
  battlefield:
    - {id: wurm, card: colossal-dreadmaw, controller: alice}
    - {id: garruk, card: garruk-wildspeaker, controller: bob, counters: {loyalty: 3}}
    - {id: bears, card: grizzly-bears, controller: bob}
actions:
  - attack: {wurm: garruk}
  - block: {bears: wurm}
  - combat_damage: {}
questions:
  - id: bob-life
    kind: number
    ask: {en: "What is Bob's life total now?"}
    answer: {life: bob}
    expect: 20
explain: {en: "Trample never carries damage past a planeswalker to its controller (702.19)."}
"""


class SourceError(Exception):
    def __init__(self, message: str, line: int | None = None) -> None:
        super().__init__(message)
        self.line = line


def flow_yaml(value: Any) -> str:
    """A value in compact one-line YAML, as an author writes it in a document: a form
    field's text, an engine answer beside the ``expect`` it is compared with."""
    if value is None:
        return ""
    text = yaml.safe_dump(value, default_flow_style=True, allow_unicode=True, width=10_000)
    return text.strip().removesuffix("...").strip()


def read_source(text: str, *, syntax: Syntax = "yaml") -> Reading:
    """The document and line numbers of an authored text, read once through the engine's
    one reader (size first, no anchors or aliases, no key given twice, caps while
    composing)."""
    try:
        return read_text(text, syntax=syntax)
    except ReadError as err:
        column = f" (column {err.column})" if err.column else ""
        raise SourceError(err.message + column, err.line) from None


def parse_source(text: str, *, syntax: Syntax = "yaml") -> Any:
    """A document from YAML (or JSON) text; a scenario document is a mapping."""
    return as_document(read_source(text, syntax=syntax).document)


def as_document(document: Any) -> dict[str, Any]:
    if not isinstance(document, dict):
        raise SourceError("a scenario document is a mapping of fields")
    return document


def path_lines(text: str) -> dict[str, int]:
    """Line number (1-based) of each path (``actions[2].block.bears``) in the YAML text;
    none for a text the reader refuses (its error carries its own line)."""
    try:
        return read_source(text).lines
    except SourceError:
        return {}


def line_of(lines: dict[str, int], path: str) -> int | None:
    """The line of ``path``, or of its nearest parent that has one."""
    while path:
        if path in lines:
            return lines[path]
        if path.endswith("]"):
            path = path[: path.rfind("[")]
        elif "." in path:
            path = path[: path.rfind(".")]
        else:
            break
    return lines.get(path)


@dataclass(frozen=True, slots=True)
class TextRow:
    path: str
    label: str
    values: dict[str, str]


def text_rows(document: dict[str, Any]) -> list[TextRow]:
    """Every translatable text of a document, in reading order."""
    rows: list[TextRow] = []

    def add(path: str, label: str, node: Any) -> None:
        if isinstance(node, dict):
            rows.append(TextRow(path, label, {lang: str(node.get(lang) or "")
                                              for lang in languages()}))

    add("title", "title", document.get("title"))
    story = document.get("story", {"en": ""})
    if isinstance(story, list):  # alternatives, each with its `when:`
        for i, alternative in enumerate(story):
            when = alternative.get("when") if isinstance(alternative, dict) else None
            add(f"story[{i}]", f"story ({flow_yaml(when)})" if when else "story", alternative)
    else:
        add("story", "story", story)
    for i, q in enumerate(document.get("questions") or []):
        if not isinstance(q, dict):
            continue
        add(f"questions[{i}].ask", f"{q.get('id', i)}: ask", q.get("ask"))
        for j, o in enumerate(q.get("options") or []):
            if isinstance(o, dict):
                add(f"questions[{i}].options[{j}].text", f"{q.get('id', i)} / {o.get('id', j)}",
                    o.get("text"))
    add("explain", "explain", document.get("explain", {"en": ""}))
    return rows


def beyond_the_forms(document: dict[str, Any]) -> list[str]:
    """The paths of what the form editor can't show, and so could not save back: a
    generator's conditions (`when:`) and a story written as alternatives. Such a document
    is edited in the YAML editor; the form editor says so and offers no form."""
    out = ["story"] if isinstance(document.get("story"), list) else []
    items = list(setup_items(document))
    items += [(f"{name}[{i}]", item) for name in ("actions", "questions")
              if isinstance(document.get(name), list)
              for i, item in enumerate(document[name]) if isinstance(item, dict)]
    return out + [f"{path}.when" for path, item in items if "when" in item]


def apply_texts(document: dict[str, Any], data: Any) -> dict[str, Any]:
    """A copy of the document with the posted texts (``text:PATH:LANG`` fields)."""
    doc = copy.deepcopy(document)
    for row in text_rows(doc):
        target = _resolve(doc, row.path, create=True)
        for lang in languages():
            value = str(data.get(f"text:{row.path}:{lang}", row.values[lang])).strip()
            if value:
                target[lang] = value
            else:
                target.pop(lang, None)
        if not target:
            _drop(doc, row.path)
    return doc


def _resolve(doc: dict[str, Any], path: str, *, create: bool) -> dict[str, Any]:
    node: Any = doc
    for part in path.replace("]", "").replace("[", ".").split("."):
        key: Any = int(part) if part.isdigit() else part
        if isinstance(node, list):
            node = node[key]
        else:
            if key not in node and create:
                node[key] = {}
            node = node[key]
    assert isinstance(node, dict)
    return node


def _drop(doc: dict[str, Any], path: str) -> None:
    if "." not in path and "[" not in path:
        doc.pop(path, None)


def version_diff(a: dict[str, Any], b: dict[str, Any], label_a: str, label_b: str) -> list[str]:
    return list(difflib.unified_diff(dump_document(a).splitlines(),
                                     dump_document(b).splitlines(), label_a, label_b,
                                     lineterm=""))
