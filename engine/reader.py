"""The one reader of authored scenario documents: YAML or JSON text in, a document and the
line of each of its paths out, with a bounded amount of work whatever the text.

Every path that reads an authored document goes through here: the YAML editor and its
live preview, the form editor's YAML-valued fields, import, the library loader and the
command line. In this order, and each before any work that could grow with the next:

1. the size (``MAX_DOCUMENT_BYTES``, the one limit; docs/scenario-format.md says it);
2. the characters of the text that YAML can't hold (control characters, lone
   surrogates), by line and column;
3. composing, event by event, with the engine's caps applied as it goes: anchors and
   aliases (``&name``, ``*name``) and merge keys are refused, so no alias is ever
   expanded (a 500-byte "billion laughs" stops at its first anchor); a key given twice
   is refused with its path and line; nesting depth and the number of values stop the
   composer at the first value past the cap; only plain data comes out (text, numbers,
   true/false, null, lists, mappings: no dates, no binary, no custom tags).

The keys and texts inside the document (bidi controls as typed; escapes such as ``"\\0"``
or ``"\\u202e"`` that decode into refused characters) are checked by the engine's document
validation (:func:`engine.notation.parse`), which every document goes through however it
arrived, and which names the field.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

import yaml
from yaml.constructor import SafeConstructor
from yaml.events import (
    AliasEvent,
    MappingEndEvent,
    ScalarEvent,
    SequenceEndEvent,
    SequenceStartEvent,
    StreamEndEvent,
)
from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode
from yaml.resolver import Resolver

from engine.characters import describe_character, printable
from engine.document import MAX_DEPTH, MAX_NODES
from engine.errors import EngineError

MAX_DOCUMENT_BYTES = 256 * 1024  # the library's largest file is under 9 KB

Syntax = Literal["yaml", "json"]

ANCHORS_REFUSED = "anchors and aliases (&name, *name) are not allowed in a scenario document"
MERGE_REFUSED = "merge keys (<<) are not allowed in a scenario document"
TOO_LARGE = f"the document is too large (more than {MAX_NODES} values)"
TOO_DEEP = f"the document is nested too deeply (more than {MAX_DEPTH} levels)"

# Refused in the source text itself, by line and column: the characters YAML can't read
# (or reads as a line break: U+0085), the same for JSON. A carriage return is a line break.
# Bidi controls are valid YAML: they are refused where they matter, in a value or key,
# by the engine's validation, which names the field.
_SOURCE_FORBIDDEN = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\ud800-\udfff]")

_TAG = "tag:yaml.org,2002:"
_PLAIN_TAGS = frozenset(_TAG + t for t in ("str", "int", "float", "bool", "null", "seq", "map"))
_MERGE_TAG = _TAG + "merge"


class ReadError(EngineError):
    """A text that is not a document the engine will read: the message, and where."""

    def __init__(self, message: str, *, line: int | None = None, column: int | None = None,
                 path: str = "", syntax: bool = False) -> None:
        super().__init__(message)
        self.message = message
        self.line = line
        self.column = column
        self.path = path
        self.syntax = syntax  # not YAML or JSON at all, rather than refused by a rule here

    def located(self) -> str:
        """The message with its line and column, as the command line prints it
        (``not valid YAML: line 2, column 5: ...``, ``line 8: anchors and aliases ...``)."""
        where = f"line {self.line}" if self.line else ""
        if where and self.column:
            where += f", column {self.column}"
        if not where:
            return self.message
        if self.syntax:
            head, _, problem = self.message.partition(": ")
            return f"{head}: {where}: {problem}"
        return f"{where}: {self.message}"


@dataclass(frozen=True, slots=True)
class Reading:
    """A document and the line (1-based) of each of its paths (``actions[2].block``);
    read once, used for both the values and the error markers. No lines for JSON."""

    document: Any
    lines: dict[str, int] = field(default_factory=dict)


def read_bytes(data: bytes, *, syntax: Syntax = "yaml") -> Reading:
    """A document from a file's bytes (UTF-8, with or without a byte order mark)."""
    _check_size(len(data))
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as err:
        raise ReadError(f"the file is not UTF-8 text (byte {err.start + 1})") from None
    return read_text(text, syntax=syntax)


def read_text(text: str, *, syntax: Syntax = "yaml") -> Reading:
    """A document from YAML or JSON text: size first, then characters, then a bounded
    compose (see the module's docstring)."""
    if len(text) > MAX_DOCUMENT_BYTES:  # more characters than bytes allowed: no need to count
        _check_size(len(text))
    _check_size(len(text.encode("utf-8", "surrogatepass")))
    text = text.removeprefix("\ufeff")
    _check_characters(text)
    if syntax == "json":
        return Reading(_read_json(text))
    return _read_yaml(text)


def read_value(text: str) -> Any:
    """One YAML value (a form field's ``{key: value}``, a list, a number) read like a
    document: same limits, no anchors, no key given twice."""
    return read_text(text).document


def _check_size(size: int) -> None:
    if size > MAX_DOCUMENT_BYTES:
        raise ReadError(f"the document is larger than {MAX_DOCUMENT_BYTES // 1024} KB "
                        f"({size / 1024:.0f} KB)")


def _check_characters(text: str) -> None:
    found = _SOURCE_FORBIDDEN.search(text)
    if found is None:
        return
    line = text.count("\n", 0, found.start()) + 1
    column = found.start() - text.rfind("\n", 0, found.start())
    raise ReadError(f"{describe_character(found.group())} is not allowed in a scenario "
                    f"document", line=line, column=column)


# -- YAML ------------------------------------------------------------------------------------

class _PlainResolver(Resolver):
    """YAML 1.1's implicit types minus dates and ``=``: a date-like value stays text, so a
    document holds only what JSON can (and the database stores)."""

    yaml_implicit_resolvers = {
        first: [(tag, regexp) for tag, regexp in resolvers
                if tag not in (_TAG + "timestamp", _TAG + "value")]
        for first, resolvers in Resolver.yaml_implicit_resolvers.items()}


class _BoundedComposer(SafeConstructor, _PlainResolver):
    """PyYAML's composer, rewritten to refuse instead of expand and to stop at the caps;
    mixed in before a parser (libyaml's, or PyYAML's own) so that its
    ``get_single_node`` is the one used."""

    if TYPE_CHECKING:  # provided by the parser this is mixed with
        def check_event(self, *choices: Any) -> bool: ...
        def peek_event(self) -> Any: ...
        def get_event(self) -> Any: ...
        def dispose(self) -> None: ...

    def __init__(self) -> None:
        SafeConstructor.__init__(self)
        _PlainResolver.__init__(self)
        self.lines: dict[str, int] = {}
        self.values = 0

    def get_single_node(self) -> Node | None:
        self.get_event()  # stream start
        node = None
        if not self.check_event(StreamEndEvent):
            self.get_event()  # document start
            node = self._compose("", 0)
            self.get_event()  # document end
        if not self.check_event(StreamEndEvent):
            raise ReadError("a scenario file holds one document (a second `---` starts "
                            "another)", line=self.peek_event().start_mark.line + 1)
        self.get_event()
        return node

    def _compose(self, path: str, depth: int) -> Node:
        event = self.peek_event()
        line = event.start_mark.line + 1
        if isinstance(event, AliasEvent) or event.anchor is not None:
            raise ReadError(ANCHORS_REFUSED, line=line, path=path)
        self.values += 1
        if self.values > MAX_NODES:
            raise ReadError(TOO_LARGE, line=line, path=path)
        if depth > MAX_DEPTH:
            raise ReadError(TOO_DEEP, line=line, path=path)
        self.lines.setdefault(path, line)
        if isinstance(event, ScalarEvent):
            return self._scalar(path)
        if isinstance(event, SequenceStartEvent):
            return self._sequence(path, depth)
        return self._mapping(path, depth)

    def _tag(self, event: Any, kind: type[Node], value: str | None, path: str) -> str:
        tag = event.tag
        if tag is None or tag == "!":
            resolver: Any = self  # PyYAML's resolver is untyped
            tag = resolver.resolve(kind, value, event.implicit)
        if tag not in _PLAIN_TAGS and tag != _MERGE_TAG:
            shown = printable(str(event.tag)).replace(_TAG, "!!")
            raise ReadError(f"the tag {shown} is not allowed: a scenario "
                            f"document holds text, numbers, true/false, lists and mappings",
                            line=event.start_mark.line + 1, path=path)
        return str(tag)

    def _scalar(self, path: str) -> ScalarNode:
        event = self.get_event()
        tag = self._tag(event, ScalarNode, event.value, path)
        return ScalarNode(tag, event.value, event.start_mark, event.end_mark, style=event.style)

    def _sequence(self, path: str, depth: int) -> SequenceNode:
        start = self.get_event()
        node = SequenceNode(self._tag(start, SequenceNode, None, path), [], start.start_mark,
                            None, flow_style=start.flow_style)
        while not self.check_event(SequenceEndEvent):
            node.value.append(self._compose(f"{path}[{len(node.value)}]", depth + 1))
        node.end_mark = self.get_event().end_mark
        return node

    def _mapping(self, path: str, depth: int) -> MappingNode:
        start = self.get_event()
        node = MappingNode(self._tag(start, MappingNode, None, path), [], start.start_mark,
                           None, flow_style=start.flow_style)
        seen: dict[Any, int] = {}
        while not self.check_event(MappingEndEvent):
            key_node, key = self._key(path)
            line = key_node.start_mark.line + 1
            name = printable(str(key))
            child = f"{path}.{name}" if path else name
            if key in seen:
                first = "on the same line" if seen[key] == line else f"first at line {seen[key]}"
                raise ReadError(f'"{name}" given twice ({first})', line=line, path=child)
            seen[key] = line
            self.lines.setdefault(child, line)
            node.value.append((key_node, self._compose(child, depth + 1)))
        node.end_mark = self.get_event().end_mark
        return node

    def _key(self, path: str) -> tuple[ScalarNode, Any]:
        """A mapping key: one plain value (what a JSON object's keys can be), read as the
        dict will hold it, so that ``1`` and ``true`` are the same key as they are there."""
        event = self.peek_event()
        line = event.start_mark.line + 1
        if isinstance(event, AliasEvent) or event.anchor is not None:
            raise ReadError(ANCHORS_REFUSED, line=line, path=path)
        if not isinstance(event, ScalarEvent):
            raise ReadError("a key is one word or number, not a list or a mapping",
                            line=line, path=path)
        key_node = self._scalar(path)
        if key_node.tag == _MERGE_TAG:
            raise ReadError(MERGE_REFUSED, line=line, path=path)
        return key_node, self.construct_object(key_node)


Loader = Callable[[str], _BoundedComposer]


def _loader_classes() -> list[Loader]:
    """The bounded composer on libyaml's parser when PyYAML has it, and on PyYAML's own
    pure-Python one (the fallback, and the one the tests also run)."""
    from yaml.parser import Parser
    from yaml.reader import Reader
    from yaml.scanner import Scanner

    class PyLoader(_BoundedComposer, Reader, Scanner, Parser):
        def __init__(self, stream: str) -> None:
            Reader.__init__(self, stream)
            Scanner.__init__(self)
            Parser.__init__(self)
            _BoundedComposer.__init__(self)

    classes: list[Loader] = [PyLoader]
    if getattr(yaml, "__with_libyaml__", False):
        from yaml._yaml import CParser

        class CLoader(_BoundedComposer, CParser):
            def __init__(self, stream: str) -> None:
                CParser.__init__(self, stream)
                _BoundedComposer.__init__(self)

        classes.insert(0, CLoader)
    return classes


LOADERS = _loader_classes()


def _read_yaml(text: str, loader: Loader | None = None) -> Reading:
    composer = (loader or LOADERS[0])(text)
    try:
        document = composer.get_single_data()
    except yaml.MarkedYAMLError as err:
        mark = err.problem_mark or err.context_mark
        problem = err.problem or err.context or "not valid YAML"
        raise ReadError(f"not valid YAML: {problem}", line=mark.line + 1 if mark else None,
                        column=mark.column + 1 if mark else None, syntax=True) from None
    except yaml.YAMLError as err:
        raise ReadError(f"not valid YAML: {str(err).splitlines()[0]}", syntax=True) from None
    finally:
        composer.dispose()
    return Reading(document, composer.lines)


# -- JSON ------------------------------------------------------------------------------------

class _Object(dict[str, Any]):
    """A JSON object as decoded, remembering a key given twice (found with its path later,
    when the bounded walk reaches it)."""

    duplicate: str | None = None


def _object(pairs: list[tuple[str, Any]]) -> _Object:
    out = _Object()
    for key, value in pairs:
        if key in out and out.duplicate is None:
            out.duplicate = key
        out[key] = value
    return out


def _no_constant(name: str) -> Any:
    raise ReadError(f"{name} is not a number a scenario document can hold", syntax=True)


def _read_json(text: str) -> Any:
    try:
        value = json.loads(text, object_pairs_hook=_object, parse_constant=_no_constant)
    except json.JSONDecodeError as err:
        raise ReadError(f"not valid JSON: {err.msg}", line=err.lineno, column=err.colno,
                        syntax=True) from None
    except RecursionError:
        raise ReadError(TOO_DEEP) from None
    return _bounded(value, "", 0, [0])


def _bounded(value: Any, path: str, depth: int, count: list[int]) -> Any:
    """The decoded JSON as plain values, under the same caps as YAML: depth, number of
    values, no key given twice."""
    count[0] += 1
    if count[0] > MAX_NODES:
        raise ReadError(TOO_LARGE, path=path)
    if depth > MAX_DEPTH:
        raise ReadError(TOO_DEEP, path=path)
    if isinstance(value, dict):
        if isinstance(value, _Object) and value.duplicate is not None:
            name = printable(value.duplicate)
            raise ReadError(f'"{name}" given twice', path=f"{path}.{name}" if path else name)
        return {k: _bounded(v, f"{path}.{printable(k)}" if path else printable(k),
                            depth + 1, count) for k, v in value.items()}
    if isinstance(value, list):
        return [_bounded(v, f"{path}[{i}]", depth + 1, count) for i, v in enumerate(value)]
    return value


# -- files and named texts (the command line, the library loader) ---------------------

def load_document(path: str) -> Any:
    """A YAML or JSON scenario file through the one reader (size first, no anchors, no
    key given twice, no arbitrary tags); never more than the size limit is read."""
    try:
        with Path(path).open("rb") as file:
            data = file.read(MAX_DOCUMENT_BYTES + 1)
    except OSError as err:
        raise EngineError(f"{path}: can't read the file ({err.strerror})") from None
    try:
        return read_bytes(data, syntax=_syntax(path)).document
    except ReadError as err:
        raise EngineError(f"{path}: {err.located()}") from None


def parse_text(text: str, name: str = "document") -> Any:
    """A document from text, named for the messages (``.json`` names are read as JSON)."""
    try:
        return read_text(text, syntax=_syntax(name)).document
    except ReadError as err:
        raise EngineError(f"{name}: {err.located()}") from None


def _syntax(name: str) -> Syntax:
    return "json" if name.lower().endswith(".json") else "yaml"
