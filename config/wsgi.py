"""WSGI entry point (gunicorn config.wsgi). Defaults to production settings."""

import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.prod")

application = get_wsgi_application()

# Load the engine's card and rule catalogues now, not on each worker's first request.
from engine import catalog, rule_catalogue  # noqa: E402

catalog()
rule_catalogue()
