"""What an action kind or a query kind is: a spec, and what parsing one needs.

A kind is one small module (``engine/kinds/actions/<kind>.py``,
``engine/kinds/queries/<kind>.py``) holding its typed value, how it is parsed from a
document, how it is performed (or answered), its JSON-Schema fragment and, for an action,
the form editor's fields. The registries (``engine.kinds.actions``,
``engine.kinds.queries``) list the modules; the parser, the runner, the schema and the
form editor look kinds up there instead of branching on them.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from engine.document import MAX_NUMBER, IdDict, is_int
from engine.eras import Era
from engine.errors import DocumentError, Errors
from engine.schema_parts import Schema
from engine.state import GameState, Obj, Player, Team
from engine.trace import Trace


def gettext_noop(s: str) -> str:
    """Marks an English label for translation: Django's makemessages extracts it, and the
    form editor translates it when it shows the field (the engine stays free of Django)."""
    return s


# -- parsed values ------------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class Action:
    """One action of a scenario: its kind, the path of its field, its typed value."""

    kind: str
    path: str
    value: Any


@dataclass(frozen=True, slots=True)
class Query:
    """One query about the state: its kind, the path of its field, its typed value."""

    kind: str
    path: str
    value: Any


# -- parsing --------------------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class ParseContext:
    """What parsing an action or a query needs: the board, the object ids known so far (an
    ``enter`` adds one), the error collector, and where an ``enter`` puts its new object
    (``new_objects[index]``; None when parsing the action of a `legal` query)."""

    state: GameState
    known: set[str]
    err: Errors
    new_objects: dict[int, Obj] | None = None
    index: int = 0

    @property
    def players(self) -> Mapping[str, Player]:
        return IdDict(self.state.players)

    @property
    def teams(self) -> Mapping[str, Team]:
        return IdDict(self.state.teams)

    def add(self, at: str, message: str) -> None:
        self.err.add(at, message)

    def obj_ref(self, v: Any, at: str) -> None:
        if v not in self.known:
            self.err.add(at, f"unknown object {v!r}")

    def any_ref(self, v: Any, at: str) -> None:
        if v not in self.known and v not in self.players and v not in self.teams:
            self.err.add(at, f"unknown player, team or object {v!r}")

    def id_list(self, v: Any, at: str) -> tuple[str, ...]:
        """A list of player, team or object ids (``targets``); an error if not a list."""
        if not isinstance(v, list):
            self.err.add(at, "`targets` is a list of ids")
            return ()
        for j, t in enumerate(v):
            self.any_ref(t, f"{at}[{j}]")
        return tuple(v)

    def mapping(self, v: Any, at: str, kind: str) -> bool:
        """Is ``v`` a non-empty mapping (else an error at ``at``)?"""
        if not isinstance(v, dict) or not v:
            self.err.add(at, f"`{kind}` takes a non-empty mapping")
            return False
        return True

    def fields(self, v: Mapping[str, Any], at: str, allowed: tuple[str, ...],
               required: tuple[str, ...]) -> None:
        for k in v:
            if k not in allowed:
                self.err.add(f"{at}.{k}", f"unknown field {k!r}; expected: {', '.join(allowed)}")
        for k in required:
            if k not in v:
                self.err.add(f"{at}.{k}", f"`{k}` is required")

    def int_field(self, v: Mapping[str, Any], k: str, at: str, lo: int = 0) -> None:
        if k in v and (not is_int(v[k]) or not lo <= v[k] <= MAX_NUMBER):
            self.err.add(f"{at}.{k}", f"`{k}` must be a whole number from {lo}")

    def redirect_map(self, v: Any, at: str) -> None:
        if v is None:
            return
        if not isinstance(v, dict):
            self.err.add(at, "`redirect_to` is a mapping player -> planeswalker")
            return
        for pl, pw in v.items():
            if pl not in self.players:
                self.err.add(f"{at}.{pl}", f"{pl!r} is not a player")
            self.obj_ref(pw, f"{at}.{pl}")


# -- performing and answering ---------------------------------------------------------------

def object_in_game(state: GameState, oid: str, path: str) -> Obj:
    """The object a query asks about; an error if it never entered the game (an object
    of an `enter` action that was not performed)."""
    obj = state.objects.get(oid)
    if obj is None:
        raise DocumentError.at(path, f"{oid} never entered the game")
    return obj


@dataclass(frozen=True, slots=True)
class PerformContext:
    """Where an action is performed: the path its errors name, the new object an
    ``enter`` brings in, and the object a following ``choose`` keeps (the legend and
    uniqueness rules ask for that choice in the state-based actions)."""

    path: str
    new_obj: Obj | None = None
    keep: tuple[str, ...] = ()


# -- the form editor --------------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class EditorField:
    """One field of an action's row in the form editor. ``type`` is one of ``id`` (an
    id), ``list`` (ids separated by commas), ``pairs`` ("name: value" lines), ``int``,
    ``bool``, ``choice`` (one of ``choices``); ``label`` is English, marked with
    :func:`gettext_noop`."""

    name: str
    type: str
    label: str
    choices: tuple[str, ...] = ()


class PairsError(ValueError):
    """A line of a "name: value" field is not "name: value" (``line`` is 1-based)."""

    def __init__(self, line: int) -> None:
        self.line = line
        super().__init__(f"Line {line}: write “name: value”.")


def _no_fields(data: Mapping[str, Any]) -> Any:
    return {}


def _empty(args: Any) -> dict[str, Any] | None:
    return {}


@dataclass(frozen=True, slots=True)
class Editor:
    """An action kind's fields in the form editor, and the two pure functions between
    its cleaned fields and the action's arguments in the document."""

    fields: tuple[EditorField, ...] = ()
    to_args: Callable[[Mapping[str, Any]], Any] = _no_fields
    """Cleaned fields -> the action's arguments (raises :class:`PairsError`)."""
    from_args: Callable[[Any], dict[str, Any] | None] = _empty
    """The action's arguments -> initial fields (may raise on arguments of another shape)."""

    def initial(self, args: Any) -> dict[str, Any] | None:
        """The initial fields for ``args``; None when they don't fit the fields (an
        ``enter`` of a whole inline object, say), for the YAML details field instead."""
        try:
            initial = self.from_args(args)
        except (AttributeError, TypeError, ValueError, KeyError, StopIteration):
            return None
        if initial is None:
            return None
        if self.to_args(initial) != (args if args is not None else {}):
            return None
        return initial


def scalar(text: str) -> Any:
    text = text.strip()
    try:
        return int(text)
    except ValueError:
        return text


def pairs_text(mapping: Mapping[str, Any] | None) -> str:
    """A mapping as "name: value" lines."""
    return "\n".join(f"{k}: {v}" for k, v in (mapping or {}).items())


def parse_pairs(text: str) -> dict[str, Any]:
    """"name: value" lines as a mapping (a number value as a number)."""
    out: dict[str, Any] = {}
    for n, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        key, sep, value = line.partition(":")
        if not sep or not key.strip() or not value.strip():
            raise PairsError(n)
        out[key.strip()] = scalar(value)
    return out


def listed(text: str | None) -> list[str]:
    """Ids separated by commas."""
    return [w.strip() for w in (text or "").split(",") if w.strip()]


def present(*pairs: tuple[str, Any]) -> dict[str, Any]:
    """The pairs whose value was given (not None, not an empty text)."""
    return {k: v for k, v in pairs if v not in (None, "")}


# -- the specs ----------------------------------------------------------------------------------

def _no_cards(value: Any, state: GameState) -> tuple[str, ...]:
    return ()


@dataclass(frozen=True, slots=True)
class ActionSpec[V]:
    """An action kind.

    ``parse(ctx, args, path)`` checks the arguments' shape and references (adding each
    error to ``ctx.err`` at its path) and returns the typed value; ``perform(era, state,
    trace, value, at)`` checks it is legal in ``era`` (raising :class:`IllegalAction` with
    the rule it breaks) and returns the new state. ``quiet``: it changes nothing a
    state-based action looks at, so the runner doesn't check them after it;
    ``declaration``: part of the board a candidate sees with the question (attackers,
    blockers). ``catalog_cards``: the catalog cards it brings into the game that the setup
    doesn't hold (a spell cast by its slug), for the eras a scenario exists in."""

    name: str
    parse: Callable[[ParseContext, Any, str], V | None]
    perform: Callable[[type[Era], GameState, Trace, V, PerformContext], GameState]
    schema: Callable[[], Schema]
    editor: Editor
    quiet: bool = False
    declaration: bool = False
    catalog_cards: Callable[[V, GameState], tuple[str, ...]] = _no_cards


@dataclass(frozen=True, slots=True)
class QuerySpec[V]:
    """A query kind: ``value_type`` is what it answers (``int``, ``bool``, ``str``,
    ``list``); ``answer(era, state, value, path)`` answers it about a state."""

    name: str
    value_type: str
    parse: Callable[[ParseContext, Any, str], V | None]
    answer: Callable[[type[Era], GameState, V, str], Any]
    schema: Callable[[], Schema]


def _pairs_to_args(data: Mapping[str, Any]) -> Any:
    return parse_pairs(data.get("pairs") or "")


def _pairs_from_args(args: Any) -> dict[str, Any] | None:
    return {"pairs": pairs_text(args if isinstance(args, dict) else {})}


def pairs_editor(label: str) -> Editor:
    """The form editor of a kind whose argument is a mapping ID: VALUE (attack, block,
    move, control): one "name: value" lines field, labelled ``label``
    (``gettext_noop("...")`` at the call, so that makemessages finds it)."""
    return Editor((EditorField("pairs", "pairs", label),), _pairs_to_args, _pairs_from_args)
