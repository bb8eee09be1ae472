"""`prevent: {id, to, amount, from, combat_only}`: an effect the scenario does not model as
a card creates a prevention shield (615.7; 419.7b in Lorwyn): the next `amount` damage
that would be dealt this turn to the player or permanent `to` is prevented (`amount:
all`: all of it, 615.1), only from the source `from` if given, only combat damage if
`combat_only`. The shield's `id` is how `replacement_order` names it."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from engine import schema_parts as sp
from engine.document import MAX_NUMBER, OBJECT_ID, is_int
from engine.eras import Era
from engine.errors import DocumentError
from engine.kinds.base import (
    ActionSpec,
    Editor,
    EditorField,
    ParseContext,
    PerformContext,
    gettext_noop,
    present,
)
from engine.prevention import add_shield
from engine.state import GameState, Shield
from engine.trace import Trace


@dataclass(frozen=True, slots=True)
class Prevent:
    id: str
    """The shield's id."""
    to: str
    """The player or permanent it protects."""
    amount: int | None
    """How much damage it prevents; None: all of it this turn."""
    source: str | None = None
    """Only damage from this source."""
    combat_only: bool = False


def parse(ctx: ParseContext, args: Any, path: str) -> Prevent | None:
    if not isinstance(args, dict):
        ctx.add(path, "`prevent` takes a mapping {id, to, amount, from, combat_only}")
        return None
    ctx.fields(args, path, ("id", "to", "amount", "from", "combat_only"), ("id", "to", "amount"))
    sid = args.get("id")
    if "id" in args:
        if not isinstance(sid, str) or not OBJECT_ID.match(sid):
            ctx.add(f"{path}.id", "a shield id is a short identifier (letters, digits, -, _)")
        elif sid in ctx.known or sid in ctx.players or sid in ctx.teams or sid == "redirect":
            ctx.add(f"{path}.id", f"{sid!r} is already the id of a player or object: a "
                                  f"shield needs an id of its own")
    if "to" in args:
        if args["to"] in ctx.teams:
            ctx.add(f"{path}.to", "a shield protects a player or a permanent, not a team")
        else:
            ctx.any_ref(args["to"], f"{path}.to")
    amount: Any = args.get("amount")
    if "amount" in args and amount != "all" and (
            not is_int(amount) or not 1 <= amount <= MAX_NUMBER):
        ctx.add(f"{path}.amount", "`amount` is a whole number from 1, or `all`")
    if args.get("from") is not None:
        ctx.obj_ref(args["from"], f"{path}.from")
    if "combat_only" in args and not isinstance(args["combat_only"], bool):
        ctx.add(f"{path}.combat_only", "`combat_only` must be true or false")
    return Prevent(str(sid), str(args.get("to", "")), None if amount == "all" else amount,
                   args.get("from"), bool(args.get("combat_only", False)))


def perform(era: type[Era], state: GameState, trace: Trace, value: Prevent,
            at: PerformContext) -> GameState:
    if any(s.id == value.id for s in state.shields):
        raise DocumentError.at(f"{at.path}.id", f"a shield {value.id!r} already exists this "
                                                f"turn: give this one another id")
    generation = None
    if value.to not in state.players:
        obj = state.obj(value.to)
        if not obj.on_battlefield:
            raise DocumentError.at(f"{at.path}.to", f"{value.to} is not on the battlefield")
        generation = obj.generation
    shield = Shield(value.id, value.to, generation, value.amount, value.source,
                    value.combat_only)
    return add_shield(state, trace, shield)


def schema() -> sp.Schema:
    return sp.fields("An effect creates a prevention shield for a player or permanent "
                     "this turn.", {
        "id": sp.string("The shield's id (for `replacement_order`)."),
        "to": sp.string("The player or permanent it protects."),
        "amount": {"description": "How much damage it prevents, or `all`.",
                   "anyOf": [sp.integer("An amount of damage.", 1), {"const": "all"}]},
        "from": sp.string("Only damage from this source."),
        "combat_only": sp.boolean("Only combat damage (default false)."),
    }, ("id", "to", "amount"))


def to_args(data: Mapping[str, Any]) -> Any:
    amount = data.get("amount")
    return present(("id", data.get("id")), ("to", data.get("to")),
                   ("amount", "all" if data.get("all") else amount),
                   ("from", data.get("source") or None),
                   ("combat_only", True if data.get("combat_only") else None))


def from_args(args: Any) -> dict[str, Any] | None:
    a = args if isinstance(args, dict) else {}
    amount = a.get("amount")
    return {"id": a.get("id", ""), "to": a.get("to", ""),
            "amount": None if amount == "all" else amount, "all": amount == "all",
            "source": a.get("from") or "", "combat_only": bool(a.get("combat_only"))}


SPEC: ActionSpec[Prevent] = ActionSpec(
    name="prevent", parse=parse, perform=perform, schema=schema, quiet=True,
    editor=Editor((
        EditorField("id", "id", gettext_noop("Shield id")),
        EditorField("to", "id", gettext_noop("Protected player or permanent")),
        EditorField("amount", "int", gettext_noop("Damage prevented")),
        EditorField("all", "bool", gettext_noop("Prevent all of it")),
        EditorField("source", "id", gettext_noop("Only from this source")),
        EditorField("combat_only", "bool", gettext_noop("Only combat damage")),
    ), to_args, from_args))
