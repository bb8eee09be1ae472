"""The language switcher: every page offers the same page in each language."""

import re

import pytest
from django.conf import settings


@pytest.mark.django_db
def test_set_language_redirects_to_the_translated_page_and_remembers_it(client):
    response = client.post("/i18n/setlang/", {"language": "it", "next": "/en/practice/"})
    assert response.status_code == 302
    assert response["Location"] == "/it/practice/"
    cookie = response.cookies[settings.LANGUAGE_COOKIE_NAME]
    assert cookie.value == "it"
    assert int(cookie["max-age"]) == settings.LANGUAGE_COOKIE_AGE


@pytest.mark.django_db
def test_remembered_language_picks_the_prefix_for_the_bare_root(client):
    client.post("/i18n/setlang/", {"language": "es", "next": "/en/"})
    assert client.get("/")["Location"] == "/es/"


@pytest.mark.django_db
def test_set_language_refuses_foreign_redirects(client):
    response = client.post("/i18n/setlang/", {"language": "it", "next": "https://evil.example/"})
    assert response.status_code == 302
    assert not response["Location"].startswith("https://evil.example")


@pytest.mark.django_db
def test_switcher_offers_each_language_named_in_itself(client):
    html = client.get("/en/history/").content.decode()
    forms = re.findall(
        r'<input type="hidden" name="next" value="([^"]+)">\s*'
        r'<button type="submit" name="language" value="([\w-]+)" lang="[\w-]+"[^>]*>'
        r"\s*([^<]+?)\s*</button>",
        html,
    )
    assert forms == [
        ("/en/history/", "en", "English"),
        ("/it/history/", "it", "Italiano"),
        ("/es/history/", "es", "Español"),
        ("/fr/history/", "fr", "Français"),
        ("/de/history/", "de", "Deutsch"),
        ("/pt-br/history/", "pt-br", "Português Brasileiro"),
    ]
    assert 'action="/i18n/setlang/" method="post"' in html


@pytest.mark.django_db
def test_current_language_is_marked_pressed(client):
    html = client.get("/it/").content.decode()
    assert re.search(
        r'value="it" lang="it"\s+class="btn btn-sm btn-light"\s+aria-pressed="true"', html
    )
