"""The notation of damage's next rules: `colors`, `protection`, `chosen_name`, `prevent`,
`replacement_order` refuse misshapen input with the field's path (never a crash)."""

from __future__ import annotations

from typing import Any

import pytest

from engine.errors import DocumentError
from engine.notation import parse


def document(battlefield: list[dict[str, Any]], actions: list[dict[str, Any]],
             players: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    return {
        "format": 1, "id": "damage-notation", "topic": "loyalty", "difficulty": 1,
        "title": {"en": "x"},
        "setup": {"turn": {"active": "alice", "step": "main1"},
                  "players": players or [{"id": "alice"}, {"id": "bob"}],
                  "battlefield": battlefield},
        "actions": actions,
        "questions": [{"id": "q", "kind": "number", "ask": {"en": "x"},
                       "answer": {"life": "bob"}}],
    }


OGRE = {"id": "ogre", "controller": "alice", "types": ["creature"], "power": 3,
        "toughness": 3}


@pytest.mark.parametrize(("doc", "path"), [
    (document([{**OGRE, "colors": ["purple"]}], []), "setup.battlefield[0].colors[0]"),
    (document([{**OGRE, "protection": ["dragons"]}], []),
     "setup.battlefield[0].protection[0]"),
    (document([{**OGRE, "protection": "red"}], []), "setup.battlefield[0].protection"),
    (document([], [], [{"id": "alice"}, {"id": "bob", "protection": [1]}]),
     "setup.players[1].protection"),
    (document([{"id": "halo", "card": "runed-halo", "controller": "bob"}], []),
     "setup.battlefield[0].chosen_name"),
    (document([{"id": "halo", "card": "runed-halo", "controller": "bob",
                "chosen_name": "no-such-card"}], []), "setup.battlefield[0].chosen_name"),
    (document([OGRE], [{"prevent": {"id": "ogre", "to": "bob", "amount": 2}}]),
     "actions[0].prevent.id"),
    (document([OGRE], [{"prevent": {"id": "w", "to": "bob", "amount": 0}}]),
     "actions[0].prevent.amount"),
    (document([OGRE], [{"prevent": {"id": "w", "to": "nobody", "amount": 2}}]),
     "actions[0].prevent.to"),
    (document([OGRE], [{"prevent": {"id": "w", "to": "bob", "amount": "all",
                                    "combat_only": "yes"}}]),
     "actions[0].prevent.combat_only"),
    (document([OGRE], [{"damage": {"source": "ogre", "to": "bob", "amount": 1,
                                   "replacement_order": "redirect"}}]),
     "actions[0].damage.replacement_order"),
    (document([OGRE], [{"damage": {"source": "ogre", "to": "bob", "amount": 1,
                                   "replacement_order": ["w", "w"]}}]),
     "actions[0].damage.replacement_order"),
])
def test_misshapen_input_names_its_field(doc: dict[str, Any], path: str) -> None:
    with pytest.raises(DocumentError) as info:
        parse(doc)
    assert path in [item.path for item in info.value.items], info.value
