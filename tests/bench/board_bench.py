"""Board drawing speed: a crowded board (6 creatures, 4 planeswalkers, attacks and a double
block) drawn as the SVG picture and its words, wide and narrow, in Italian.

A figure, not a test: it was a wall-clock assertion in the board tests (about half a
millisecond a board then, bounded at 5 ms) that failed on a loaded machine."""

from __future__ import annotations

import time
from typing import Any

from engine.state import Combat, GameState, Obj, Player, Turn

RUNS = 200


def crowded_state() -> GameState:
    """The crowded board of the board tests (test_a_crowded_board_is_well_formed...)."""

    def obj(oid: str, name: str, types: tuple[str, ...], controller: str,
            **fields: Any) -> Obj:
        return Obj(id=oid, name={"en": name}, types=frozenset(types), controller=controller,
                   owner=controller, **fields)

    objects = [obj(f"c{i}", f"Creature {i}", ("creature",), "alice" if i < 3 else "bob",
                   power=3, toughness=3, keywords=frozenset({"trample", "deathtouch"}),
                   damage=1, tapped=i < 2) for i in range(6)]
    objects += [obj(f"p{i}", f"Walker {i}", ("planeswalker",), "bob", loyalty=3,
                    counters={"loyalty": 3}) for i in range(4)]
    return GameState(
        players={"alice": Player("alice"), "bob": Player("bob")},
        objects={o.id: o for o in objects},
        turn=Turn("alice", "declare-blockers", 4),
        combat=Combat(attackers={"c0": "p0", "c1": "bob", "c2": None},
                      blockers={"c0": ("c3", "c4")}),
    )


def measure(runs: int = RUNS) -> dict[str, float]:
    """Mean milliseconds to draw the crowded board, wide and narrow."""
    import django

    django.setup()
    from scenarios.presentation.board import render_board

    state = crowded_state()
    out = {}
    for narrow in (False, True):
        render_board(state, era_key="m10-2009", language="it", narrow=narrow)  # warm
        start = time.perf_counter()
        for _ in range(runs):
            render_board(state, era_key="m10-2009", language="it", narrow=narrow)
        out["narrow" if narrow else "wide"] = (time.perf_counter() - start) / runs * 1000
    return out


def report() -> None:
    figures = measure()
    print(f"board: a crowded board (10 cards, 3 attacks, a double block) drawn in "
          f"{figures['wide']:.2f} ms wide, {figures['narrow']:.2f} ms narrow (mean of {RUNS})")


if __name__ == "__main__":
    import os

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.dev")
    report()
