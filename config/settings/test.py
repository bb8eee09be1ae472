"""Test settings: fast password hashing, quiet logs, throttling still on."""

import os

from .base import *

DEBUG = False
ALLOWED_HOSTS = ["testserver", "localhost", "127.0.0.1"]

PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]

# Throttling stays enabled (it is tested); its per-attempt log lines are noise here.
AXES_VERBOSE = False

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"null": {"class": "logging.NullHandler"}},
    "root": {"handlers": ["null"], "level": "CRITICAL"},
}

# A file-backed test database on SQLite, like production: WAL mode and the busy timeout
# then apply, so tests with concurrent requests (live server, threads) meet the same
# locking as a real deployment instead of the shared-cache in-memory database's
# "database table is locked". pytest-django gives each xdist worker its own file.
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # DJANGO_TEST_SQLITE_PATH lets two suites run side by side on one checkout.
    DATABASES["default"]["TEST"] = {
        "NAME": os.environ.get("DJANGO_TEST_SQLITE_PATH") or str(BASE_DIR / ".pytest-db.sqlite3")
    }

# Tests run without collectstatic: WhiteNoise looks files up per request instead of
# scanning a STATIC_ROOT that isn't there (as it does with DEBUG in development).
WHITENOISE_AUTOREFRESH = True
