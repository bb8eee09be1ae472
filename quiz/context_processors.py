"""Template context shared by every page: role flags, the navigation bar and the footer.

The navigation bar is the same HTML for everyone who shares a language, a user state
(anonymous, signed in, instructor) and an active page, except for three per-request
values: the CSRF token (in the language and log-out forms), the current page in each
language (the language forms' ``next``) and the user's name. So it is rendered once per
such combination and process (``_navbar_html``, bounded) with markers where those go, and
each request puts its own values in (escaped): a token or a name is never cached, so no
user ever sees another's. The footer depends on the language alone.

Both are lazy: a partial (htmx swap) that shows neither pays nothing; and neither reads
the session unless the page shows the navigation bar (which needs the user).
"""

from __future__ import annotations

from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest
from django.middleware.csrf import get_token
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.functional import SimpleLazyObject
from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language, get_language_info

from scenarios.caches import memo
from scenarios.roles import is_instructor

# Stand-ins for the per-request values in the cached HTML: plain letters, which escaping
# leaves alone and no translation or URL contains.
_TOKEN, _NAME = "QzNavCsrfTokenQz", "QzNavUserNameQz"


def _next_marker(index: int) -> str:
    return f"QzNavNext{index}Qz"

# The navigation bar's links, by name: the one whose URL is the request's path is marked
# active (aria-current).
NAV_PAGES = {"practice": "quiz:practice", "history": "quiz:history",
             "progress": "quiz:progress", "author": "scenarios:author_home"}


class LazyHtml:
    """HTML computed when the template first prints it (``{{ navbar }}``), then kept."""

    def __init__(self, make: Callable[[], SafeString]) -> None:
        self._make = make
        self._html: SafeString | None = None

    def __html__(self) -> SafeString:
        if self._html is None:
            self._html = self._make()
        return self._html

    __str__ = __html__


@memo(maxsize=16)  # one entry per language of the site (six, room for more)
def nav_urls(language: str) -> dict[str, str]:
    """The navigation bar's URLs in ``language`` (the active language when called)."""
    return {name: reverse(url_name) for name, url_name in NAV_PAGES.items()}


@memo(maxsize=16)  # one entry per language of the site (six, room for more)
def _language_names(language: str) -> tuple[tuple[str, str, str], ...]:
    # Each language is named in its own language: English, Italiano, Español, Français...
    return tuple((code, get_language_info(code)["name_local"], _next_marker(index))
                 for index, (code, _name) in enumerate(settings.LANGUAGES))


def page_in(request: HttpRequest, language: str, code: str) -> str:
    """The current page (path and query) in language ``code``: what
    ``django.urls.translate_url`` gives, without resolving and reversing the path once per
    language. The app's pages sit under ``/<language>/`` (``i18n_patterns``) and no URL
    pattern is translated, so that is the same path under the other prefix; a path that
    did not resolve (an error page) or sits outside the prefix stays as it is."""
    path = request.get_full_path()
    prefix = f"/{language}/"
    if request.resolver_match is None or not path.startswith(prefix):
        return path
    return f"/{code}/{path[len(prefix):]}"


# languages (6) x user states (3) x active page (5: four links or none) = 90 entries
@memo(maxsize=128)
def _navbar_html(language: str, signed_in: bool, instructor: bool, active: str) -> str:
    return render_to_string("_nav.html", {
        "LANGUAGE_CODE": language, "signed_in": signed_in, "instructor": instructor,
        "active": active, "urls": nav_urls(language),
        "languages": _language_names(language),
        "csrf_token": _TOKEN, "username": _NAME,
    })


@memo(maxsize=16)  # one entry per language of the site (six, room for more)
def _footer_html(language: str) -> SafeString:
    return render_to_string("_footer.html")


def navbar(request: HttpRequest) -> SafeString:
    """The navigation bar for this request: the cached HTML of its language, user state
    and active page, with this request's CSRF token, page and user name put in."""
    language = get_language()
    user = getattr(request, "user", None)
    signed_in = user is not None and bool(user.is_authenticated)
    urls = nav_urls(language)
    active = next((name for name, url in urls.items() if url == request.path), "")
    instructor = user is not None and signed_in and is_instructor(user)
    html = _navbar_html(language, signed_in, instructor, active)
    html = html.replace(_TOKEN, get_token(request))
    for index, (code, _name) in enumerate(settings.LANGUAGES):
        html = html.replace(_next_marker(index), escape(page_in(request, language, code)))
    if user is not None and signed_in:
        html = html.replace(_NAME, escape(user.get_username()))
    return mark_safe(html)  # every value put in was escaped above


def navigation(request: HttpRequest) -> dict[str, object]:
    user = getattr(request, "user", None)
    return {
        "is_instructor": SimpleLazyObject(lambda: user is not None and is_instructor(user)),
        "navbar": LazyHtml(lambda: navbar(request)),
        "footer": LazyHtml(lambda: _footer_html(get_language())),
    }
