import pytest
from django.conf import settings
from django.test import Client
from django.utils import translation

from tests.factories import AdminFactory, InstructorFactory, UserFactory

ROLES = ("anonymous", "candidate", "instructor", "admin")
# every language the site offers (settings.LANGUAGES): en, it, es, fr, de, pt-br
LANGUAGES = tuple(code for code, _name in settings.LANGUAGES)


def make_user(role: str):
    factories = {"candidate": UserFactory, "instructor": InstructorFactory, "admin": AdminFactory}
    return None if role == "anonymous" else factories[role]()


@pytest.fixture(autouse=True)
def fresh_quiz_caches():
    """Rolled-back test databases reuse ids; the per-process caches of published versions
    assume ids are never reused (true of a real database)."""
    from django.core.cache import cache

    from scenarios import caches

    caches.clear()
    cache.clear()  # the throttles' counters: each test starts with none
    yield


@pytest.fixture(autouse=True)
def default_language():
    """Each test starts in the default language (requests leave theirs active)."""
    translation.activate(settings.LANGUAGE_CODE)
    yield
    translation.deactivate()


@pytest.fixture
def candidate(db):
    return UserFactory()


@pytest.fixture
def instructor(db):
    return InstructorFactory()


@pytest.fixture
def superuser(db):
    return AdminFactory()


@pytest.fixture
def csrf_client():
    """A client that enforces CSRF checks like a browser session would."""
    return Client(enforce_csrf_checks=True)
