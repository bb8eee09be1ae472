from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from crispy_forms.helper import FormHelper
from crispy_forms.layout import Layout, LayoutObject
from django import forms
from django.contrib.auth.forms import UserCreationForm
from django.contrib.auth.models import User
from django.forms.utils import flatatt
from django.template.loader import render_to_string
from django.utils.html import format_html
from django.utils.safestring import SafeString
from django.utils.translation import gettext_lazy as _

from engine import ERAS
from quiz.grading import Expected, assign_recipients
from quiz.models import QuizSession
from scenarios.models import TOPIC_CHOICES


class SignUpForm(UserCreationForm[User]):
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


# -- the answer to a question --------------------------------------------------------------

ANSWER_ERRORS = {
    "number": _("Enter a whole number."),
    "yesno": _("Choose yes or no."),
    "choice": _("Choose one of the options."),
    "eras": _("Tick only eras from the list."),
    "nothing-ticked": _("Nothing is ticked: tick what holds, or tick "
                        "“none of them” if nothing does."),
    "none-and-some": _("“None of them” can't go with other ticks: "
                       "untick one or the other."),
    "assign": _("Enter whole numbers of damage, 0 or more."),
    "assign-empty": _("Enter the damage for at least one recipient (0 if it "
                      "assigns none); leave a field empty for none."),
}
MAX_NUMBER = 10_000  # a number answer beyond this is refused: no question asks for one
MAX_DAMAGE = 1_000  # likewise for the damage assigned to one recipient


class AnswerError(ValueError):
    """A posted answer the form refuses. ``form`` holds its field errors; ``str()`` is the
    first error's code (a key of ``ANSWER_ERRORS``)."""

    def __init__(self, form: AnswerForm) -> None:
        self.form = form
        self.codes = [error.code for errors in form.errors.as_data().values()
                      for error in errors]
        super().__init__(self.codes[0] if self.codes else "invalid")


def _refused(code: str) -> forms.ValidationError:
    return forms.ValidationError(
        ANSWER_ERRORS.get(code, _("This answer is not of the right form.")), code=code)


def _typed(value: Any) -> str:
    """A posted value as typed, without the spaces around it ("" when absent)."""
    return "" if value is None else str(value).strip()


class WholeNumberField(forms.Field):
    """A whole number from ``low`` to ``high``: digits as Python's ``int()`` reads them
    (no decimals, no thousands separator), else the error ``code``. ``blank``: an empty
    field is None rather than an error."""

    widget = forms.NumberInput

    def __init__(self, *, code: str, low: int, high: int, blank: bool = False,
                 **kwargs: Any) -> None:
        super().__init__(required=False, **kwargs)
        self.code, self.low, self.high, self.blank = code, low, high, blank

    def to_python(self, value: Any) -> int | None:
        text = _typed(value)
        if text == "" and self.blank:
            return None
        try:
            number = int(text)
        except ValueError:  # also a number of more than 4,300 digits
            raise _refused(self.code) from None
        if not self.low <= number <= self.high:
            raise _refused(self.code)
        return number


class OneOfField(forms.ChoiceField):
    """One of the choices (a blank or unknown value is the error ``code``)."""

    def __init__(self, *, code: str, **kwargs: Any) -> None:
        super().__init__(required=False, **kwargs)
        self.code = code

    def to_python(self, value: Any) -> str:
        return _typed(value)

    def validate(self, value: Any) -> None:
        if not self.valid_value(value):
            raise _refused(self.code)


class SomeOfField(forms.MultipleChoiceField):
    """Any of the choices, none included (an unknown value is the error ``code``)."""

    def __init__(self, *, code: str, **kwargs: Any) -> None:
        super().__init__(required=False, **kwargs)
        self.code = code

    def to_python(self, value: Any) -> list[str]:
        if value is None:
            return []
        if isinstance(value, str):  # a mapping given one value rather than a list
            value = [value]
        if not isinstance(value, list | tuple):
            raise _refused(self.code)
        return [str(v) for v in value]

    def validate(self, value: Any) -> None:
        if not all(self.valid_value(v) for v in value):
            raise _refused(self.code)


def input_tag(context: dict[str, Any]) -> SafeString:
    """One ``<input>`` of the answer form, as Django's widget templates draw it
    (django/forms/widgets/input.html with attrs.html) but without them: three templates
    per input made the answer form cost more to draw than the whole board."""
    widget = context["widget"]
    value = widget["value"]
    return format_html('<input type="{}" name="{}"{}{}>', widget["type"], widget["name"],
                       "" if value is None else format_html(' value="{}"', value),
                       flatatt(widget["attrs"]))


class OneInput:
    """A widget drawn by :func:`input_tag` (one ``<input>``)."""

    def _render(self, template_name: str, context: dict[str, Any],
                renderer: Any = None) -> SafeString:
        return input_tag(context)


class OptionsOneByOne:
    """A choice widget whose options are drawn one by one (``{{ option.tag }}``), each by
    :func:`input_tag`; the whole widget still by Django's templates."""

    def _render(self, template_name: str, context: dict[str, Any],
                renderer: Any = None) -> SafeString:
        if template_name == getattr(self, "option_template_name", None):
            return input_tag(context)
        return super()._render(  # type: ignore[misc,no-any-return]  # not in the stubs
            template_name, context, renderer)


class HiddenBox(OneInput, forms.HiddenInput):
    pass


class NumberBox(OneInput, forms.NumberInput):
    pass


class Radios(OptionsOneByOne, forms.RadioSelect):
    pass


class Boxes(OptionsOneByOne, forms.CheckboxSelectMultiple):
    pass


class ServedSeedField(forms.Field):
    """The variant served, in a hidden input: always the one served, also when a refused
    answer is shown again (the answer service refuses a post with another seed)."""

    widget = HiddenBox

    def bound_data(self, data: Any, initial: Any) -> Any:
        return initial


class TickedOne(OneInput, forms.CheckboxInput):
    """The "none of them" box: ticked when exactly "1" (its value) is posted."""

    def value_from_datadict(self, data: Any, files: Any, name: str) -> bool:
        return _typed(data.get(name)) == "1"


class AnswerLayout(LayoutObject):  # type: ignore[misc]  # crispy ships no types
    """The answer's fields drawn by one template of ours, after the hidden seed: a
    number's box, the options of a choice or a yes/no question, the boxes of a multi or
    eras question with the explicit "none" box in one fieldset (crispy's inline radios
    hide their errors), or an assign question's recipients in a grid. One template per
    form rather than crispy's stack of templates per field: the page draws it on every
    question. Fields with errors are marked ``is-invalid``."""

    def __init__(self, template: str, *fields: str, **extra: Any) -> None:
        self.template = template
        self.fields = list(fields)
        self.extra = extra

    def render(self, form: forms.Form, context: Any, template_pack: Any = None,
               **kwargs: Any) -> str:
        bound = [form[name] for name in self.fields]
        for field in bound:
            if field.errors:
                widget = field.field.widget
                widget.attrs["class"] = f"{widget.attrs.get('class', '')} is-invalid".strip()
        return render_to_string(self.template, {**context.flatten(), "form": form,
                                                "fields": bound, **self.extra})


class AnswerForm(forms.Form):
    """The answer to one question, as the question page shows it and as the answer view
    reads it. ``kind`` is the question's (``engine.QUESTION_KINDS``); ``choices`` the
    options in the order shown (choice, multi) or the eras in order (eras), as (value,
    label); ``recipients`` where damage can be assigned (assign), as (id, name), with the
    ``attacker``'s name. A valid form's ``answer`` is what grading compares with the
    engine's key: an int, a bool, an option id, a sorted list of option ids or eras, or
    {recipient: damage} without zeros. Nothing of the key is in the form."""

    seed = ServedSeedField(required=False)

    def __init__(self, data: Any = None, *, kind: str,
                 choices: Sequence[tuple[str, str]] = (),
                 recipients: Sequence[tuple[str, str]] = (), attacker: str = "",
                 seed: int | None = None) -> None:
        super().__init__(data, auto_id="answer-%s", initial={"seed": seed})
        self.kind = kind
        self.order = [value for value, _label in choices]
        self.recipients = [rid for rid, _name in recipients]
        # Everything the drawn fields of a blank form depend on, besides the language
        # (the page draws the hidden seed itself, beside them).
        self.signature = (kind, tuple((str(v), str(label)) for v, label in choices),
                          tuple((str(r), str(name)) for r, name in recipients),
                          str(attacker))
        self.helper = FormHelper()
        self.helper.form_tag = False
        self.helper.disable_csrf = True
        yours = _("Your answer")
        if kind == "number":
            self.fields["answer"] = WholeNumberField(
                label=yours, code="number", low=-MAX_NUMBER, high=MAX_NUMBER,
                widget=NumberBox(attrs={
                    "id": "answer-number", "class": "answer-number numberinput form-control",
                    "inputmode": "numeric", "required": True, "autofocus": True}))
            self.helper.layout = Layout(AnswerLayout("quiz/_answer_number.html", "answer"))
        elif kind == "yesno":
            self.fields["answer"] = OneOfField(
                label=yours, code=kind, choices=[("yes", _("Yes")), ("no", _("No"))],
                widget=Radios(attrs={
                    "id": "answer", "class": "form-check-input", "required": True}))
            self.helper.layout = Layout(AnswerLayout(
                "quiz/_answer_options.html", "answer", legend_class="visually-hidden",
                inline=True))
        elif kind == "choice":
            self.fields["answer"] = OneOfField(
                label=yours, code=kind, choices=choices,
                widget=Radios(attrs={"id": "answer", "class": "form-check-input"}))
            self.helper.layout = Layout(AnswerLayout(  # the question above asks it
                "quiz/_answer_options.html", "answer", legend_class="visually-hidden"))
        elif kind in ("multi", "eras"):
            multi = kind == "multi"
            self.fields["answer"] = SomeOfField(
                label=yours if multi else _("Tick every rules era in which this holds."),
                code="choice" if multi else "eras", choices=choices,
                help_text=_("Tick every option that is true.") if multi else "",
                widget=Boxes(attrs={"id": "answer", "class": "form-check-input"}))
            # "None of them" can be right, so it is said explicitly, never assumed from a
            # form sent with nothing ticked.
            self.fields["none"] = forms.BooleanField(
                required=False, label=_("None of them") if multi else _("In none of these eras"),
                widget=TickedOne(attrs={"value": "1", "class": "form-check-input"}))
            self.helper.layout = Layout(AnswerLayout(
                "quiz/_answer_options.html", "answer", "none",
                legend_class="visually-hidden" if multi else "form-label"))
        elif kind == "assign":
            for rid, name in recipients:
                self.fields[f"assign-{rid}"] = WholeNumberField(
                    label=name, code="assign", low=0, high=MAX_DAMAGE, blank=True,
                    widget=NumberBox(attrs={
                        "id": f"assign-{rid}", "class": "form-control", "min": 0,
                        "inputmode": "numeric"}))
            self.helper.form_show_errors = False  # the template draws them by the fields
            self.helper.layout = Layout(AnswerLayout(
                "quiz/_answer_assign.html", *(f"assign-{rid}" for rid in self.recipients),
                legend=_("How does %(attacker)s assign its combat damage?")
                % {"attacker": attacker}))

    @classmethod
    def for_answer_key(cls, expected: Expected, data: Any) -> AnswerForm:
        """The form that reads a posted answer to ``expected``'s question: its option ids,
        eras and damage recipients, without labels (nothing is shown)."""
        question = expected.question
        if question.kind == "eras":
            choices = [(e, e) for e in expected.eras]
        else:
            choices = [(o.id, o.id) for o in question.options]
        recipients = ([(r, r) for r in assign_recipients(expected)]
                      if question.kind == "assign" else [])
        return cls(data, kind=question.kind, choices=choices, recipients=recipients)

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if self.errors:  # a field refused its value: nothing more to check
            return data
        kind = self.kind
        if kind in ("number", "choice"):
            pass  # the field's value is the answer
        elif kind == "yesno":
            data["answer"] = data["answer"] == "yes"
        elif kind in ("multi", "eras"):
            chosen, none = set(data["answer"]), data["none"]
            if not chosen and not none:
                self.add_error("answer", _refused("nothing-ticked"))
            elif chosen and none:
                self.add_error("none", _refused("none-and-some"))
            else:
                data["answer"] = (sorted(chosen) if kind == "multi"
                                  else sorted(chosen, key=self.order.index))
        elif kind == "assign":
            # A blank field means none to that recipient, but a form with every field
            # blank is refused, so that a candidate who meant to assign nothing says so
            # with a 0.
            given = {rid: data[f"assign-{rid}"] for rid in self.recipients}
            if all(n is None for n in given.values()):
                raise _refused("assign-empty")
            data["answer"] = {rid: n for rid, n in given.items() if n}
        else:
            raise _refused(kind)
        return data

    @property
    def answer(self) -> Any:
        """The answer read from a valid form (see the class)."""
        return self.cleaned_data["answer"]
