"""Sign up, log in (with throttling), log out, password change, sessions."""

import re

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.sessions.backends.db import SessionStore

from scenarios.roles import is_instructor
from tests.factories import PASSWORD, UserFactory

LOGIN_URL = "/en/accounts/login/"


def login(client, username, password, **extra):
    return client.post(LOGIN_URL, {"username": username, "password": password}, **extra)


def normalised(html: str, username: str) -> str:
    """The page without per-response CSRF tokens and the echoed username."""
    html = re.sub(r'(name="csrfmiddlewaretoken" value=")[^"]+', r"\1TOKEN", html)
    html = re.sub(r'("X-CSRFToken": ")[^"]+', r"\1TOKEN", html)
    return html.replace(username, "USERNAME")


# --- Sign up -------------------------------------------------------------------------------


@pytest.mark.django_db
def test_signup_creates_a_signed_in_candidate(client):
    response = client.post(
        "/en/accounts/signup/",
        {"username": "newjudge", "password1": PASSWORD, "password2": PASSWORD},
    )
    assert response.status_code == 303
    assert response["Location"] == "/en/"
    user = get_user_model().objects.get(username="newjudge")
    assert int(client.session["_auth_user_id"]) == user.pk
    assert not is_instructor(user)
    assert not user.is_staff
    assert "Welcome, newjudge!" in client.get("/en/").content.decode()


@pytest.mark.django_db
def test_signup_with_mismatched_passwords_rerenders_with_errors(client):
    response = client.post(
        "/it/accounts/signup/",
        {"username": "newjudge", "password1": PASSWORD, "password2": PASSWORD + "x"},
    )
    assert response.status_code == 200
    assert "is-invalid" in response.content.decode()
    assert not get_user_model().objects.filter(username="newjudge").exists()


@pytest.mark.django_db
def test_signup_ignores_privilege_fields(client):
    client.post(
        "/en/accounts/signup/",
        {
            "username": "sneaky",
            "password1": PASSWORD,
            "password2": PASSWORD,
            "is_staff": "on",
            "is_superuser": "on",
            "groups": "1",
        },
    )
    user = get_user_model().objects.get(username="sneaky")
    assert not user.is_staff
    assert not user.is_superuser
    assert not user.groups.exists()


# --- Log in and throttling ----------------------------------------------------------------


@pytest.mark.django_db
def test_login_with_the_right_password_signs_in(client, candidate):
    response = login(client, candidate.username, PASSWORD)
    assert response.status_code == 302
    assert response["Location"] == "/en/"
    assert int(client.session["_auth_user_id"]) == candidate.pk


@pytest.mark.django_db
def test_unknown_user_and_wrong_password_answer_alike(client, candidate):
    wrong_password = login(client, candidate.username, "not-the-password")
    unknown_user = login(client, "nobody-by-this-name", "not-the-password")
    assert wrong_password.status_code == unknown_user.status_code == 200
    assert normalised(wrong_password.content.decode(), candidate.username) == normalised(
        unknown_user.content.decode(), "nobody-by-this-name"
    )


@pytest.mark.django_db
def test_five_failures_lock_out_the_username_from_that_address(client, candidate):
    statuses = [login(client, candidate.username, f"wrong-{n}").status_code for n in range(5)]
    assert statuses[:4] == [200] * 4
    assert statuses[4] == 429

    response = login(client, candidate.username, PASSWORD)

    assert response.status_code == 429
    assert "Too many failed login attempts" in response.content.decode()
    assert "_auth_user_id" not in client.session


@pytest.mark.django_db
def test_lockout_is_per_username_and_address(client, candidate):
    other = UserFactory()
    for n in range(5):
        login(client, candidate.username, f"wrong-{n}")
    # Same address, another username: not locked.
    assert login(client, other.username, PASSWORD).status_code == 302
    # Same username, another address: not locked.
    client.post(LOGIN_URL.replace("login", "logout"))
    response = login(client, candidate.username, PASSWORD, REMOTE_ADDR="203.0.113.9")
    assert response.status_code == 302


@pytest.mark.django_db
def test_lockout_page_is_translated(client, candidate):
    for n in range(5):
        response = client.post(
            "/es/accounts/login/", {"username": candidate.username, "password": f"wrong-{n}"}
        )
    assert response.status_code == 429
    assert '<html lang="es">' in response.content.decode()


@pytest.mark.django_db
def test_successful_login_resets_the_failure_count(client, candidate):
    for n in range(4):
        login(client, candidate.username, f"wrong-{n}")
    assert login(client, candidate.username, PASSWORD).status_code == 302
    client.post("/en/accounts/logout/")
    for n in range(4):
        assert login(client, candidate.username, f"wrong-again-{n}").status_code == 200
    assert login(client, candidate.username, PASSWORD).status_code == 302


# --- Sessions -----------------------------------------------------------------------------


@pytest.mark.django_db
def test_login_cycles_the_session_key(client, candidate):
    session = client.session
    session["visited"] = True
    session.save()
    key_before = session.session_key

    login(client, candidate.username, PASSWORD)

    assert client.session.session_key != key_before
    assert not SessionStore().exists(key_before)


@pytest.mark.django_db
def test_logout_ends_the_session(client, candidate):
    login(client, candidate.username, PASSWORD)
    key = client.session.session_key

    response = client.post("/en/accounts/logout/")

    assert response.status_code == 302
    assert response["Location"] == "/en/"
    assert not SessionStore().exists(key)
    assert "_auth_user_id" not in client.session
    assert client.get("/en/accounts/password/change/").status_code == 302


@pytest.mark.django_db
def test_session_expiry_is_an_idle_timeout_refreshed_on_each_request(client, candidate):
    client.force_login(candidate)
    response = client.get("/en/practice/")
    cookie = response.cookies[settings.SESSION_COOKIE_NAME]
    assert int(cookie["max-age"]) == settings.SESSION_COOKIE_AGE == 8 * 60 * 60


# --- Password change ----------------------------------------------------------------------


@pytest.mark.django_db
def test_password_change_keeps_the_user_signed_in(client, candidate):
    client.force_login(candidate)
    new_password = "an0ther-Secret-phrase"
    response = client.post(
        "/en/accounts/password/change/",
        {"old_password": PASSWORD, "new_password1": new_password, "new_password2": new_password},
    )
    assert response.status_code == 302
    assert response["Location"] == "/en/accounts/password/change/done/"
    candidate.refresh_from_db()
    assert candidate.check_password(new_password)
    assert client.get(response["Location"]).status_code == 200


# --- Behind a proxy ------------------------------------------------------------------------

PROXY = "10.0.0.2"  # the proxy's own address: every request reaches the app from it


def via_proxy(forwarded_for: str) -> dict[str, str]:
    return {"REMOTE_ADDR": PROXY, "HTTP_X_FORWARDED_FOR": forwarded_for}


@pytest.mark.django_db
def test_behind_one_proxy_a_lockout_is_keyed_on_the_client_not_the_proxy(
        client, candidate, settings):
    settings.TRUSTED_PROXIES = 1
    for n in range(5):
        login(client, candidate.username, f"wrong-{n}", **via_proxy("198.51.100.7"))
    assert login(client, candidate.username, PASSWORD,
                 **via_proxy("198.51.100.7")).status_code == 429
    # The same user from another client behind the same proxy is not locked out.
    assert login(client, candidate.username, PASSWORD,
                 **via_proxy("203.0.113.20")).status_code == 302


@pytest.mark.django_db
def test_a_spoofed_forwarded_for_does_not_escape_the_lockout(client, candidate, settings):
    settings.TRUSTED_PROXIES = 1
    for n in range(5):
        login(client, candidate.username, f"wrong-{n}", **via_proxy("198.51.100.7"))
    # The client writes its own X-Forwarded-For; the proxy appends the real address.
    spoofed = via_proxy("203.0.113.99, 198.51.100.7")
    assert login(client, candidate.username, PASSWORD, **spoofed).status_code == 429
    # Nor does a header that isn't an address, or none at all: the proxy's address is
    # used, and five failures from it lock the user out there too.
    for n in range(5):
        login(client, candidate.username, f"wrong-{n}", **via_proxy("not-an-address"))
    assert login(client, candidate.username, PASSWORD, REMOTE_ADDR=PROXY).status_code == 429


@pytest.mark.django_db
def test_without_trusted_proxies_the_header_is_ignored(client, candidate, settings):
    settings.TRUSTED_PROXIES = 0
    for n in range(5):
        login(client, candidate.username, f"wrong-{n}",
              REMOTE_ADDR="198.51.100.7", HTTP_X_FORWARDED_FOR=f"203.0.113.{n}")
    assert login(client, candidate.username, PASSWORD,
                 REMOTE_ADDR="198.51.100.7", HTTP_X_FORWARDED_FOR="203.0.113.50").status_code == 429


@pytest.mark.parametrize(("trusted", "meta", "address"), [
    (0, {"REMOTE_ADDR": "192.0.2.1", "HTTP_X_FORWARDED_FOR": "198.51.100.7"}, "192.0.2.1"),
    (1, {"REMOTE_ADDR": "10.0.0.2", "HTTP_X_FORWARDED_FOR": "198.51.100.7"}, "198.51.100.7"),
    (1, {"REMOTE_ADDR": "10.0.0.2", "HTTP_X_FORWARDED_FOR": "1.1.1.1, 198.51.100.7"},
     "198.51.100.7"),
    (2, {"REMOTE_ADDR": "10.0.0.3", "HTTP_X_FORWARDED_FOR": "1.1.1.1, 198.51.100.7, 10.0.0.2"},
     "198.51.100.7"),
    (2, {"REMOTE_ADDR": "10.0.0.3", "HTTP_X_FORWARDED_FOR": "198.51.100.7"}, "10.0.0.3"),
    (1, {"REMOTE_ADDR": "10.0.0.2"}, "10.0.0.2"),
    (1, {"REMOTE_ADDR": "10.0.0.2", "HTTP_X_FORWARDED_FOR": " 2001:db8::1 "}, "2001:db8::1"),
    (1, {"REMOTE_ADDR": "10.0.0.2", "HTTP_X_FORWARDED_FOR": "198.51.100.7, <script>"},
     "10.0.0.2"),
])
def test_the_client_address_reads_the_forwarded_chain_from_the_right(
        rf, settings, trusted, meta, address):
    from quiz.throttle import client_address

    settings.TRUSTED_PROXIES = trusted
    request = rf.get("/", **meta)
    assert client_address(request) == address
