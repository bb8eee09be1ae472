"""An author's text shown in English because the page's language lacks it, and how pages
mark it."""

from __future__ import annotations

from django.utils.html import conditional_escape, format_html
from django.utils.safestring import SafeString
from django.utils.translation import gettext as _


class Untranslated(str):
    """The English text standing in for a language that lacks it (a title, a story, a
    question, an option, an explanation): pages mark it "not yet translated"
    (:func:`marked`, ``{{ text|shown }}``) and never show an empty string or a key in its
    place. Otherwise an ordinary ``str``."""

    __slots__ = ()


def untranslated_mark() -> SafeString:
    return format_html('<span class="badge text-bg-light border untranslated">{}</span>',
                       _("not yet translated"))


def marked(text: str) -> SafeString:
    """``text`` as HTML: escaped, and, when it is English standing in for the page's
    language (:class:`Untranslated`), in a ``lang="en"`` span followed by a visible "not
    yet translated" mark."""
    if isinstance(text, Untranslated):
        return format_html('<span lang="en">{}</span> {}', text, untranslated_mark())
    return conditional_escape(text)
