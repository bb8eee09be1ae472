"""``{{ text|shown }}``: an author's text (title, story, question, option, explanation) as
a page shows it: escaped, and marked "not yet translated" when it is the English standing
in for the page's language (``scenarios.untranslated.marked``). ``|shown:"lines"``
keeps its line breaks too (``linebreaksbr``)."""

from __future__ import annotations

from typing import Any

from django import template
from django.template.defaultfilters import linebreaksbr
from django.utils.safestring import SafeString

from scenarios.untranslated import Untranslated, in_english, marked

register = template.Library()


@register.filter
def shown(text: Any, lines: str = "") -> SafeString:
    if not lines:
        return marked(text)
    html = SafeString(linebreaksbr(text, autoescape=True))
    return in_english(html) if isinstance(text, Untranslated) else html
