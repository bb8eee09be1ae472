"""Fixtures shared by the web tests."""

from __future__ import annotations

from typing import Any

import pytest
from django.core.management import call_command
from django.test import override_settings

PROD_STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "config.ops.StaticFilesStorage"},  # as config/settings/prod.py
}


@pytest.fixture(scope="session")
def production_static(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """Production's static files, collected once (fingerprinted, compressed): the
    settings that serve them, for ``override_settings(**production_static)``."""
    root = tmp_path_factory.mktemp("static")
    with override_settings(STATIC_ROOT=root, STORAGES=PROD_STORAGES):
        call_command("collectstatic", "--noinput", verbosity=0)
    return {"STATIC_ROOT": root, "STORAGES": PROD_STORAGES}
