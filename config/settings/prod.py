"""Production settings: everything secret or host-specific comes from the environment.

Required: DJANGO_SECRET_KEY, DJANGO_ALLOWED_HOSTS (comma-separated).
Optional: DJANGO_CSRF_TRUSTED_ORIGINS (comma-separated, with scheme), DATABASE_URL.
The app is expected behind an HTTPS-terminating proxy that sets X-Forwarded-Proto.
"""

import os

from django.core.exceptions import ImproperlyConfigured

from .base import *


def _env_list(name: str) -> list[str]:
    return [item.strip() for item in os.environ.get(name, "").split(",") if item.strip()]


DEBUG = False

SECRET_KEY = os.environ.get("DJANGO_SECRET_KEY", "")
if not SECRET_KEY:
    raise ImproperlyConfigured("Set the DJANGO_SECRET_KEY environment variable.")

ALLOWED_HOSTS = _env_list("DJANGO_ALLOWED_HOSTS")
CSRF_TRUSTED_ORIGINS = _env_list("DJANGO_CSRF_TRUSTED_ORIGINS")

# HTTPS only.
SECURE_SSL_REDIRECT = True
SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
SECURE_HSTS_SECONDS = 365 * 24 * 60 * 60
SECURE_HSTS_INCLUDE_SUBDOMAINS = True
SECURE_HSTS_PRELOAD = True

# `manage.py collectstatic` writes every static file under a name with its content's hash,
# and a gzip copy beside it; WhiteNoise serves them with a ten-year, immutable
# Cache-Control (a new version is a new name), and pages link to the hashed names.
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    # WhiteNoise's CompressedManifestStaticFilesStorage, each URL looked up once (config.ops)
    "staticfiles": {"BACKEND": "config.ops.StaticFilesStorage"},
}

SESSION_COOKIE_SECURE = True
CSRF_COOKIE_SECURE = True
LANGUAGE_COOKIE_SECURE = True

# One JSON object per line on stdout, with the request's id (config.ops).
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {"json": {"()": "config.ops.JsonFormatter"}},
    "handlers": {"console": {"class": "logging.StreamHandler", "formatter": "json",
                             "stream": "ext://sys.stdout"}},
    "root": {"handlers": ["console"], "level": "INFO"},
    "loggers": {"django": {"handlers": ["console"], "level": "INFO", "propagate": False}},
}
