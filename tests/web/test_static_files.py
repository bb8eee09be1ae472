"""Static files as production serves them (issue 16): collectstatic writes fingerprinted,
compressed copies, and WhiteNoise serves them from gunicorn alone with far-future
caching; pages link to the fingerprinted names."""

from __future__ import annotations

from typing import Any

import pytest
from django.templatetags.static import static
from django.test import Client, override_settings


@pytest.mark.django_db
def test_production_serves_fingerprinted_compressed_files_cached_for_years(
        production_static: dict[str, Any]) -> None:
    with override_settings(**production_static, DEBUG=False):
        url = static("css/app.css")
        assert url != "/static/css/app.css" and url.startswith("/static/css/app.")
        client = Client()
        plain = client.get(url)
        assert plain.status_code == 200
        assert "max-age=315360000" in plain["Cache-Control"]
        assert "immutable" in plain["Cache-Control"]
        zipped = client.get(url, HTTP_ACCEPT_ENCODING="gzip")
        assert zipped["Content-Encoding"] == "gzip"
        assert int(zipped["Content-Length"]) < int(plain["Content-Length"])
        page = client.get("/en/").content.decode()
        assert f'href="{url}"' in page  # pages link to the fingerprinted name


@pytest.mark.django_db
def test_an_unknown_static_file_is_a_404(production_static: dict[str, Any]) -> None:
    with override_settings(**production_static, DEBUG=False):
        assert Client().get("/static/css/nothing-here.css").status_code == 404


@pytest.mark.django_db
def test_each_static_url_is_looked_up_once_per_process(
        production_static: dict[str, Any], monkeypatch: pytest.MonkeyPatch) -> None:
    from django.contrib.staticfiles.storage import staticfiles_storage

    with override_settings(**production_static, DEBUG=False):
        first = static("css/app.css")
        lookups: list[str] = []
        looked_up = type(staticfiles_storage._wrapped).stored_name
        monkeypatch.setattr(type(staticfiles_storage._wrapped), "stored_name",
                            lambda self, name: lookups.append(name) or looked_up(self, name))
        assert static("css/app.css") == first
        assert lookups == []  # kept
        assert static("css/board.css").startswith("/static/css/board.")
        assert lookups == ["css/board.css"]
