"""What the case corpus can't say: the refusals of `concede` and `planar_deck_legal`."""

from __future__ import annotations

from typing import Any

import pytest

from engine import check_document
from engine.errors import DocumentError
from engine.notation import parse
from engine.runner import run_all


def doc(actions: list[Any], questions: list[Any] | None = None, **setup: Any) -> dict[str, Any]:
    return {
        "format": 1, "id": "leaving", "topic": "planechase", "difficulty": 1,
        "title": {"en": "Leaving"},
        "setup": {"turn": {"active": "alice", "step": "main1"},
                  "players": [{"id": "alice"}, {"id": "bob"}, {"id": "carol"}], **setup},
        "actions": actions,
        "questions": questions or [{"id": "q", "kind": "yesno", "ask": {"en": "?"},
                                    "answer": {"lost": "carol"}}],
    }


@pytest.mark.parametrize(("args", "message"), [
    ({"player": "dave"}, "'dave' is not a player"),
    ({}, "`concede` takes {player: PLAYER}"),
    ({"player": "carol", "now": True}, "`concede` takes {player: PLAYER}"),
    ("carol", "`concede` takes {player: PLAYER}"),
])
def test_a_misshapen_concession_is_refused_at_its_field(args: Any, message: str) -> None:
    with pytest.raises(DocumentError) as info:
        parse(doc([{"concede": args}]))
    assert message in str(info.value)


def test_the_phenomenon_limit_is_refused_in_eras_where_it_may_not_exist_yet() -> None:
    planes = [{"id": f"p{i}", "owner": "alice", "types": ["plane"], "subtypes": ["Lorwyn"],
               "name": {"en": f"P{i}"}} for i in range(10)]
    document = doc([], [{"id": "q", "kind": "yesno", "ask": {"en": "Legal?"},
                         "answer": {"planar_deck_legal": "alice"}}],
                   command=planes,
                   planechase={"decks": {"alice": [p["id"] for p in planes[1:]]},
                               "face_up": "p0"})
    outcomes = run_all(parse(document), eras=("m14-2013", "fdn-2024"))
    assert [o.answers["q"] for o in outcomes.values()] == [True, True]  # the face-up one counts
    result = check_document(document)
    assert [(e.path, e.era) for e in result.errors] == [
        ("questions[0].answer.planar_deck_legal", "lrw-2007")]
    assert "dates from Planechase 2012 (2012-06-01)" in result.errors[0].message
    document["eras"] = ["m14-2013", "fdn-2024"]
    assert check_document(document).ok


def test_an_object_that_left_with_its_owner_is_refused_at_the_action_that_names_it() -> None:
    document = doc([{"concede": {"player": "carol"}}, {"move": {"bears": "graveyard"}}],
                   battlefield=[{"id": "bears", "controller": "carol", "types": ["creature"],
                                 "power": 2, "toughness": 2}])
    with pytest.raises(DocumentError) as info:
        run_all(parse(document), eras=("fdn-2024",))
    assert [i.path for i in info.value.items] == ["actions[1].move"]
    assert "bears has left the game with its owner (800.4a)" in str(info.value)
