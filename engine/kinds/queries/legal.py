"""`{legal: ACTION}`: would this action be legal now? The action is checked as the runner
performs it, in the era asked about. A question about an illegal choice answers false,
never invalidates the document: a negative X (107.1b: no player can choose a negative
number), or a `redirect_to` in an era without the redirection rule (from dom-2018: the
choice it states can't be made)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine import schema_parts as sp
from engine.document import Ids, is_int
from engine.effects import ResolutionError
from engine.eras import Era
from engine.errors import IllegalAction
from engine.kinds.actions import parse_action, perform
from engine.kinds.base import Action, ParseContext, QuerySpec
from engine.state import GameState, Obj
from engine.trace import Trace

X_KINDS = ("cast", "activate")
"""The action kinds with a value of X."""
REDIRECT_KINDS = ("cast", "activate", "damage")
"""The action kinds with a `redirect_to` choice."""


@dataclass(frozen=True, slots=True)
class Legal:
    action: Action
    new_obj: Obj | None = None
    """The object an `enter` of a new object would put onto the battlefield."""
    negative_x: bool = False
    """The action chooses a negative X (107.1b): never legal."""
    redirects: bool = False
    """The action states a redirection (`redirect_to`)."""


def _negative_x(arg: Any) -> tuple[Any, bool]:
    """``arg`` with a negative X replaced by 0 (so that the rest of the action is still
    checked), and whether it had one."""
    if isinstance(arg, dict) and len(arg) == 1:
        kind, args = next(iter(arg.items()))
        if kind in X_KINDS and isinstance(args, dict) and is_int(args.get("x")) \
                and args["x"] < 0:
            return {kind: {**args, "x": 0}}, True
    return arg, False


def parse(ctx: ParseContext, arg: Any, path: str) -> Legal | None:
    # A copy of the known ids: an `enter` asked about enters nothing.
    new_objects: dict[int, Obj] = {}
    arg, negative_x = _negative_x(arg)
    action = parse_action(arg, path, ctx.state, Ids(ctx.known), ctx.err, new_objects)
    if action is None:
        return None
    redirects = action.kind in REDIRECT_KINDS and bool(getattr(action.value, "redirect_to",
                                                               None))
    return Legal(action, new_objects.get(0), negative_x, redirects)


def answer(era: type[Era], state: GameState, value: Legal, path: str) -> bool:
    if value.negative_x or (value.redirects and not era.redirection_rule):
        return False
    try:
        perform(era, state, Trace(era), value.action, value.new_obj)
    except IllegalAction:
        return False
    except ResolutionError:
        # The action was legal; only its effect is beyond the engine (or needs a choice
        # the question doesn't state): legality doesn't depend on resolution.
        return True
    return True


def schema() -> sp.Schema:
    return sp.ref("action", "Would this action be legal now?")


SPEC: QuerySpec[Legal] = QuerySpec(
    name="legal", value_type="bool", parse=parse, answer=answer, schema=schema)
