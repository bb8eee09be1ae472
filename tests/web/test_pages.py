"""Every page, in every language, for every role: status codes, redirects and <html lang>."""

import re

import pytest
from django.urls import URLPattern, URLResolver, get_resolver, reverse
from django.utils import translation

from tests.conftest import LANGUAGES, ROLES, make_user

LOGIN = "login"  # expected outcome: 302 to the login page of the same language
HOME = "home"  # expected outcome: 302 to the home page of the same language

# page name -> expected outcome per role (anonymous, candidate, instructor, admin)
PAGES: dict[str, dict[str, int | str]] = {
    "quiz:home": dict.fromkeys(ROLES, 200),
    "quiz:practice": dict.fromkeys(ROLES, 200),
    "quiz:history": dict.fromkeys(ROLES, 200),
    "quiz:login": {"anonymous": 200, "candidate": HOME, "instructor": HOME, "admin": HOME},
    "quiz:signup": {"anonymous": 200, "candidate": HOME, "instructor": HOME, "admin": HOME},
    "quiz:password_change": {"anonymous": LOGIN, "candidate": 200, "instructor": 200, "admin": 200},
    "quiz:password_change_done": {
        "anonymous": LOGIN,
        "candidate": 200,
        "instructor": 200,
        "admin": 200,
    },
    "quiz:progress": {"anonymous": LOGIN, "candidate": 200, "instructor": 200, "admin": 200},
    "quiz:rules": dict.fromkeys(ROLES, 200),
    "scenarios:author_home": {
        "anonymous": LOGIN,
        "candidate": 403,
        "instructor": 200,
        "admin": 200,
    },
    "scenarios:cards": {"anonymous": LOGIN, "candidate": 403, "instructor": 200, "admin": 200},
}
# URL names that do not answer GET at all (state-changing, POST only).
POST_ONLY = {"quiz:logout": 405}
# Pages of one user's own quiz session: walked per owner in tests/web/test_permissions.py.
OWNED = {"quiz:session", "quiz:item", "quiz:answer", "quiz:flag", "quiz:finish",
         "quiz:results", "quiz:retry",
         "quiz:report"}  # also walked in tests/quiz/test_report_submit.py
# htmx partials (no page around them): tested with their page, e.g.
# tests/quiz/test_practice_count.py.
PARTIALS = {"quiz:practice_count"}
# Public documents that are not pages (no <html> around them): walked per role in
# tests/scenarios/test_schema.py.
DOCUMENTS = {"scenarios:schema"}
# Public pages about one published scenario or rule: walked in tests/web/test_permissions.py.
WITH_ARGS = {"quiz:history_scenario", "quiz:what_if", "quiz:rule"}
# Instructor pages: walked as anonymous, candidate and instructor in
# tests/scenarios/test_authoring.py::test_every_authoring_url_is_for_instructors_only.
AUTHORING = {"scenarios:new", "scenarios:preview", "scenarios:import", "scenarios:export_all",
             "scenarios:recheck", "scenarios:edit", "scenarios:translate", "scenarios:publish",
             "scenarios:retire", "scenarios:versions", "scenarios:export", "quiz:scenario_stats",
             "scenarios:form", "scenarios:form_preview", "scenarios:action_fields",
             "scenarios:form_new", "scenarios:form_new_preview",
             "scenarios:reports", "scenarios:gallery"}


def _named_app_urls(patterns, namespace=""):
    for entry in patterns:
        if isinstance(entry, URLResolver):
            inner = f"{namespace}{entry.namespace}:" if entry.namespace else namespace
            yield from _named_app_urls(entry.url_patterns, inner)
        elif isinstance(entry, URLPattern) and entry.name and namespace:
            yield f"{namespace}{entry.name}"


def test_every_app_url_is_in_the_permission_matrix():
    names = {
        name
        for name in _named_app_urls(get_resolver().url_patterns)
        if name.split(":")[0] in {"quiz", "scenarios"}
    }
    assert names == (set(PAGES) | set(POST_ONLY) | OWNED | PARTIALS | WITH_ARGS | AUTHORING
                     | DOCUMENTS)


@pytest.mark.django_db
@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize("page", sorted(PAGES))
def test_page_answers_each_role_in_each_language(client, page, role, language):
    user = make_user(role)
    if user is not None:
        client.force_login(user)
    with translation.override(language):
        url = reverse(page)
        login_url = reverse("quiz:login")
        home_url = reverse("quiz:home")
    assert url.startswith(f"/{language}/")

    response = client.get(url)

    expected = PAGES[page][role]
    if expected == LOGIN:
        assert response.status_code == 302
        assert response["Location"] == f"{login_url}?next={url}"
    elif expected == HOME:
        assert response.status_code == 302
        assert response["Location"] == home_url
    else:
        assert response.status_code == expected
        html = response.content.decode()
        assert re.search(rf'<html lang="{language}">', html)
        assert '<main id="main"' in html


@pytest.mark.django_db
@pytest.mark.parametrize("page,status", sorted(POST_ONLY.items()))
def test_post_only_urls_refuse_get(client, candidate, page, status):
    client.force_login(candidate)
    assert client.get(reverse(page)).status_code == status


@pytest.mark.django_db
def test_root_redirects_to_a_language_prefix(client):
    response = client.get("/")
    assert response.status_code == 302
    assert response["Location"] == "/en/"


@pytest.mark.django_db
def test_root_redirect_follows_the_browser_language(client):
    response = client.get("/", headers={"accept-language": "es"})
    assert response["Location"] == "/es/"


@pytest.mark.django_db
@pytest.mark.parametrize("language", LANGUAGES)
def test_unknown_page_is_a_styled_translated_404(client, language):
    response = client.get(f"/{language}/no-such-page/")
    assert response.status_code == 404
    assert f'<html lang="{language}">' in response.content.decode()


@pytest.mark.django_db
def test_403_page_is_translated(client, candidate):
    client.force_login(candidate)
    response = client.get("/it/author/")
    assert response.status_code == 403
    assert "Accesso negato" in response.content.decode()


@pytest.mark.django_db
def test_admin_is_served_without_language_prefix(client, superuser):
    client.force_login(superuser)
    assert client.get("/admin/").status_code == 200


@pytest.mark.django_db
@pytest.mark.parametrize(
    "role,sees_author_link",
    [("anonymous", False), ("candidate", False), ("instructor", True), ("admin", True)],
)
def test_author_link_in_navbar_only_for_instructors(client, role, sees_author_link):
    user = make_user(role)
    if user is not None:
        client.force_login(user)
    html = client.get("/en/practice/").content.decode()
    assert ('href="/en/author/"' in html) is sees_author_link


@pytest.mark.django_db
def test_base_layout_has_landmarks_and_no_inline_script_or_style(client):
    html = client.get("/en/").content.decode()
    assert 'href="#main"' in html
    for landmark in ("<header", "<nav", '<main id="main"', "<footer"):
        assert landmark in html
    assert 'hx-headers=\'{"X-CSRFToken": "' in html
    assert '"includeIndicatorStyles":false' in html
    assert "<style" not in html
    assert " style=" not in html
    for script in re.findall(r"<script[^>]*>(.*?)</script>", html, flags=re.S):
        assert script.strip() == "", "inline script found"
    assert re.search(r'<script src="/static/vendor/htmx/htmx\.min\.js"', html)
    assert re.search(r'src="/static/js/bootstrap-parts\.js"', html)


def test_vendor_static_files_are_served_from_npm_packages():
    from django.contrib.staticfiles import finders

    for path in (
        "vendor/htmx/htmx.min.js",
        "css/bootstrap.css",  # built from static/src by make (sass, esbuild)
        "js/bootstrap-parts.js",
        "css/app.css",
    ):
        assert finders.find(path), path
