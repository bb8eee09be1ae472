"""Finding a rule page by number ("306.7", typed loosely) in any era, or by words of its
summary in the reader's language, from the rules index."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation

from engine import ERA_KEYS, rulebook
from quiz.history import rules_find

pytestmark = pytest.mark.django_db


def rules_url(language: str = "en") -> str:
    with translation.override(language):
        return reverse("quiz:rules")


def rule_url(key: str, language: str = "en") -> str:
    with translation.override(language):
        return reverse("quiz:rule", args=[key])


@pytest.mark.parametrize("typed", ["306.7", "CR 306.7", "cr306.7", "306.7.", " 306.7 ",
                                   "Rule 306.7", "306,7"])
def test_the_redirection_rule_number_goes_straight_to_its_page(client: Client,
                                                                 typed: str) -> None:
    response = client.get(rules_url(), {"q": typed})
    assert response.status_code in (302, 303)
    assert response["Location"] == rule_url("pw.redirection")


def test_a_number_from_an_older_numbering_finds_the_rule_it_meant_then(client: Client) -> None:
    # 212.9g is the redirection rule in Lorwyn's numbering; 702.17c is "trample with no
    # blockers" from Magic 2010 to Magic 2013, renumbered 702.19c then 702.19d.
    assert client.get(rules_url(), {"q": "212.9g"})["Location"] == rule_url("pw.redirection")
    assert client.get(rules_url("it"), {"q": "702.17c"})["Location"] == rule_url(
        "trample.no-blockers", "it")


def test_every_number_that_meant_one_rule_finds_that_rule() -> None:
    owners: dict[str, set[str]] = {}
    for key in rulebook.catalogue():
        for era in ERA_KEYS:
            if rulebook.exists(key, era):
                owners.setdefault(rulebook.number(key, era), set()).add(key)
    assert len(owners) > 100
    for number, keys in owners.items():
        found = rules_find(number, "en")
        assert {m.key for m in found.matches} == keys, number
        assert found.redirect == (next(iter(keys)) if len(keys) == 1 else None), number


def test_a_number_that_meant_different_rules_in_different_eras_lists_them_with_their_eras(
        client: Client) -> None:
    response = client.get(rules_url(), {"q": "702.19c"})
    assert response.status_code == 200
    html = response.content.decode()
    assert "More than one rule has had this number" in html
    assert rule_url("trample.no-blockers") in html
    assert rule_url("trample.over-planeswalkers") in html
    found = {m.key: m.spans for m in rules_find("702.19c", "en").matches}
    assert found == {"trample.no-blockers": (("Magic 2014", "Dominaria"),),
                     "trample.over-planeswalkers": (("Modern Horizons 2", "Foundations"),)}
    assert "Magic 2014 – Dominaria" in html


def test_a_number_with_subrules_lists_them() -> None:
    found = rules_find("212.9", "en")
    assert not found.exact and found.redirect is None
    assert {m.number for m in found.matches} >= {"212.9a", "212.9d", "212.9g"}


@pytest.mark.parametrize(("language", "words", "key"), [
    ("en", "redirected", "pw.redirection"),
    ("it", "reindirizzato", "pw.redirection"),
    ("es", "redirigirlo", "pw.redirection"),
    ("it", "fedelta segnalini", "pw.damage-removes-loyalty"),  # accents are optional
])
def test_words_of_a_summary_in_the_readers_language_find_the_rule(
        client: Client, language: str, words: str, key: str) -> None:
    response = client.get(rules_url(language), {"q": words})
    assert response.status_code == 200
    assert rule_url(key, language) in response.content.decode().split("<table")[0]


def test_words_are_searched_in_the_readers_language_only() -> None:
    assert rules_find("reindirizzato", "en").matches == ()


@pytest.mark.parametrize("garbage", ["999.9", "%%%", "x" * 10_000, "<script>alert(1)</script>",
                                     "306.7" * 2_000, "☃ ∅", "CR", "...", "' OR 1=1 --"])
def test_garbage_and_huge_queries_say_no_rule_matches(client: Client, garbage: str) -> None:
    response = client.get(rules_url(), {"q": garbage})
    assert response.status_code == 200
    html = response.content.decode()
    assert "No rule matches" in html
    assert "<script>alert" not in html
    assert rule_url("pw.redirection") in html  # the index is still there


def test_an_empty_search_shows_the_index_without_a_message(client: Client) -> None:
    html = client.get(rules_url(), {"q": "  "}).content.decode()
    assert "No rule matches" not in html and rule_url("pw.redirection") in html
