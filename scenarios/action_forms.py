"""The actions editor: one small form per action, with the fields of its kind.

Each kind's fields, and how they map to and from the action's arguments in the document,
are the kind's own (its editor spec in ``engine.kinds.actions``); this module turns them
into Django fields. An action whose arguments don't fit its kind's fields (rare: an
`enter` of a whole inline object, say) keeps a YAML details field instead, so that
nothing is ever lost.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from engine import ACTION_KINDS, ACTIONS, EditorField, PairsError, ReadError, read_value
from scenarios.editing import flow_yaml
from scenarios.forms import NumberOrParamField


def _field(field: EditorField) -> forms.Field:
    """The Django field of one of an action kind's editor fields."""
    label = gettext(field.label)
    if field.type == "pairs":
        return forms.CharField(label=label, required=False,
                               widget=forms.Textarea(attrs={"rows": 2}))
    if field.type == "int":
        return NumberOrParamField(label=label, required=False)
    if field.type == "bool":
        return forms.BooleanField(label=label, required=False)
    if field.type == "choice":
        return forms.ChoiceField(label=label, choices=[(c, c) for c in field.choices])
    return forms.CharField(label=label, required=False, max_length=200)


def _to_args(kind: str, data: dict[str, Any]) -> Any:
    """Cleaned fields -> the action's arguments."""
    try:
        return ACTIONS[kind].editor.to_args(data)
    except PairsError as err:
        raise forms.ValidationError(
            _("Line %(n)s: write “name: value”.") % {"n": err.line}) from None


def _from_args(kind: str, args: Any) -> dict[str, Any] | None:
    """The action's arguments -> initial fields; None when they don't fit the fields."""
    try:
        return ACTIONS[kind].editor.initial(args)
    except PairsError as err:
        raise forms.ValidationError(
            _("Line %(n)s: write “name: value”.") % {"n": err.line}) from None


class ActionRow(forms.Form):
    """One action: its kind, its position, its fields (or YAML details), remove."""

    def __init__(self, *args: Any, kind: str, advanced: bool = False, existing: bool = True,
                 **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.action_kind = kind if kind in ACTION_KINDS else "attack"
        self.advanced = advanced
        self.existing = existing
        """An action of the document (an empty extra row for a new one is not)."""
        self.fields["kind"] = forms.ChoiceField(label=_("Action"),
                                                choices=[(k, k) for k in ACTION_KINDS])
        self.fields["ORDER"] = forms.IntegerField(label=_("Order"), required=False)
        self.fields["DELETE"] = forms.BooleanField(label=_("Remove"), required=False)
        if advanced:
            self.fields["details"] = forms.CharField(
                label=_("Details (YAML)"), required=False,
                widget=forms.Textarea(attrs={"rows": 2}))
        else:
            for field in ACTIONS[self.action_kind].editor.fields:
                self.fields[field.name] = _field(field)

    @property
    def kind_fields(self) -> list[forms.BoundField]:
        return [self[name] for name in self.fields if name not in ("kind", "ORDER", "DELETE")]

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if data.get("DELETE") or self.errors:
            return data
        if data.get("kind") != self.action_kind:
            return data  # the kind changed: its fields are shown, nothing to build yet
        try:
            if self.advanced:
                text = data.get("details") or ""
                data["args"] = read_value(text) if text.strip() else {}
            else:
                data["args"] = _to_args(self.action_kind, data)
        except ReadError as err:  # refused by the reader (anchors, a key twice): say why
            self.add_error(None, _("These details don't make an action of this kind.")
                           if err.syntax else err.located())
        except (forms.ValidationError, KeyError) as err:
            self.add_error(None, err if isinstance(err, forms.ValidationError) else
                           _("These details don't make an action of this kind."))
        return data


def rows_from_document(actions: list[Any], data: Any = None) -> list[ActionRow]:
    rows: list[ActionRow] = []
    for i, action in enumerate(actions or []):
        if not isinstance(action, dict) or len(action) != 1:
            continue
        kind, args = next(iter(action.items()))
        initial = _from_args(kind, args)
        advanced = initial is None
        if initial is None:
            initial = {"details": flow_yaml(args)}
        initial.update({"kind": kind, "ORDER": i + 1})
        rows.append(ActionRow(data, prefix=f"actions-{i}", kind=kind, advanced=advanced,
                              initial=initial))
    return rows


EXTRA_ROWS = 2
BLANK_KIND = "attack"
"""The kind an extra row is shown with: an extra row of another kind was chosen."""


def blank_rows(start: int) -> list[ActionRow]:
    return [ActionRow(prefix=f"actions-{i}", kind=BLANK_KIND, initial={"kind": BLANK_KIND},
                      existing=False) for i in range(start, start + EXTRA_ROWS)]


def rows_from_post(data: Any) -> list[ActionRow]:
    """Bind the posted rows, each with the fields of the kind it was shown with (a row
    whose kind changed without JavaScript is shown again with the new kind's fields)."""
    try:
        count = min(60, max(0, int(data.get("actions-TOTAL_FORMS", 0))))
    except ValueError:
        count = 0
    rows = []
    for i in range(count):
        prefix = f"actions-{i}"
        posted = data.get(f"{prefix}-kind") or "attack"
        shown = data.get(f"{prefix}-shown-kind") or posted
        if posted != shown and posted in ACTION_KINDS:
            # The kind changed without JavaScript: show the new kind's (empty) fields.
            rows.append(ActionRow(prefix=prefix, kind=posted,
                                  initial={"kind": posted,
                                           "ORDER": data.get(f"{prefix}-ORDER")}))
            continue
        advanced = data.get(f"{prefix}-advanced") == "1"
        existing = data.get(f"{prefix}-existing") == "1"
        rows.append(ActionRow(data, prefix=prefix, kind=shown, advanced=advanced,
                              existing=existing))
    return rows


def is_blank(row: ActionRow) -> bool:
    """An untouched extra row (its kind as shown, no field filled in) is not an action;
    one whose kind was changed is, even a kind without fields (``next_turn``)."""
    if not row.is_bound or row.existing or row.action_kind != BLANK_KIND:
        return False
    data = row.data
    return not any(str(data.get(f"{row.prefix}-{name}", "")).strip()
                   for name in row.fields if name not in ("kind", "ORDER", "DELETE"))


def composed_actions(rows: list[ActionRow]) -> list[dict[str, Any]] | None:
    """The actions in their order, or None while a row has errors or a changed kind."""
    out = []
    for i, row in enumerate(rows):
        if is_blank(row):
            continue
        if not row.is_bound or not row.is_valid():
            return None
        data = row.cleaned_data
        if data.get("DELETE"):
            continue
        if data.get("kind") != row.action_kind:
            return None
        order = data.get("ORDER")
        out.append((order if order is not None else i + 1, i, {row.action_kind: data["args"]}))
    return [a for _, _, a in sorted(out, key=lambda t: (t[0], t[1]))]
