from typing import Any

from crispy_forms.helper import FormHelper
from django import forms
from django.contrib.auth.forms import UserCreationForm
from django.utils.translation import gettext_lazy as _

from engine.eras import ERAS
from quiz.models import QuizSession
from scenarios.models import TOPIC_CHOICES


class SignUpForm(UserCreationForm):
    """A new judge candidate: username and password (twice)."""

    class Meta(UserCreationForm.Meta):
        fields = ("username",)


class PracticeForm(forms.Form):
    """What to practise: topics, rules era, difficulty and length."""

    topics = forms.MultipleChoiceField(
        label=_("Topics"), choices=TOPIC_CHOICES, required=False,
        widget=forms.CheckboxSelectMultiple,
        help_text=_("Leave all unticked to practise every topic."))
    era_mode = forms.ChoiceField(label=_("Rules"), choices=QuizSession.EraMode.choices,
                                 initial=QuizSession.EraMode.CURRENT,
                                 widget=forms.RadioSelect)
    era = forms.ChoiceField(label=_("Era"), required=False,
                            choices=[("", "—")] + [(e.key, f"{e.name} ({e.effective:%Y-%m-%d})")
                                                  for e in ERAS])
    difficulty_min = forms.IntegerField(label=_("Easiest"), min_value=1, max_value=5,
                                        initial=1)
    difficulty_max = forms.IntegerField(label=_("Hardest"), min_value=1, max_value=5,
                                        initial=5)
    length = forms.IntegerField(label=_("Questions"), min_value=1, max_value=40, initial=10)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.helper = FormHelper()
        self.helper.form_tag = False
        self.helper.disable_csrf = True

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if data.get("era_mode") == QuizSession.EraMode.ONE and not data.get("era"):
            self.add_error("era", _("Choose the era to practise in."))
        low, high = data.get("difficulty_min"), data.get("difficulty_max")
        if low is not None and high is not None and low > high:
            self.add_error("difficulty_max", _("The hardest level can't be below the easiest."))
        return data
