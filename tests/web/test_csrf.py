"""CSRF on every state-changing request; no GET changes state."""

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model

from tests.factories import PASSWORD

STATE_CHANGING_POSTS = {
    "login": ("/en/accounts/login/", {"username": "someone", "password": PASSWORD}),
    "signup": (
        "/en/accounts/signup/",
        {"username": "newjudge", "password1": PASSWORD, "password2": PASSWORD},
    ),
    "logout": ("/en/accounts/logout/", {}),
    "set_language": ("/i18n/setlang/", {"language": "it", "next": "/en/"}),
    "password_change": (
        "/en/accounts/password/change/",
        {
            "old_password": PASSWORD,
            "new_password1": "an0ther-Secret!",
            "new_password2": "an0ther-Secret!",
        },
    ),
}


@pytest.mark.django_db
@pytest.mark.parametrize("name", sorted(STATE_CHANGING_POSTS))
def test_post_without_csrf_token_is_refused(csrf_client, candidate, name):
    url, data = STATE_CHANGING_POSTS[name]
    if name in {"logout", "password_change"}:
        csrf_client.force_login(candidate)

    response = csrf_client.post(url, data)

    assert response.status_code == 403
    assert not get_user_model().objects.filter(username="newjudge").exists()
    assert settings.LANGUAGE_COOKIE_NAME not in response.cookies
    candidate.refresh_from_db()
    assert candidate.check_password(PASSWORD)


@pytest.mark.django_db
def test_csrf_failure_page_is_styled(csrf_client):
    response = csrf_client.post("/en/accounts/login/", {})
    assert response.status_code == 403
    assert '<main id="main"' in response.content.decode()


@pytest.mark.django_db
def test_post_with_csrf_token_is_accepted(csrf_client):
    csrf_client.get("/en/accounts/login/")
    token = csrf_client.cookies[settings.CSRF_COOKIE_NAME].value
    response = csrf_client.post(
        "/i18n/setlang/", {"language": "es", "next": "/en/", "csrfmiddlewaretoken": token}
    )
    assert response.status_code == 302
    assert response.cookies[settings.LANGUAGE_COOKIE_NAME].value == "es"


@pytest.mark.django_db
def test_logout_by_get_is_refused_and_keeps_the_session(client, candidate):
    client.force_login(candidate)
    response = client.get("/en/accounts/logout/")
    assert response.status_code == 405
    assert "_auth_user_id" in client.session


@pytest.mark.django_db
def test_set_language_by_get_changes_nothing(client):
    response = client.get("/i18n/setlang/?language=it&next=/en/")
    assert settings.LANGUAGE_COOKIE_NAME not in response.cookies


@pytest.mark.django_db
def test_signup_by_get_creates_nothing(client):
    client.get("/en/accounts/signup/?username=x&password1=y&password2=y")
    assert not get_user_model().objects.exists()
