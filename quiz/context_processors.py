"""Template context shared by every page: role flags and the language switcher."""

from django.conf import settings
from django.http import HttpRequest
from django.urls import translate_url
from django.utils.functional import SimpleLazyObject
from django.utils.translation import get_language_info

from scenarios.roles import is_instructor


def navigation(request: HttpRequest) -> dict[str, object]:
    """Lazy values: partials (htmx swaps) that don't show the navigation bar don't pay
    for translating the current URL into every language."""

    def language_links() -> list[dict[str, str]]:
        current_path = request.get_full_path()
        return [
            {
                "code": code,
                # Each language is named in its own language: English, Italiano, Español.
                "name": get_language_info(code)["name_local"],
                "next": translate_url(current_path, code),
            }
            for code, _name in settings.LANGUAGES
        ]

    user = getattr(request, "user", None)
    return {
        "is_instructor": SimpleLazyObject(lambda: user is not None and is_instructor(user)),
        "language_links": SimpleLazyObject(language_links),
    }
