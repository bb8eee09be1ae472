"""The card catalog page for authors: every card, searchable, for instructors only."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse

from engine import catalog, find_card
from scenarios.catalogue_views import card_eras, catalogue_entries, fold, search
from tests.factories import InstructorFactory, ScenarioFactory

pytestmark = pytest.mark.django_db

URL = "/en/author/cards/"


@pytest.fixture
def instructor_client() -> Client:
    client = Client()
    client.force_login(InstructorFactory())
    return client


def shown_slugs(html: str) -> list[str]:
    return re.findall(r'<article class="card h-100" id="card-([a-z0-9-]+)"', html)


def test_every_catalog_card_is_listed_with_its_slug(instructor_client: Client) -> None:
    html = instructor_client.get(URL).content.decode()
    assert sorted(shown_slugs(html)) == sorted(catalog())
    assert '<code class="user-select-all fs-6">lightning-bolt</code>' in html


def test_a_card_shows_its_names_types_stats_and_wording_per_era(
        instructor_client: Client) -> None:
    html = instructor_client.get(URL, {"q": "lightning-bolt"}).content.decode()
    assert shown_slugs(html) == ["lightning-bolt"]
    for name in ("Lightning Bolt", "Fulmine", "Relámpago"):
        assert name in html
    assert "Instant" in html and "{R}" in html
    assert "Lightning Bolt deals 3 damage to target creature or player." in html
    assert "Lightning Bolt deals 3 damage to any target." in html
    assert "<code>lrw-2007</code> – Ixalan <code>xln-2017</code>" in html
    garruk = instructor_client.get(URL, {"q": "garruk-wildspeaker"}).content.decode()
    assert "3 loyalty" in garruk and "+1: Untap two target lands." in garruk
    dreadmaw = instructor_client.get(URL, {"q": "colossal-dreadmaw"}).content.decode()
    assert "6/6" in dreadmaw and "Trample <code>trample</code>" in dreadmaw


def test_a_planeswalker_shows_when_its_type_line_became_legendary(
        instructor_client: Client) -> None:
    html = instructor_client.get(URL, {"q": "garruk-wildspeaker"}).content.decode()
    assert re.search(r"<code>lrw-2007</code> – Magic 2014 <code>m14-2013</code></dt>\s*"
                     r'<dd lang="en"><span class="d-block fst-italic">Planeswalker — Garruk', html)
    assert re.search(r"<code>xln-2017</code> – Foundations <code>fdn-2024</code></dt>\s*"
                     r'<dd lang="en"><span class="d-block fst-italic">Legendary Planeswalker — '
                     r"Garruk", html)


@pytest.mark.parametrize(("query", "expected"), [
    ("Fulmine", "lightning-bolt"),           # Italian name
    ("relampago", "lightning-bolt"),         # Spanish name, without its accent
    ("GARRUK WILDSPEAKER", "garruk-wildspeaker"),
    ("grizzly-bears", "grizzly-bears"),      # slug
])
def test_search_finds_a_card_by_name_in_any_language_or_slug(
        instructor_client: Client, query: str, expected: str) -> None:
    assert expected in shown_slugs(instructor_client.get(URL, {"q": query}).content.decode())


def test_search_by_type_and_keyword(instructor_client: Client) -> None:
    walkers = shown_slugs(instructor_client.get(URL, {"type": "planeswalker"}).content.decode())
    assert walkers and all("planeswalker" in find_card(s).types for s in walkers)
    assert len(walkers) == sum("planeswalker" in c.types for c in catalog().values())
    trample = shown_slugs(instructor_client.get(URL, {"q": "trample"}).content.decode())
    assert trample and all(any(k.startswith("trample") for k in find_card(s).keywords)
                           for s in trample)
    planes = shown_slugs(instructor_client.get(URL, {"q": "plane"}).content.decode())
    assert "goldmeadow" in planes


def test_search_in_italian_finds_localized_keywords(instructor_client: Client) -> None:
    html = instructor_client.get("/it/author/cards/", {"q": "travolgere"}).content.decode()
    slugs = shown_slugs(html)
    assert slugs and all("trample" in find_card(s).keywords for s in slugs)


def test_no_match_says_so(instructor_client: Client) -> None:
    html = instructor_client.get(URL, {"q": "no such card"}).content.decode()
    assert shown_slugs(html) == [] and "No card matches" in html


def test_an_unknown_type_filter_is_ignored(instructor_client: Client) -> None:
    html = instructor_client.get(URL, {"type": "<script>"}).content.decode()
    assert len(shown_slugs(html)) == len(catalog()) and "<script>" not in html


def test_the_query_is_escaped(instructor_client: Client) -> None:
    html = instructor_client.get(URL, {"q": '"><b>x'}).content.decode()
    assert '"><b>x' not in html and "&quot;&gt;&lt;b&gt;x" in html


def test_htmx_gets_only_the_card_list(instructor_client: Client) -> None:
    response = instructor_client.get(URL, {"q": "bolt"}, headers={"hx-request": "true"})
    html = response.content.decode()
    assert response.status_code == 200
    assert html.lstrip().startswith('<section id="card-list"') and "<html" not in html
    assert shown_slugs(html) == ["lightning-bolt"]


def test_the_form_works_without_javascript(instructor_client: Client) -> None:
    html = instructor_client.get(URL).content.decode()
    assert re.search(r'<form method="get" action="/en/author/cards/"', html)
    assert 'name="q"' in html and 'name="type"' in html and 'type="submit"' in html


@pytest.mark.parametrize(("user", "status"), [("anonymous", 302), ("candidate", 403)])
def test_only_instructors_see_the_catalog(client: Client, candidate, user: str,
                                          status: int) -> None:
    if user == "candidate":
        client.force_login(candidate)
    assert client.get(URL).status_code == status


@pytest.mark.parametrize("page", ["author_home", "new"])
def test_authoring_pages_link_to_the_catalog(instructor_client: Client, page: str) -> None:
    html = instructor_client.get(reverse(f"scenarios:{page}")).content.decode()
    assert 'href="/en/author/cards/"' in html


def test_the_form_editor_links_to_the_catalog(instructor_client: Client) -> None:
    ScenarioFactory(slug="linked")
    html = instructor_client.get(reverse("scenarios:form", args=["linked"])).content.decode()
    assert 'href="/en/author/cards/"' in html


def test_entries_are_built_once_per_language() -> None:
    assert catalogue_entries("it") is catalogue_entries("it")
    assert catalogue_entries("it") is not catalogue_entries("es")


def test_search_is_accent_and_case_blind() -> None:
    entries = catalogue_entries("es")
    assert fold("Relámpago") == "relampago"
    assert [e.slug for e in search(entries, "RELÁMPAGO", "")] == [
        e.slug for e in search(entries, "relampago", "")]


def test_a_card_exists_from_the_era_in_force_when_it_was_printed() -> None:
    eras = [e.key for e in card_eras(find_card("goldmeadow"))]
    assert eras[0] == "m10-2009" and "lrw-2007" not in eras
    assert card_eras(find_card("lightning-bolt"))[0].key == "lrw-2007"
