"""The navigation bar is rendered once per language, user state and active page and
kept (quiz.context_processors): every visitor still sees their own name, their own
active page, their own language and their own CSRF token; and a response that needs no
session reads none."""

import re
from typing import Any

import pytest
from django.conf import settings
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from tests.conftest import LANGUAGES
from tests.factories import InstructorFactory, UserFactory


def navbar(html: str) -> str:
    start = html.index("<header>")
    return html[start:html.index("</header>", start)]


def csrf_tokens(nav: str) -> set[str]:
    return set(re.findall(r'name="csrfmiddlewaretoken" value="([^"]+)"', nav))


def active_links(nav: str) -> list[str]:
    return re.findall(r'<a class="nav-link active" href="([^"]+)" aria-current="page">', nav)


def set_language(client: Client, token: str, language: str) -> int:
    return client.post("/i18n/setlang/", {"language": language, "next": "/en/",
                                          "csrfmiddlewaretoken": token}).status_code


@pytest.mark.django_db
def test_two_users_two_languages_and_a_visitor_each_see_their_own_navigation_bar() -> None:
    alice: Any = UserFactory(username="alice")  # type: ignore[no-untyped-call]
    bob: Any = InstructorFactory(username="bob<b>")  # type: ignore[no-untyped-call]
    clients = {name: Client(enforce_csrf_checks=True) for name in ("alice", "bob", "anon")}
    clients["alice"].force_login(alice)
    clients["bob"].force_login(bob)
    # each page twice, in an order where every kept fragment is met by another visitor
    visits = [("alice", "/it/practice/"), ("anon", "/it/practice/"), ("bob", "/en/practice/"),
              ("alice", "/en/history/"), ("anon", "/en/history/"), ("bob", "/it/history/")]
    navs: dict[tuple[str, str], str] = {}
    for _round in range(2):
        for who, path in visits:
            response = clients[who].get(path)
            assert response.status_code == 200
            navs[(who, path)] = navbar(response.content.decode())

    for (who, path), nav in navs.items():
        language = path.split("/")[1]
        page = path.split("/")[2]
        assert active_links(nav) == [path], (who, path)  # the right page, in its language
        assert re.search(rf'value="{language}" lang="{language}"\s+class="btn btn-sm '
                         r'btn-light"\s+aria-pressed="true"', nav)
        nexts = re.findall(r'<input type="hidden" name="next" value="([^"]+)">', nav)
        assert nexts == [f"/{code}/{page}/" for code in LANGUAGES]  # in each language
        assert f'href="/{language}/{page}/"' in nav
        names = {"alice": "alice", "bob": "bob&lt;b&gt;"}
        for other, shown in names.items():
            assert (shown in nav) == (who == other), (who, path, other)
        assert "bob<b>" not in nav  # escaped
        signed_in = who != "anon"
        assert (f'action="/{language}/accounts/logout/"' in nav) == signed_in
        assert (f'href="/{language}/accounts/login/"' in nav) == (not signed_in)
        assert (f'href="/{language}/author/"' in nav) == (who == "bob")
        assert (f'href="/{language}/progress/"' in nav) == signed_in

    # each visitor's forms carry a token of their own: it works for them, not for another
    for who in clients:
        tokens = csrf_tokens(navs[(who, visits[[w for w, _p in visits].index(who)][1])])
        assert len(tokens) == 1
        (token,) = tokens
        for other, client in clients.items():
            if other != who:
                assert set_language(client, token, "es") == 403, (who, other)
        assert set_language(clients[who], token, "es") == 302


@pytest.mark.django_db
def test_no_page_is_marked_active_off_the_navigation_bar(client: Client) -> None:
    nav = navbar(client.get("/en/").content.decode())
    assert active_links(nav) == []
    assert re.findall(r'name="next" value="([^"]+)"', nav) == [f"/{code}/" for code in LANGUAGES]


@pytest.mark.django_db
def test_the_language_forms_keep_the_query_and_leave_an_error_page_as_it_is(
        client: Client) -> None:
    nav = navbar(client.get("/es/history/?a=1&b=<x>").content.decode())
    assert re.findall(r'name="next" value="([^"]+)"', nav) == [
        f"/{code}/history/?a=1&amp;b=%3Cx%3E" for code in LANGUAGES]
    nav = navbar(client.get("/it/no-such-page/").content.decode())
    assert re.findall(r'name="next" value="([^"]+)"', nav) == ["/it/no-such-page/"] * len(LANGUAGES)


@pytest.mark.django_db
def test_a_response_that_needs_no_session_reads_none(client: Client, candidate: Any) -> None:
    client.force_login(candidate)  # a session cookie, as every signed-in request sends
    assert client.cookies[settings.SESSION_COOKIE_NAME].value
    with CaptureQueriesContext(connection) as queries:
        assert client.get("/healthz").status_code == 200
    assert not [q for q in queries if "django_session" in q["sql"]]
    assert len(queries) == 1  # the health check's own SELECT 1
    with CaptureQueriesContext(connection) as queries:  # a page that shows the user does
        assert client.get("/en/practice/").status_code == 200
    assert [q for q in queries if "django_session" in q["sql"]]
