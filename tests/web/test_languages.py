"""Languages are configuration (issue 17): the site offers the languages settings list,
scenario texts may be written in any of them, publishing asks for the required ones only,
and a text a language lacks shows in English, marked "not yet translated"."""

from __future__ import annotations

import copy

import pytest
from django.conf import settings
from django.test import Client

from engine import check_document, languages
from scenarios.services import NotPublishable, scenario_import
from tests.factories import scenario_document

pytestmark = pytest.mark.django_db

SIX = ("en", "it", "es", "fr", "de", "pt-br")


def test_the_site_offers_six_languages_and_the_engine_follows_the_settings() -> None:
    assert tuple(code for code, _name in settings.LANGUAGES) == SIX
    assert languages() == SIX


@pytest.mark.parametrize("language", SIX)
def test_every_page_prefix_answers_in_its_own_language(client: Client, language: str) -> None:
    page = client.get(f"/{language}/").content.decode()
    assert f'<html lang="{language}"' in page
    # the switcher names every language in its own language
    for name in ("English", "Italiano", "Español", "Français", "Deutsch", "Português"):
        assert name in page, (language, name)


def question_page(client: Client, language: str) -> str:
    """A one-question practice started in ``language``: its question page."""
    from quiz.models import QuizSession

    response = client.post(f"/{language}/practice/", {
        "mode": "practice", "era_mode": "current", "difficulty_min": 1, "difficulty_max": 5,
        "length": 1})
    assert response.status_code == 303, response.content.decode()[:300]
    session = QuizSession.objects.get(pk=response["Location"].rstrip("/").split("/")[-1])
    return client.get(f"/{language}/quiz/{session.pk}/q/1/").content.decode()


def test_a_seventh_language_is_one_line_of_settings(client: Client, settings) -> None:
    """Dutch, with no catalogue, glossary or library text: its pages answer under /nl/,
    the switcher offers it, the engine accepts Dutch texts, the question page shows a
    Dutch title, and the texts without Dutch in English with the mark."""
    settings.LANGUAGES = [*settings.LANGUAGES, ("nl", "Dutch")]
    assert languages()[-1] == "nl"
    dutch = scenario_document("met-nederlands")
    dutch["title"]["nl"] = "Vertrappen in {garruk}"
    assert check_document(copy.deepcopy(dutch)).errors == []
    scenario_import(document=dutch)
    page = question_page(client, "nl")
    assert '<html lang="nl"' in page and "Nederlands" in page
    assert '<h1 class="h3">Vertrappen in ' in page  # its own title, unmarked
    # the question, in English, marked (the mark in English: Dutch has no catalogue)
    assert '<h2 class="h5 question-ask"><span lang="en">' in page
    assert "not yet translated" in page


def test_a_language_the_site_does_not_offer_is_refused_in_a_document(settings) -> None:
    document = scenario_document("x")
    document["title"]["nl"] = "Vertrappen"
    errors = check_document(document).errors
    assert [(e.path, e.message) for e in errors] == [
        ("title.nl", "unknown language 'nl'; expected one of en, it, es, fr, de, pt-br")]


def test_publishing_asks_for_the_required_languages_only(settings) -> None:
    document = scenario_document("drie-talen")  # en, it, es: no fr, de or pt-br
    assert scenario_import(document=copy.deepcopy(document)).version.published_at
    settings.QUIZ_REQUIRED_LANGUAGES = ["en", "it", "es", "fr"]
    with pytest.raises(NotPublishable, match=r"title\.fr: missing fr translation"):
        scenario_import(document=scenario_document("vier-talen"))


def test_a_question_without_french_shows_english_marked_on_the_french_page(
        client: Client) -> None:
    scenario_import(document=scenario_document("sans-francais"))
    page = question_page(client, "fr")
    assert '<h1 class="h3"><span lang="en">Trample into ' in page
    assert page.count('<span lang="en">') >= 3  # the title, the story, the question
    assert "pas encore traduit" in page  # the mark, in French
    italian = question_page(client, "it")
    assert '<span lang="en">' not in italian and "not yet translated" not in italian
