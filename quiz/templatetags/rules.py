"""``{% rule_pill step %}``: a rule number as printed in its era, linking to the rule's
page (every era's number and summary) when the step knows the rule's catalogue key.

A tag rather than an included template: feedback pages draw one pill per trace step, and
an ``{% include %}`` in that loop doubled the cost of rendering an explanation."""

from __future__ import annotations

from typing import Any

from django import template
from django.urls import reverse
from django.utils.html import format_html
from django.utils.safestring import SafeString
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from scenarios.caches import memo

register = template.Library()


@memo(maxsize=4096)
def _pill(key: str | None, number: str, unsure: bool, language: str | None) -> SafeString:
    if unsure:
        # a number the rules facts could not verify for that era is never shown as sure
        shown = format_html('{} <span class="trace-unsure">({})</span>', number,
                            _("number not verified"))
        label = _("Rule %(number)s (number not verified)") % {"number": number}
    else:
        shown = format_html("{}", number)
        label = _("Rule %(number)s") % {"number": number}
    if not key:
        return format_html('<span class="badge text-bg-light border trace-rule">{}</span>',
                           shown)
    return format_html(
        '<a class="badge text-bg-light border trace-rule" href="{}" aria-label="{}">{}</a>',
        reverse("quiz:rule", args=[key]), label, shown)


@register.simple_tag
def rule_pill(step: Any) -> SafeString:
    """``step`` has ``rule`` (the number), ``key`` (the catalogue key, or None) and
    ``unsure`` (the number was not verified for its era)."""
    return _pill(getattr(step, "key", None), str(step.rule), bool(getattr(step, "unsure", False)),
                 get_language())
