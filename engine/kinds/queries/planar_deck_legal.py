"""`{planar_deck_legal: PLAYER}` (or `communal`): whether that player's planar deck, as
built, meets 901.3: at least ten cards, no more than two phenomena, every card with a
different English name. The deck as built is every plane and phenomenon card the player
owns that is still in the game: those in their planar deck and those face up. With the
single planar deck option (901.15), `communal`: at least forty cards or ten times the
number of players, whichever is smaller, and no more than two phenomena per player.

The phenomenon limit came with Planechase 2012 (2012-06-01), inside the m11-2010 era, so
this is asked from m14-2013 on; in earlier eras it is refused."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine import schema_parts as sp
from engine.eras import ERA_KEYS, Era
from engine.errors import DocumentError, ErrorItem
from engine.kinds.base import ParseContext, QuerySpec
from engine.state import GameState, Obj

FIRST_ERA = "m14-2013"


@dataclass(frozen=True, slots=True)
class PlanarDeckLegal:
    player: str


def parse(ctx: ParseContext, arg: Any, path: str) -> PlanarDeckLegal | None:
    if arg != "communal" and arg not in ctx.players:
        ctx.add(path, f"{arg!r} is not a player (or `communal`)")
    return PlanarDeckLegal(arg)


def _cards(state: GameState, player: str) -> list[Obj]:
    return [o for o in state.objects.values()
            if o.zone == "command" and ("plane" in o.types or "phenomenon" in o.types)
            and (player == "communal" or o.owner == player)]


def answer(era: type[Era], state: GameState, value: PlanarDeckLegal, path: str) -> bool:
    if ERA_KEYS.index(era.key) < ERA_KEYS.index(FIRST_ERA):
        raise DocumentError(ErrorItem(
            path, "the phenomenon limit of a planar deck (901.3) dates from Planechase "
                  "2012 (2012-06-01), inside the m11-2010 era: ask it from m14-2013 on "
                  "(`eras`)",
            None, era.key))
    cards = _cards(state, value.player)
    phenomena = sum(1 for o in cards if "phenomenon" in o.types)
    names = [o.name.get("en", o.id).casefold() for o in cards]
    if value.player == "communal":
        players = len(state.players)
        least, most = min(40, 10 * players), 2 * players
    else:
        least, most = 10, 2
    return len(cards) >= least and phenomena <= most and len(set(names)) == len(names)


def schema() -> sp.Schema:
    return sp.string("Whether that player's planar deck (or `communal`) meets 901.3.")


SPEC: QuerySpec[PlanarDeckLegal] = QuerySpec(
    name="planar_deck_legal", value_type="bool", parse=parse, answer=answer, schema=schema)
