"""An author's text shown in English because the page's language lacks it, and how pages
mark it."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.html import conditional_escape, format_html
from django.utils.safestring import SafeString
from django.utils.translation import gettext as _


class Untranslated(str):
    """The English text standing in for a language that lacks it (a title, a story, a
    question, an option, an explanation): pages mark it "not yet translated"
    (:func:`marked`, ``{{ text|shown }}``) and never show an empty string or a key in its
    place. Otherwise an ordinary ``str``."""

    __slots__ = ()


def lacks(text: Mapping[str, Any] | None, language: str) -> bool:
    """Whether an author's text (a mapping language -> text) is shown in English in
    ``language`` because it has no text there."""
    if not text or language == "en":
        return False
    return not text.get(language)


def in_english(html: SafeString) -> SafeString:
    """HTML of English standing in for the page's language: in a ``lang="en"`` span,
    followed by a visible "not yet translated" mark."""
    return format_html('<span lang="en">{}</span> <span class="badge text-bg-light border '
                       'untranslated">{}</span>', html, _("not yet translated"))


def marked(text: str) -> SafeString:
    """``text`` as HTML: escaped, and :func:`in_english` when it is English standing in
    for the page's language (:class:`Untranslated`)."""
    html = conditional_escape(text)
    return in_english(html) if isinstance(text, Untranslated) else html
