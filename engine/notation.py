"""Scenario documents <-> engine values.

Parses and validates a scenario document (format 1, see docs/scenario-format.md): every
error names the path of the field it concerns (``actions[2].block.bears``). Parameters
are expanded from a seed; seed 0 is the default variant. The board is parsed by
``engine.setup``, the actions and queries by their kinds (``engine.kinds``), the questions
by ``engine.questions``, the texts by ``engine.texts``.
"""

from __future__ import annotations

import itertools
import math
import random
import re
import threading
from collections import OrderedDict
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from engine.characters import FORBIDDEN_CHARACTERS, printable, text_problem
from engine.document import (
    FORMAT,
    MAX_ACTIONS,
    MAX_DEPTH,
    MAX_NODES,
    MAX_PARAM_VALUES,
    MAX_PARAMS,
    MAX_QUESTIONS,
    MAX_TEXT,
    PARAM_REF,
    QUESTION_KINDS,
    SLUG,
    SLUG_RULE,
    TOPICS,
    Ids,
)
from engine.eras import ERA_KEYS
from engine.errors import CapExceeded, DocumentError, ErrorItem, Errors
from engine.kinds.actions import ACTION_KINDS, parse_action
from engine.kinds.actions.roll_planar_die import DIE_RESULTS
from engine.kinds.base import Action
from engine.kinds.queries import QUERY_KINDS
from engine.params import (
    PRUNED,
    Condition,
    Reference,
    card_pool,
    conditions,
    holds,
    parse_condition,
    references,
    setup_items,
    shown,
)
from engine.questions import Question, parse_questions
from engine.setup import parse_setup
from engine.state import GameState, Obj
from engine.texts import PLACEHOLDER, parse_text, render_text

__all__ = [
    "ACTION_KINDS", "DIE_RESULTS", "FORMAT", "MAX_DEPTH", "MAX_NODES", "MAX_TEXT",
    "PLACEHOLDER", "QUERY_KINDS", "QUESTION_KINDS", "TOPICS", "Param", "Question", "Scenario",
    "Variant", "parse", "render_text",
]

MAX_STORIES = 8
KEPT_VARIANTS = 128
"""Variants kept in memory, of every scenario together (``Scenario.variant``): the least
recently used goes first. A generator's variant is about 13 KB, so under 2 MB in all:
A request asks for the same variant several times (the page, the grading, the
explanation); a variant pushed out is built again (a quarter of a millisecond)."""
_kept: OrderedDict[tuple[Scenario, tuple[tuple[str, str], ...]], Variant] = OrderedDict()
_kept_lock = threading.Lock()


def kept_variants() -> list[Variant]:
    """The variants kept now, least recently used first (the memory bench measures them)."""
    with _kept_lock:
        return list(_kept.values())


def forget_variants() -> None:
    with _kept_lock:
        _kept.clear()


# -- value objects -------------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class Param:
    name: str
    values: tuple[Any, ...]
    default: Any
    kind: str = "choice"
    """``range``, ``choice`` or ``card`` (a catalog filter; ``values`` are the slugs it
    matches)."""


@dataclass(frozen=True, slots=True)
class Variant:
    """One concrete variant of a scenario: parameters bound, board built. ``seed`` is a
    seed that draws ``values`` (the first one asked for, see :meth:`Scenario.variant`)."""

    seed: int
    values: Mapping[str, Any]
    state: GameState
    actions: tuple[Action, ...]
    new_objects: Mapping[int, Obj]
    questions: tuple[Question, ...]


@dataclass(frozen=True, slots=True, eq=False)
class Scenario:
    """A parsed scenario document (compared and hashed by identity: parse once, keep)."""

    id: str
    topic: str
    difficulty: int
    eras: tuple[str, ...] | None
    title: Mapping[str, str]
    story: Mapping[str, str]
    explain: Mapping[str, str]
    params: tuple[Param, ...]
    document: Mapping[str, Any]
    warnings: tuple[ErrorItem, ...] = field(default=())
    literal: bool = False
    """No parameters and no ``$name`` anywhere: a variant is built from the document
    itself, without the copy that substitution makes."""
    conditions: Mapping[str, Condition] = field(default_factory=dict)
    """Every `when:` by the path of its item (``actions[3]``)."""
    stories: tuple[tuple[Condition, Mapping[str, str]], ...] = ()
    """A story written as alternatives (``story: [{when: ..., en: ...}, ...]``)."""
    references: tuple[Reference, ...] = ()
    """Every use of a parameter in the script (``engine.params.references``)."""
    _static: frozenset[int] = field(default=frozenset(), compare=False, repr=False)
    """The ids of the document's subtrees that no variant changes (no ``$name``, no
    `when:`): a variant shares them instead of copying them."""

    @property
    def is_generator(self) -> bool:
        return bool(self.params)

    def question_condition(self, question_id: str) -> Condition:
        """The `when:` of a question (empty: it is asked in every variant)."""
        for i, q in enumerate(self.document.get("questions") or ()):
            if isinstance(q, dict) and q.get("id") == question_id:
                return self.conditions.get(f"questions[{i}]", ())
        return ()

    def story_for(self, values: Mapping[str, Any]) -> Mapping[str, str]:
        """The story a variant shows: the first alternative whose `when:` holds (none:
        no story), or the one story."""
        if not self.stories:
            return self.story
        for cond, texts in self.stories:
            if holds(cond, values):
                return texts
        return {}

    def shown_params(self, values: Mapping[str, Any]) -> frozenset[str]:
        """The parameters a variant with these values uses in its script (the others
        change nothing on its board: ``engine.params.shown``)."""
        return shown(self.references, values)

    def asks(self, question_id: str, values: Mapping[str, Any]) -> bool:
        """Whether a variant with these values asks this question."""
        return holds(self.question_condition(question_id), values)

    def values_for(self, seed: int) -> dict[str, Any]:
        """Parameter values of a variant; seed 0 is every parameter at its default."""
        if seed == 0 or not self.params:
            return {p.name: p.default for p in self.params}
        rng = random.Random(f"{self.id}:{seed}")
        return {p.name: rng.choice(p.values) for p in self.params}

    def value_count(self) -> int:
        """How many sets of parameter values there are (distinct boards may be fewer:
        ``engine.draws.board_count``)."""
        n = 1
        for p in self.params:
            n *= len(p.values)
        return n

    def all_value_sets(self) -> Iterator[dict[str, Any]]:
        """Every set of parameter values, in order."""
        names = [p.name for p in self.params]
        for combo in itertools.product(*(p.values for p in self.params)):
            yield dict(zip(names, combo, strict=True))

    def variant(self, seed: int = 0) -> Variant:
        """The variant of ``seed``. Many seeds draw the same parameter values, and a
        variant is immutable, so one is built per set of values and kept (the
        ``KEPT_VARIANTS`` most recently used, of every scenario): its ``seed`` is the first
        seed that drew those values, the key callers cache its outcomes under."""
        values = self.values_for(seed)
        key = (self, tuple((name, repr(value)) for name, value in values.items()))
        with _kept_lock:
            cached = _kept.get(key)
            if cached is not None:
                _kept.move_to_end(key)
                return cached
        built = self.bind(values, seed)
        with _kept_lock:
            cached = _kept.setdefault(key, built)  # or the one another thread kept first
            _kept.move_to_end(key)
            while len(_kept) > KEPT_VARIANTS:
                _kept.popitem(last=False)
        return cached

    def bind(self, values: Mapping[str, Any], seed: int = 0) -> Variant:
        if self.literal:
            return _build(self.document, seed, values)
        doc = _substitute(self.document, values, "", self.conditions, self._static)
        return _build(doc, seed, values)



# -- parsing ---------------------------------------------------------------------------------

def _scan(document: dict[str, Any]) -> tuple[bool, bool]:
    """One pass over a whole document, without paths: whether it is within the caps with
    no refused character (otherwise ``_check_size`` walks it again to name each problem
    at its path), and whether a ``$`` appears in any key or text (a parameter reference
    can't be written without one). The texts are searched for refused characters in one
    regular-expression pass over their join (a newline, the separator, is allowed)."""
    texts: list[str] = []
    add = texts.append
    stack: list[tuple[Any, int]] = [(document, 0)]
    pop = stack.pop
    push = stack.append
    nodes = 0
    while stack:
        node, depth = pop()
        nodes += 1
        if nodes > MAX_NODES or depth > MAX_DEPTH:
            return False, True
        kind = type(node)
        if kind is dict:
            depth += 1
            for k, v in node.items():
                if type(k) is str:
                    add(k)
                elif isinstance(k, str):
                    return False, True
                push((v, depth))
        elif kind is list:
            depth += 1
            for v in node:
                push((v, depth))
        elif kind is str:
            if len(node) > MAX_TEXT:
                return False, True
            add(node)
        elif kind is float:
            if not math.isfinite(node):
                return False, True
        elif isinstance(node, (dict, list, str, float)):
            return False, True  # a subclass: the careful walk decides
    joined = "\n".join(texts)
    return FORBIDDEN_CHARACTERS.search(joined) is None, "$" in joined


def _check_size(node: Any, path: str, depth: int = 0, counter: list[int] | None = None,
                problems: list[ErrorItem] | None = None) -> None:
    """The caps (raised at once) and the characters of every key and text (collected in
    ``problems``), over the whole document before any field is read: a document dict from
    the form editor or a JSON body is checked as one read from YAML is."""
    counter = counter if counter is not None else [0]
    problems = problems if problems is not None else []
    counter[0] += 1
    if counter[0] > MAX_NODES:
        raise CapExceeded(ErrorItem(path or "(document)",
                                    f"the document is too large (more than {MAX_NODES} values)"))
    if depth > MAX_DEPTH:
        raise CapExceeded(ErrorItem(path, f"the document is nested too deeply "
                                          f"(more than {MAX_DEPTH} levels)"))
    if isinstance(node, dict):
        for k, v in node.items():
            name = str(k)
            why = text_problem(k) if isinstance(k, str) else None
            if why:
                name = printable(k)
                problems.append(ErrorItem(path or "(document)", f'the key "{name}" {why}'))
            _check_size(v, f"{path}.{name}" if path else name, depth + 1, counter, problems)
    elif isinstance(node, list):
        for i, v in enumerate(node):
            _check_size(v, f"{path}[{i}]", depth + 1, counter, problems)
    elif isinstance(node, str):
        if len(node) > MAX_TEXT:
            raise CapExceeded(ErrorItem(path, f"text longer than {MAX_TEXT} characters"))
        why = text_problem(node)
        if why:
            problems.append(ErrorItem(path, why))
    elif isinstance(node, float) and not math.isfinite(node):
        problems.append(ErrorItem(path, "must be a finite number"))


def parse(document: Any) -> Scenario:
    """Validate a document's shape and parameters and return the scenario; variants are
    built (and their boards and actions checked) by ``Scenario.variant``."""
    if not isinstance(document, dict):
        raise DocumentError.at("", "a scenario document is a mapping of fields")
    clean, dollars = _scan(document)
    if not clean:
        problems: list[ErrorItem] = []
        _check_size(document, "", problems=problems)
        if problems:
            raise DocumentError(problems)
    err = Errors()
    allowed = {"format", "id", "topic", "difficulty", "eras", "title", "story", "setup",
               "actions", "questions", "explain", "params"}
    for key in document:
        if key not in allowed:
            err.add(str(key), f"unknown field {key!r}; expected one of: "
                              f"{', '.join(sorted(allowed))}")
    if document.get("format") != FORMAT:
        err.add("format", f"`format` must be {FORMAT}")
    sid = document.get("id")
    if not isinstance(sid, str) or not SLUG.match(sid):
        err.add("id", f"`id` must be a slug: {SLUG_RULE}")
    topic = document.get("topic")
    if topic not in TOPICS:
        err.add("topic", f"unknown topic {topic!r}; expected one of: {', '.join(TOPICS)}")
    difficulty = document.get("difficulty")
    if not (isinstance(difficulty, int) and not isinstance(difficulty, bool)
            and 1 <= difficulty <= 5):
        err.add("difficulty", "`difficulty` must be a whole number from 1 to 5")
    eras = document.get("eras")
    era_tuple: tuple[str, ...] | None = None
    if eras is not None:
        if not isinstance(eras, list) or not eras:
            err.add("eras", "`eras` must be a non-empty list of era ids")
        else:
            for i, e in enumerate(eras):
                if e not in ERA_KEYS:
                    err.add(f"eras[{i}]", f"unknown era {e!r}; known eras: "
                                          f"{', '.join(ERA_KEYS)}")
            if len(set(map(str, eras))) != len(eras):
                err.add("eras", "an era is listed twice")
            era_tuple = tuple(e for e in ERA_KEYS if e in eras)
    title = parse_text(document.get("title"), "title", err, required=True)
    raw_story = document.get("story")
    stories: list[tuple[Any, dict[str, str]]] = []
    if isinstance(raw_story, list):
        # Alternatives, each with its `when:` (checked once the parameters are read)
        if not raw_story or len(raw_story) > MAX_STORIES:
            err.add("story", f"a list of stories has 1 to {MAX_STORIES} alternatives")
        for i, alt in enumerate(raw_story[:MAX_STORIES]):
            if not isinstance(alt, dict):
                err.add(f"story[{i}]", "an alternative is {when: {...}, en: ..., it: ...}")
                continue
            texts = {k: v for k, v in alt.items() if k != "when"}
            stories.append((alt.get("when"), parse_text(texts, f"story[{i}]", err,
                                                          required=True)))
        story = stories[0][1] if stories else {}
    else:
        story = parse_text(raw_story, "story", err, required=False)
    explain = parse_text(document.get("explain"), "explain", err, required=False)
    n_params = len(err.items)
    params = _params(document.get("params"), err)
    params_ok = len(err.items) == n_params
    for key in ("setup", "actions", "questions"):
        if key not in document:
            err.add(key, f"`{key}` is required")
    if not isinstance(document.get("actions", []), list):
        err.add("actions", "`actions` must be a list")
    elif len(document.get("actions", [])) > MAX_ACTIONS:
        err.add("actions", f"at most {MAX_ACTIONS} actions")
    questions = document.get("questions", [])
    if not isinstance(questions, list) or not questions:
        err.add("questions", "`questions` must be a non-empty list")
    elif len(questions) > MAX_QUESTIONS:
        err.add("questions", f"at most {MAX_QUESTIONS} questions")
    conds = conditions(document, {p.name: p.values for p in params}, err) if params_ok else {}
    for name in sorted({p.name for p in params} & _shadowed(document)):
        err.add(f"params.{name}", (
            f"an object or player has the id {name!r} too, and isn't `card: ${name}`: in a "
            f"text, {{{name}}} would show the parameter, not it; rename one of them"))
    story_alternatives = []
    for i, (when, texts) in enumerate(stories):
        cond: Condition = ()
        if when is not None:
            if not params:
                err.add(f"story[{i}].when", "`when` needs parameters: it picks this story "
                                            "by a parameter's value")
            elif params_ok:
                cond = parse_condition(when, f"story[{i}].when",
                                       {p.name: p.values for p in params}, err)
        story_alternatives.append((cond, texts))
    if err.items and params_ok and _buildable(document):
        # The board, actions and questions are checked too: an error in `id` or `title`
        # hides none of theirs.
        try:
            _build(_substitute(document, {p.name: p.default for p in params}, "", conds),
                   0, {})
        except DocumentError as more:
            err.items.extend(more.items)
    err.raise_if_any()
    assert isinstance(difficulty, int)
    literal = not params and not dollars
    scenario = Scenario(str(sid), str(topic), difficulty, era_tuple, title, story,
                        explain, params, document, literal=literal, conditions=conds,
                        stories=tuple(story_alternatives),
                        references=references(document, conds, PARAM_REF) if params else (),
                        _static=frozenset() if literal else _static_nodes(document))
    # Build the default variant now: every structural error surfaces at parse time.
    scenario.variant(0)
    return scenario


def _shadowed(document: Mapping[str, Any]) -> set[str]:
    """The setup's ids a parameter of the same name would hide in texts: all but those of
    objects drawn by that very parameter (``{id: a, card: $a}``, where ``{a}`` names the
    same card either way)."""
    return {item["id"] for _path, item in setup_items(document)
            if isinstance(item.get("id"), str) and item.get("card") != f"${item['id']}"}


def _buildable(document: Mapping[str, Any]) -> bool:
    """Whether the document's setup, actions and questions can be read at all."""
    return ("setup" in document and isinstance(document.get("actions", []), list)
            and len(document.get("actions", [])) <= MAX_ACTIONS
            and isinstance(document.get("questions"), list)
            and 0 < len(document["questions"]) <= MAX_QUESTIONS)


def _params(value: Any, err: Errors) -> tuple[Param, ...]:
    if value is None:
        return ()
    if not isinstance(value, dict):
        err.add("params", "`params` is a mapping name -> {range: [lo, hi]} or {choice: [...]}")
        return ()
    if len(value) > MAX_PARAMS:
        err.add("params", f"at most {MAX_PARAMS} parameters")
    out = []
    for name, spec in value.items():
        path = f"params.{name}"
        if not isinstance(name, str) or not re.match(r"^[a-z_][a-z0-9_]*$", name):
            err.add(path, "a parameter name is lowercase letters, digits and underscores")
            continue
        kinds = {"range", "choice", "card"}
        if not isinstance(spec, dict) or not (kinds & spec.keys()):
            err.add(path, "a parameter needs `range: [lo, hi]`, `choice: [...]` or "
                          "`card: {filter}`")
            continue
        for k in spec:
            if k not in (*kinds, "default"):
                err.add(f"{path}.{k}", f"unknown field {k!r}; expected range, choice, card, "
                                       f"default")
        if len(kinds & spec.keys()) > 1:
            err.add(path, "give one of `range`, `choice` or `card`")
            continue
        values: tuple[Any, ...]
        kind = next(k for k in ("range", "choice", "card") if k in spec)
        if kind == "card":
            n = len(err.items)
            values = card_pool(spec["card"], f"{path}.card", err)
            if len(err.items) > n:
                continue
        elif "range" in spec:
            r = spec["range"]
            if (not isinstance(r, list) or len(r) != 2
                    or not all(isinstance(v, int) and not isinstance(v, bool) for v in r)
                    or r[0] > r[1]):
                err.add(f"{path}.range", "`range` is [lo, hi], two whole numbers, lo <= hi")
                continue
            if r[1] - r[0] + 1 > MAX_PARAM_VALUES:
                err.add(f"{path}.range", f"at most {MAX_PARAM_VALUES} values")
                continue
            values = tuple(range(r[0], r[1] + 1))
        else:
            c = spec["choice"]
            if not isinstance(c, list) or not c or len(c) > MAX_PARAM_VALUES or not all(
                    isinstance(v, (str, int)) for v in c):
                err.add(f"{path}.choice", "`choice` is a non-empty list of strings, numbers "
                                          "or yes/no")
                continue
            if len({(type(v), v) for v in c}) != len(c):
                err.add(f"{path}.choice", "a value is listed twice")
                continue
            values = tuple(c)
        default = spec.get("default", values[0])
        if not any(default == v and type(default) is type(v) for v in values):
            err.add(f"{path}.default", f"the default {default!r} is not one of the values"
                    + (" (the cards this filter matches)" if kind == "card" else ""))
            continue
        out.append(Param(name, values, default, kind))
    return tuple(out)


_TEXTS = ("title", "story", "explain")


def _static_nodes(document: Mapping[str, Any]) -> frozenset[int]:
    """The ids of the subtrees of ``setup``, ``actions`` and ``questions`` with no
    ``$name`` and no `when:` in them (the document is kept by its scenario, so the ids
    stay valid)."""
    static: set[int] = set()

    def visit(node: Any) -> bool:
        if isinstance(node, str):
            return PARAM_REF.match(node) is None
        if isinstance(node, dict):
            ok = "when" not in node
            for v in node.values():
                ok = visit(v) and ok
        elif isinstance(node, list):
            ok = True
            for v in node:
                ok = visit(v) and ok
        else:
            return True
        if ok:
            static.add(id(node))
        return ok

    for key in ("setup", "actions", "questions"):
        visit(document.get(key))
    return frozenset(static)


def _substitute(node: Any, values: Mapping[str, Any], path: str,
                conds: Mapping[str, Condition] | None = None,
                static: frozenset[int] = frozenset()) -> Any:
    """The document with each ``$name`` replaced by its value, and each list item whose
    `when:` is false replaced by ``PRUNED`` (its `when:` removed otherwise). Texts and the
    subtrees in ``static`` are shared, not copied."""
    if path == "":
        return {k: (v if k in _TEXTS or k == "params" else
                    _substitute(v, values, k, conds, static))
                for k, v in node.items() if k != "params"}
    if id(node) in static:
        return node
    if isinstance(node, str):
        m = PARAM_REF.match(node)
        if m:
            if m.group(1) not in values:
                raise DocumentError.at(path, f"unknown parameter ${m.group(1)}")
            return values[m.group(1)]
        return node
    if isinstance(node, dict):
        if "when" in node and conds is not None and path in conds:
            if not holds(conds[path], values):
                return PRUNED
            node = {k: v for k, v in node.items() if k != "when"}
        return {k: _substitute(v, values, f"{path}.{k}", conds, static)
                for k, v in node.items()}
    if isinstance(node, list):
        return [_substitute(v, values, f"{path}[{i}]", conds, static)
                for i, v in enumerate(node)]
    return node



# -- building a variant -------------------------------------------------------------------------

def _build(doc: Mapping[str, Any], seed: int, values: Mapping[str, Any]) -> Variant:
    state = parse_setup(doc.get("setup"))
    err = Errors()
    actions, new_objects = _actions(doc.get("actions", []), state, err)
    known = Ids([*state.objects, *(o.id for o in new_objects.values())])
    questions = parse_questions(doc.get("questions", []), state, known, err)
    err.raise_if_any()
    return Variant(seed, dict(values), state, tuple(actions), new_objects, tuple(questions))


def _actions(raw: Any, state: GameState, err: Errors) -> tuple[list[Action], dict[int, Obj]]:
    actions: list[Action] = []
    new_objects: dict[int, Obj] = {}
    known = Ids(state.objects)
    if not isinstance(raw, list):
        return actions, new_objects
    for i, item in enumerate(raw):
        if item is PRUNED:
            continue
        path = f"actions[{i}]"
        # An action that brings an object in is found by its place among the variant's
        # actions (``Variant.actions``), which leave out those switched off.
        action = parse_action(item, path, state, known, err, new_objects, len(actions))
        if action is not None:
            actions.append(action)
    return actions, new_objects
