"""The health check, request ids, JSON logs, and a 503 "try again" page when the database
refuses a write (issue 16)."""

from __future__ import annotations

import json
import logging
from unittest import mock

import pytest
from django.db import IntegrityError, OperationalError
from django.test import Client

from config.ops import REQUEST_ID, DatabaseUnavailableMiddleware, JsonFormatter
from tests.factories import PASSWORD

pytestmark = pytest.mark.django_db


def test_the_health_check_says_ok_when_database_and_cache_answer(client: Client) -> None:
    response = client.get("/healthz")
    assert response.status_code == 200
    assert response.json() == {"status": "ok", "database": "ok", "cache": "ok"}
    assert "no-cache" in response["Cache-Control"]
    assert "sessionid" not in response.cookies


@pytest.mark.parametrize("part", ["database", "cache"])
def test_the_health_check_names_the_part_that_failed_and_nothing_else(
        client: Client, part: str) -> None:
    target = ("config.ops.connection.cursor" if part == "database"
              else "config.ops.cache.set")
    with mock.patch(target, side_effect=OperationalError("secret detail: /var/db/x")):
        response = client.get("/healthz")
    assert response.status_code == 503
    body = response.json()
    assert body["status"] == "unavailable" and body[part] == "unavailable"
    assert "secret" not in response.content.decode()


def test_the_health_check_is_get_only(client: Client) -> None:
    assert client.post("/healthz").status_code == 405


def test_every_response_carries_a_request_id_a_proxy_may_give(client: Client) -> None:
    mine = client.get("/healthz")["X-Request-ID"]
    assert len(mine) == 32
    assert client.get("/healthz", HTTP_X_REQUEST_ID="lb-1234.5")["X-Request-ID"] == "lb-1234.5"
    forged = client.get("/healthz", HTTP_X_REQUEST_ID="bad id\nX-Evil: 1")["X-Request-ID"]
    assert forged != "bad id\nX-Evil: 1" and len(forged) == 32


def test_a_log_line_is_one_json_object_with_the_request_id() -> None:
    token = REQUEST_ID.set("abc123")
    try:
        record = logging.LogRecord("quiz.ops", logging.ERROR, __file__, 1,
                                   "the database refused: %s", ("locked",), None)
        record.path = "/en/practice/"
        line = JsonFormatter().format(record)
    finally:
        REQUEST_ID.reset(token)
    assert "\n" not in line
    data = json.loads(line)
    assert data["message"] == "the database refused: locked"
    assert data["request_id"] == "abc123" and data["path"] == "/en/practice/"
    assert data["level"] == "ERROR" and data["time"].endswith("Z")


def test_a_database_that_refuses_a_write_gets_a_503_try_again_page(client: Client) -> None:
    with mock.patch("django.contrib.auth.models.User.save",
                    side_effect=OperationalError("database or disk is full")):
        response = client.post("/it/accounts/signup/", {
            "username": "newjudge", "password1": PASSWORD, "password2": PASSWORD})
    assert response.status_code == 503
    assert response["Retry-After"] == "30"
    html = response.content.decode()
    assert "Riprova tra un momento" in html  # in the reader's language
    assert "Nothing you sent" not in html
    assert "database or disk is full" not in html


def test_an_integrity_error_is_a_bug_not_an_outage(rf) -> None:
    middleware = DatabaseUnavailableMiddleware(lambda r: None)  # type: ignore[arg-type,return-value]
    request = rf.get("/")
    assert middleware.process_exception(request, IntegrityError("dup")) is None
    assert middleware.process_exception(request, OperationalError("locked")).status_code == 503
