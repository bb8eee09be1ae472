"""Production settings: deploy check, HTTPS headers, CSP, cookie flags."""

import importlib
import os
import secrets
import subprocess
import sys
from pathlib import Path

import pytest
from django.conf import settings
from django.core.exceptions import ImproperlyConfigured
from django.test import override_settings

from tests.factories import PASSWORD

BASE_DIR = Path(settings.BASE_DIR)
PROD_ENV = {
    "DJANGO_SETTINGS_MODULE": "config.settings.prod",
    "DJANGO_SECRET_KEY": secrets.token_urlsafe(64),
    "DJANGO_ALLOWED_HOSTS": "quiz.example.org,www.quiz.example.org",
    "DJANGO_CSRF_TRUSTED_ORIGINS": "https://quiz.example.org",
}
# Settings that make responses and cookies behave as in production.
PROD_SECURITY_SETTINGS = (
    "SECURE_SSL_REDIRECT",
    "SECURE_PROXY_SSL_HEADER",
    "SECURE_HSTS_SECONDS",
    "SECURE_HSTS_INCLUDE_SUBDOMAINS",
    "SECURE_HSTS_PRELOAD",
    "SECURE_CONTENT_TYPE_NOSNIFF",
    "SECURE_REFERRER_POLICY",
    "SECURE_CSP",
    "X_FRAME_OPTIONS",
    "SESSION_COOKIE_SECURE",
    "SESSION_COOKIE_HTTPONLY",
    "SESSION_COOKIE_SAMESITE",
    "CSRF_COOKIE_SECURE",
    "CSRF_COOKIE_SAMESITE",
    "LANGUAGE_COOKIE_SECURE",
)


def load_prod_settings(monkeypatch, **env):
    for name in ("DJANGO_SECRET_KEY", "DJANGO_ALLOWED_HOSTS", "DJANGO_CSRF_TRUSTED_ORIGINS"):
        monkeypatch.delenv(name, raising=False)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    sys.modules.pop("config.settings.prod", None)
    try:
        return importlib.import_module("config.settings.prod")
    finally:
        sys.modules.pop("config.settings.prod", None)


@pytest.fixture
def prod_like(monkeypatch):
    env = {key: value for key, value in PROD_ENV.items() if key != "DJANGO_SETTINGS_MODULE"}
    prod = load_prod_settings(monkeypatch, **env)
    values = {name: getattr(prod, name) for name in PROD_SECURITY_SETTINGS}
    with override_settings(**values):
        yield prod


def test_production_settings_pass_the_deploy_check():
    env = {**os.environ, **PROD_ENV}
    env.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)  # never set in a deployment
    result = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=BASE_DIR,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "no issues" in result.stdout


def test_production_settings_refuse_to_load_without_a_secret_key(monkeypatch):
    with pytest.raises(ImproperlyConfigured, match="DJANGO_SECRET_KEY"):
        load_prod_settings(monkeypatch, DJANGO_ALLOWED_HOSTS="quiz.example.org")


def test_production_settings_read_hosts_and_origins_from_the_environment(monkeypatch):
    prod = load_prod_settings(
        monkeypatch,
        DJANGO_SECRET_KEY="x" * 60,
        DJANGO_ALLOWED_HOSTS=" quiz.example.org , www.quiz.example.org ",
        DJANGO_CSRF_TRUSTED_ORIGINS="https://quiz.example.org",
    )
    assert prod.DEBUG is False
    assert prod.ALLOWED_HOSTS == ["quiz.example.org", "www.quiz.example.org"]
    assert prod.CSRF_TRUSTED_ORIGINS == ["https://quiz.example.org"]
    assert prod.SECURE_HSTS_SECONDS >= 365 * 24 * 60 * 60


@pytest.mark.django_db
def test_production_redirects_plain_http_to_https(client, prod_like):
    response = client.get("/en/")
    assert response.status_code == 301
    assert response["Location"] == "https://testserver/en/"


@pytest.mark.django_db
def test_production_responses_carry_security_headers(client, prod_like):
    response = client.get("/en/", secure=True)
    assert response.status_code == 200
    assert response["Strict-Transport-Security"] == "max-age=31536000; includeSubDomains; preload"
    assert response["X-Content-Type-Options"] == "nosniff"
    assert response["Referrer-Policy"] == "same-origin"
    assert response["X-Frame-Options"] == "DENY"
    csp = response["Content-Security-Policy"]
    assert "default-src 'self'" in csp
    assert "script-src 'self'" in csp
    assert "style-src 'self'" in csp
    assert "unsafe-inline" not in csp
    assert "frame-ancestors 'none'" in csp


@pytest.mark.django_db
def test_proxy_https_header_is_trusted(client, prod_like):
    response = client.get("/en/", headers={"x-forwarded-proto": "https"})
    assert response.status_code == 200


@pytest.mark.django_db
def test_production_cookies_are_secure_httponly_and_samesite(client, candidate, prod_like):
    response = client.post(
        "/en/accounts/login/",
        {"username": candidate.username, "password": PASSWORD},
        secure=True,
    )
    assert response.status_code == 302
    session_cookie = response.cookies[settings.SESSION_COOKIE_NAME]
    assert session_cookie["secure"]
    assert session_cookie["httponly"]
    assert session_cookie["samesite"] in {"Lax", "Strict"}
    csrf_cookie = response.cookies[settings.CSRF_COOKIE_NAME]  # rotated at login
    assert csrf_cookie["secure"]
    assert csrf_cookie["samesite"] in {"Lax", "Strict"}


@pytest.mark.django_db
def test_every_environment_sends_a_content_security_policy(client):
    response = client.get("/en/practice/")
    assert "Content-Security-Policy" in response
    assert "Content-Security-Policy-Report-Only" not in response
