"""Forms of problem reports: the candidate's report under a question's feedback, and the
instructor's reply with close and reopen. Both live here, beside the model, because the
quiz (a layer above) renders the first and the authoring pages the second."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from scenarios.models import ProblemReport


class ProblemReportForm(forms.Form):
    """What is wrong with a question, and optionally in the candidate's words."""

    kind = forms.ChoiceField(label=_("What is wrong?"), choices=ProblemReport.Kind.choices,
                             widget=forms.RadioSelect)
    text = forms.CharField(
        label=_("Details (optional)"), required=False, max_length=ProblemReport.TEXT_MAX,
        widget=forms.Textarea(attrs={"rows": 3}),
        help_text=_("What you expected, or what is unclear. Instructors read it; other "
                    "candidates never see it."))

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("auto_id", "report-%s")
        super().__init__(*args, **kwargs)


class ReportActionForm(forms.Form):
    """An instructor's reply to one report, and whether to close or reopen it."""

    REPLY, CLOSE, REOPEN = "reply", "close", "reopen"

    report = forms.IntegerField(widget=forms.HiddenInput, min_value=1)
    # sent by the button pressed (each submit button carries its own value)
    action = forms.ChoiceField(choices=[(a, a) for a in (REPLY, CLOSE, REOPEN)])
    reply = forms.CharField(
        label=_("Reply to the candidate"), required=False,
        max_length=ProblemReport.REPLY_MAX, widget=forms.Textarea(attrs={"rows": 2}),
        help_text=_("Shown to the candidate under the question."))

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if data.get("action") == self.REPLY and not (data.get("reply") or "").strip():
            self.add_error("reply", _("Write the reply to send."))
        return data
