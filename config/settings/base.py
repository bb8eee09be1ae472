"""Settings shared by every environment.

Environment-specific modules (``dev``, ``test``, ``prod``) import everything from here
and override only what differs.
"""

import os
from datetime import timedelta
from pathlib import Path

import dj_database_url
from django.utils.csp import CSP
from django.utils.translation import gettext_lazy as _

BASE_DIR = Path(__file__).resolve().parent.parent.parent

# Overridden in prod from the environment; this value is only for dev and tests.
SECRET_KEY = "django-insecure-dev-only-key-never-use-in-production-0123456789abcdef"
DEBUG = False
ALLOWED_HOSTS: list[str] = []

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "django_htmx",
    "crispy_forms",
    "crispy_bootstrap5",
    "axes",
    "quiz",
    "scenarios",
]

MIDDLEWARE = [
    "config.ops.RequestIdMiddleware",
    "django.middleware.security.SecurityMiddleware",
    # Static files straight from gunicorn, compressed, with far-future headers for the
    # fingerprinted names production's storage writes (config/settings/prod.py).
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.middleware.csp.ContentSecurityPolicyMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "quiz.middleware.SessionIdleRefreshMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "quiz.middleware.ExamLockMiddleware",
    "config.ops.DatabaseUnavailableMiddleware",
    # django-axes must come last: it turns lockouts raised during login into a response.
    "axes.middleware.AxesMiddleware",
]

ROOT_URLCONF = "config.urls"
WSGI_APPLICATION = "config.wsgi.application"
ASGI_APPLICATION = "config.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.template.context_processors.csp",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "quiz.context_processors.navigation",
            ],
        },
    },
]

# --- Database ---------------------------------------------------------------------------
# SQLite by default (zero set-up); PostgreSQL when DATABASE_URL is set. Persistent
# connections for both; SQLite in WAL mode with immediate transactions and a busy timeout
# so concurrent writers queue instead of failing with "database is locked".
CONN_MAX_AGE = 600
DATABASE_URL = os.environ.get("DATABASE_URL", "").strip()
if DATABASE_URL:
    DATABASES = {
        "default": dj_database_url.parse(
            DATABASE_URL, conn_max_age=CONN_MAX_AGE, conn_health_checks=True
        )
    }
else:
    DATABASES = {
        "default": {
            "ENGINE": "django.db.backends.sqlite3",
            "NAME": os.environ.get("DJANGO_SQLITE_PATH") or str(BASE_DIR / "db.sqlite3"),
            "CONN_MAX_AGE": CONN_MAX_AGE,
            "CONN_HEALTH_CHECKS": True,
            "OPTIONS": {
                "transaction_mode": "IMMEDIATE",
                "timeout": 20,
                "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
            },
        }
    }

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# --- Authentication -----------------------------------------------------------------------
AUTHENTICATION_BACKENDS = [
    # First, so that a locked-out username/address never reaches the password check.
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

LOGIN_URL = "quiz:login"
LOGIN_REDIRECT_URL = "quiz:home"
LOGOUT_REDIRECT_URL = "quiz:home"

# Login throttling (django-axes): five failures for one username from one address lock
# that pair out for 15 minutes; a successful login clears the counter. The lockout page
# answers 429 Too Many Requests.
AXES_FAILURE_LIMIT = 5
AXES_COOLOFF_TIME = timedelta(minutes=15)
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_RESET_ON_SUCCESS = True
AXES_LOCKOUT_TEMPLATE = "registration/lockout.html"
AXES_HTTP_RESPONSE_CODE = 429
# The client's address behind the proxies in front of the app (quiz.throttle.client_address).
AXES_CLIENT_IP_CALLABLE = "quiz.throttle.client_address"

# --- Sessions -----------------------------------------------------------------------------
# Sessions live in the database (shared by every app server). The cookie age is an *idle*
# timeout: quiz.middleware.SessionIdleRefreshMiddleware re-saves a live session at most
# every five minutes, pushing its expiry 8 hours ahead, so a candidate studying all day
# stays signed in, an abandoned session ends 8 hours after its last use, and a page view
# costs no session write.
SESSION_ENGINE = "quiz.sessions"  # the database store, read with one plain query
SESSION_COOKIE_AGE = 8 * 60 * 60
SESSION_SAVE_EVERY_REQUEST = False
SESSION_IDLE_REFRESH = 5 * 60
SESSION_COOKIE_HTTPONLY = True
SESSION_COOKIE_SAMESITE = "Lax"
CSRF_COOKIE_SAMESITE = "Lax"
# htmx sends the token from the page (hx-headers on <body>), never from the cookie.
CSRF_COOKIE_HTTPONLY = True
LANGUAGE_COOKIE_SAMESITE = "Lax"
LANGUAGE_COOKIE_AGE = 365 * 24 * 60 * 60

# --- Security headers (common to every environment; prod adds HTTPS-only ones) -----------
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
SECURE_CROSS_ORIGIN_OPENER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"

# Content Security Policy: only our own origin; no inline scripts or styles anywhere.
# Bootstrap's CSS draws a few icons (navbar toggler, form controls) as data: SVG images.
# One exception, for styles only: the YAML editor (CodeMirror 6, static/src/yaml-editor.js)
# writes its base styles into a <style> element, which carries the request's nonce. Django
# puts the nonce in the header only when a page reads {{ csp_nonce }}, so every other page
# keeps style-src 'self' alone; scripts never get a nonce.
SECURE_CSP = {
    "default-src": [CSP.SELF],
    "script-src": [CSP.SELF],
    "style-src": [CSP.SELF, CSP.NONCE],
    "img-src": [CSP.SELF, "data:"],
    "font-src": [CSP.SELF],
    "connect-src": [CSP.SELF],
    "object-src": [CSP.NONE],
    "base-uri": [CSP.SELF],
    "form-action": [CSP.SELF],
    "frame-ancestors": [CSP.NONE],
}

# --- Internationalisation -----------------------------------------------------------------
LANGUAGE_CODE = "en"
# The languages the site offers (README, "Common changes": a language is a catalogue in
# locale/, a glossary, card names, rule summaries and this line). Scenario texts may be
# written in any of them (the engine follows this list).
LANGUAGES = [
    ("en", _("English")),
    ("it", _("Italian")),
    ("es", _("Spanish")),
    ("fr", _("French")),
    ("de", _("German")),
    ("pt-br", _("Brazilian Portuguese")),
]
# The languages every text of a scenario must have before it is published (English always
# is); a text missing in another language of the site shows in English, marked "not yet
# translated".
QUIZ_REQUIRED_LANGUAGES = ["en", "it", "es"]
LOCALE_PATHS = [BASE_DIR / "locale"]
USE_I18N = True
TIME_ZONE = "UTC"
USE_TZ = True

# --- Static files -------------------------------------------------------------------------
# htmx is served straight from its pinned npm package; Bootstrap is built into static/
# (css/bootstrap.css, js/bootstrap-parts.js) by `make install` from static/src/.
STATIC_URL = "static/"
STATIC_ROOT = Path(os.environ.get("DJANGO_STATIC_ROOT") or BASE_DIR / "staticfiles")
STATICFILES_DIRS = [
    BASE_DIR / "static",
    ("vendor/htmx", BASE_DIR / "node_modules" / "htmx.org" / "dist"),
]

# --- Forms --------------------------------------------------------------------------------
CRISPY_ALLOWED_TEMPLATE_PACKS = "bootstrap5"
CRISPY_TEMPLATE_PACK = "bootstrap5"

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": "WARNING"},
}

# How many reverse proxies in front of the app append the client's address to
# X-Forwarded-For (0: the app is reached directly, REMOTE_ADDR is the client). The login
# lockouts and the throttles key on the address they yield (quiz.throttle.client_address).
TRUSTED_PROXIES = int(os.environ.get("DJANGO_TRUSTED_PROXIES", "0") or 0)

# -- Quiz --------------------------------------------------------------------------------
QUIZ_EXAM_MINUTES = 40  # a mock exam of 25 questions, like a level 2 rules exam
QUIZ_ANSWER_RATE = (12, 60)  # at most 12 submissions per question and client per 60 s
QUIZ_USER_RATE = (120, 60)  # at most 120 submissions per client per 60 s
QUIZ_REPORT_RATE = (5, 600)  # at most 5 problem reports per client per 10 minutes
QUIZ_START_RATE = (10, 60)  # at most 10 quizzes or exams started per client per 60 s
# ... and 60 per network address (a classroom behind one address still fits; a client that
# drops its cookie to get a fresh session each time does not)
QUIZ_START_ADDRESS_RATE = (60, 60)
# Anonymous quizzes older than this, whose browser session has ended and that have no
# answer, are deleted by `manage.py purge_anonymous_sessions` (run it daily).
QUIZ_ANONYMOUS_PURGE_DAYS = 30

# Pages that show engine answers, traces or answer keys: closed to a candidate while their
# mock exam runs (quiz.middleware.ExamLockMiddleware). A name is a URL name
# ("quiz:what_if") or a whole namespace ("scenarios:*": the authoring area shows every
# answer key and the documents' expected values; "admin:*": so do versions and attempts;
# "quiz:scenario_stats" is an authoring page the quiz serves: it shows wrong answers).
QUIZ_EXAM_CLOSED_PAGES = (
    "quiz:history", "quiz:history_scenario", "quiz:what_if", "quiz:rules", "quiz:rule",
    "quiz:scenario_stats", "scenarios:*", "admin:*",
)

# With REDIS_URL (redis://host:6379/0), Redis is the cache every worker and server shares,
# and the throttles count there (its increments are atomic). Without it, each process has
# its own in-memory cache (for what is per process anyway), and the throttles count in the
# database, which every worker shares: exact either way (quiz.throttle).
REDIS_URL = os.environ.get("REDIS_URL", "")
if REDIS_URL:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.redis.RedisCache",
                          "LOCATION": REDIS_URL}}
else:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache",
                          "LOCATION": "quiz"}}
QUIZ_THROTTLE_STORE = "cache" if REDIS_URL else "database"
