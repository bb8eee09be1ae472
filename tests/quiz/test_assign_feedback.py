"""Feedback on damage assignment questions: the engine's reason for a wrong or illegal
split, in the reader's language with the rule as numbered in the question's era, beside a
legal split that meets the goal -- and nothing of it before the answer is submitted."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation

from engine import parse, scenario_eras
from quiz import grading
from quiz.assign_feedback import AssignFeedback, assign_feedback
from quiz.forms import AnswerError, AnswerForm
from quiz.models import Attempt
from scenarios.presentation.labels import object_names
from tests.factories import ScenarioFactory
from tests.quiz.test_quiz import all_kinds_document, item_for, post_answer, start

WURM = {"id": "wurm", "controller": "alice", "types": ["creature"], "power": 6,
        "toughness": 6, "name": {"en": "Wurm", "it": "Wurm", "es": "Sierpe"}}
TRAMPLER = {**WURM, "keywords": ["trample"]}
BEARS = {"id": "bears", "card": "grizzly-bears", "controller": "bob"}
WALL = {"id": "wall", "controller": "bob", "types": ["creature"], "power": 0,
        "toughness": 4, "name": {"en": "Wall", "it": "Muro", "es": "Muro"}}
GARRUK = {"id": "garruk", "card": "garruk-wildspeaker", "controller": "bob",
          "counters": {"loyalty": 3}}
THRASTA = {"id": "thrasta", "controller": "alice", "types": ["creature"], "power": 7,
           "toughness": 7, "keywords": ["trample-over-planeswalkers"],
           "name": {"en": "Thrasta", "it": "Thrasta", "es": "Thrasta"}}
TEXT = {"en": "x", "it": "x", "es": "x"}


def document(battlefield: list[dict[str, Any]], actions: list[dict[str, Any]],
             attacker: str = "wurm", goal: str | None = None, *, active: str = "alice",
             teams: bool = False) -> dict[str, Any]:
    """The smallest scenario with one assign question about ``attacker``."""
    question: dict[str, Any] = {"id": "as", "kind": "assign", "ask": TEXT, "attacker": attacker}
    if goal is not None:
        question["goal"] = {"most_to": goal}
    players = ["alice", "bob", "carol", "dave"] if teams else ["alice", "bob"]
    setup: dict[str, Any] = {"turn": {"active": active, "step": "main1"},
                             "players": [{"id": p, "life": 20} for p in players],
                             "battlefield": battlefield}
    if teams:
        setup["teams"] = [{"id": "ac", "members": ["alice", "carol"], "life": 30},
                          {"id": "bd", "members": ["bob", "dave"], "life": 30}]
    doc = {"format": 1, "id": "assign-board", "topic": "combat-damage-assignment",
           "difficulty": 1, "title": TEXT, "setup": setup, "actions": actions,
           "questions": [question]}
    if teams:  # a creature attacks a team only before Dominaria
        doc["eras"] = ["lrw-2007", "m10-2009", "m11-2010", "m14-2013", "xln-2017"]
    return doc


def feedback(doc: dict[str, Any], era: str, answer: dict[str, int],
             language: str = "en") -> tuple[AssignFeedback, grading.Expected]:
    scenario = parse(doc)
    expected = grading.expected_answer(scenario, "as", era, 0)
    with translation.override(language):
        return assign_feedback(expected=expected, answer=answer, era=era, language=language,
                               names=object_names(expected.variant, language)), expected


ATTACK_BOB = [{"attack": {"wurm": "bob"}}]
BLOCKED = [{"attack": {"wurm": "bob"}}, {"block": {"bears": "wurm"}}]
AT_GARRUK_BLOCKED = [{"attack": {"wurm": "garruk"}}, {"block": {"bears": "wurm"}}]

# (what is wrong, board, answer, {era: rule number}, the reason in English)
VIOLATIONS = [
    ("trample short of lethal", document([TRAMPLER, BEARS], BLOCKED, goal="bob"),
     {"bears": 1, "bob": 5}, {"lrw-2007": "502.9", "m10-2009": "702.17", "m14-2013": "702.19"},
     "Wurm can assign damage to Bob only once every creature blocking it is assigned lethal "
     "damage: Grizzly Bears needs 2."),
    ("to the player without trample", document([WURM, BEARS], BLOCKED, goal="bears"),
     {"bears": 2, "bob": 4}, {"lrw-2007": "310.2c", "m10-2009": "510.1c"},
     "Wurm is blocked and has no trample: it assigns its combat damage only to the creatures "
     "blocking it, not to Bob."),
    ("total is not the power", document([WURM], ATTACK_BOB, goal="bob"), {"bob": 4},
     {"lrw-2007": "310.2b", "m10-2009": "510.1b"},
     "Wurm must assign all its combat damage, 6 in all: this assignment gives 4."),
    ("past the order", document([WURM, WALL, BEARS], [
        {"attack": {"wurm": "bob"}}, {"block": {"wall": "wurm", "bears": "wurm"}},
        {"order": {"wurm": ["wall", "bears"]}}], goal="bears"),
     {"wall": 3, "bears": 3}, {"m10-2009": "509.2", "mom-2023": "509.2"},
     "Wurm can't assign damage to Grizzly Bears while Wall, earlier in the damage assignment "
     "order, is not assigned lethal damage (4)."),
    ("trample to the planeswalker's controller", document([TRAMPLER, BEARS, GARRUK],
                                                          AT_GARRUK_BLOCKED, goal="garruk"),
     {"bears": 2, "garruk": 2, "bob": 2},
     {"lrw-2007": "502.9b", "m10-2009": "702.17d", "m14-2013": "702.19d",
      "mh2-2021": "702.19f"},
     "Trample lets Wurm assign damage only to the creatures blocking it and to what it "
     "attacks, not to Bob."),
    ("trample over planeswalkers short of loyalty",
     document([THRASTA, GARRUK], [{"attack": {"thrasta": "garruk"}}], "thrasta", "bob"),
     {"garruk": 2, "bob": 5}, {"mh2-2021": "702.19c", "fdn-2024": "702.19c"},
     "Thrasta can assign damage to Bob only once Garruk Wildspeaker is assigned damage equal "
     "to its loyalty (3)."),
    ("unblocked, to someone else", document([WURM, GARRUK], [{"attack": {"wurm": "garruk"}}],
                                            goal="garruk"),
     {"bob": 6}, {"lrw-2007": "310.2b", "m10-2009": "510.1b"},
     "Wurm is unblocked: it assigns all its combat damage to what it attacks, not to Bob."),
    ("attacking nothing", document([WURM, GARRUK], [{"attack": {"wurm": "garruk"}},
                                                    {"move": {"garruk": "graveyard"}}]),
     {"bob": 6}, {"lrw-2007": "310.2b", "m10-2009": "506.4c"},
     "Wurm is attacking nothing (what it attacked has left combat) and is unblocked: it "
     "assigns no combat damage."),
    ("blockers gone", document([WURM, BEARS], [*BLOCKED, {"move": {"bears": "graveyard"}}]),
     {"bob": 6}, {"lrw-2007": "310.2c", "m10-2009": "510.1c"},
     "Wurm is blocked and the creatures blocking it are gone: without trample it assigns no "
     "combat damage."),
    ("trample with nowhere to go", document([TRAMPLER, BEARS, GARRUK], [
        *AT_GARRUK_BLOCKED, {"move": {"garruk": "graveyard"}}], goal="bears"),
     {"bears": 2, "bob": 4}, {"lrw-2007": "502.9b", "m14-2013": "702.19d"},
     "What Wurm attacked has left combat: even with trample it assigns its combat damage "
     "only to the creatures blocking it, not to Bob."),
    ("split between the team's players",
     document([WURM], [{"attack": {"wurm": "bd"}}], goal="dave", teams=True),
     {"bob": 3, "dave": 3}, {"lrw-2007": "606", "m10-2009": "810.7f"},
     "Combat damage to the defending team goes to just one of its players, chosen by the "
     "attacking team: Wurm can't split it."),
]


@pytest.mark.parametrize(
    ("board", "answer", "era", "number", "reason"),
    [pytest.param(board, answer, era, number, reason, id=f"{what}@{era}")
     for what, board, answer, numbers, reason in VIOLATIONS
     for era, number in numbers.items()])
def test_an_illegal_split_gets_the_engines_reason_and_the_rule_of_its_era(
        board: dict[str, Any], answer: dict[str, int], era: str, number: str,
        reason: str) -> None:
    got, expected = feedback(board, era, answer)
    assert not got.is_legal
    assert (got.reason, got.rule) == (reason, number)
    assert got.key and got.summary
    assert not grading.is_correct(expected, answer, era)


@pytest.mark.parametrize(("what", "board"), [(v[0], v[1]) for v in VIOLATIONS
                                             if v[1]["questions"][0].get("goal")])
def test_the_legal_split_shown_meets_the_goal(what: str, board: dict[str, Any]) -> None:
    scenario = parse(board)
    goal = board["questions"][0]["goal"]["most_to"]
    for era in scenario_eras(scenario):
        got, expected = feedback(board, era, {})
        name = object_names(expected.variant, "en")[goal]
        assert dict(got.legal).get(name, 0) == expected.value, (what, era, got.legal)
        ids = {object_names(expected.variant, "en")[r]: r for r in
               grading.assign_recipients(expected)}
        shown = {ids[n]: amount for n, amount in got.legal}
        assert grading.is_correct(expected, shown, era), (what, era, shown)


def test_a_legal_split_short_of_the_goal_says_how_much_was_possible() -> None:
    board = document([TRAMPLER, BEARS], BLOCKED, goal="bob")
    got, _expected = feedback(board, "fdn-2024", {"bears": 4, "bob": 2})
    assert got.is_legal and got.rule is None
    assert got.reason == ("This assignment is legal, but Bob could have been assigned 4: "
                          "here it gets 2.")
    assert got.yours == [("Grizzly Bears", 4), ("Bob", 2)]
    assert got.legal == [("Grizzly Bears", 2), ("Bob", 4)]
    right, _ = feedback(board, "fdn-2024", {"bears": 2, "bob": 4})
    assert right.reason == "This assignment is legal and gives Bob the most damage the rules allow."


ANGEL_BLOCKS = document(
    [{**WURM, "controller": "bob"}, {"id": "angel", "card": "serra-angel", "controller": "alice"}],
    [{"attack": {"wurm": "alice"}}, {"block": {"angel": "wurm"}}], goal="angel", active="bob")


@pytest.mark.parametrize(("language", "reason"), [
    ("it", "La creatura Wurm è bloccata e non ha travolgere: assegna il suo danno da "
           "combattimento solo alle creature che la bloccano, non ad Alice."),
    ("es", "La criatura Sierpe está bloqueada y no tiene arrollar: solo asigna su daño de "
           "combate a las criaturas que la bloquean, no a Alice."),
])
def test_the_reason_reads_in_the_readers_language(language: str, reason: str) -> None:
    got, _expected = feedback(ANGEL_BLOCKS, "m14-2013", {"angel": 2, "alice": 4}, language)
    assert (got.reason, got.rule) == (reason, "510.1c")
    assert got.rows[0].name == {"it": "Angelo di Serra", "es": "Ángel de Serra"}[language]


def test_italian_says_ad_before_a_name_starting_with_a() -> None:
    got, _expected = feedback(ANGEL_BLOCKS, "fdn-2024", {"alice": 6}, "it")
    assert " ad Alice" in got.reason and " a Alice" not in got.reason, got.reason


# -- the form and the answer flow ---------------------------------------------------------

def test_an_empty_assignment_is_refused() -> None:
    scenario = parse(document([WURM, BEARS], BLOCKED))
    expected = grading.expected_answer(scenario, "as", "fdn-2024", 0)

    def parse_answer(data: dict[str, str]) -> Any:
        form = AnswerForm.for_answer_key(expected, data)
        if not form.is_valid():
            raise AnswerError(form)
        return form.answer

    with pytest.raises(AnswerError, match="assign-empty"):
        parse_answer({"assign-bears": "", "assign-bob": " "})
    assert parse_answer({"assign-bears": "0", "assign-bob": ""}) == {}
    assert parse_answer({"assign-bears": "6", "assign-bob": ""}) == {"bears": 6}


@pytest.fixture
def library(db):
    return ScenarioFactory(slug="all-kinds", document=all_kinds_document())


EMPTY = {"assign-bears": "", "assign-garruk": "", "assign-bob": ""}
REASON = ("Wurm can assign damage to Garruk Wildspeaker only once every creature blocking "
          "it is assigned lethal damage: Grizzly Bears needs 2.")


@pytest.mark.django_db
@pytest.mark.parametrize("htmx", [False, True])
def test_an_empty_submission_makes_no_attempt(client: Client, library, htmx: bool) -> None:
    item = item_for(start(client), "as")
    extra = {"HTTP_HX_REQUEST": "true"} if htmx else {}
    response = post_answer(client, item, EMPTY, **extra)
    assert response.status_code == 200
    assert "Enter the damage for at least one recipient" in response.content.decode()
    assert not Attempt.objects.exists()


@pytest.mark.django_db
def test_the_reason_shows_after_submission_and_not_before(client: Client, library) -> None:
    session = start(client, era_mode="one", era="m10-2009")
    item = item_for(session, "as")
    url = reverse("quiz:item", args=[session.pk, item.position])
    before = client.get(url).content.decode() + client.get(
        url, HTTP_HX_REQUEST="true").content.decode()
    for secret in ("assign-feedback", "A legal assignment", "lethal damage", "702.17"):
        assert secret not in before, secret
    response = post_answer(client, item, {"assign-bears": "1", "assign-garruk": "5",
                                          "assign-bob": ""}, HTTP_HX_REQUEST="true")
    html = response.content.decode()
    assert 'class="assign-feedback"' in html and REASON in html
    assert "702.17" in html and 'href="/history/rules/keyword.trample/"' in html.replace(
        "/en/", "/")
    assert Attempt.objects.get(item=item).correct is False
    page = client.get(url).content.decode()
    assert REASON in page
