"""The actions editor: one small form per action, with the fields of its kind.

Each kind's fields map to and from the action's arguments in the document. An action
whose arguments don't fit its kind's fields (rare: an `enter` of a whole inline object,
say) keeps a YAML details field instead, so that nothing is ever lost.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from engine.notation import ACTION_KINDS, DIE_RESULTS
from engine.reader import ReadError, read_value
from engine.state import STEPS
from scenarios.editing import flow_yaml
from scenarios.forms import NumberOrParamField

Spec = list[tuple[str, str, Any]]  # (field name, field type, label)

KIND_FIELDS: dict[str, Spec] = {
    "attack": [("pairs", "pairs", _("Attacker: what it attacks (one per line)"))],
    "block": [("pairs", "pairs", _("Blocker: the attacker it blocks (one per line)"))],
    "order": [("attacker", "id", _("Attacker")),
              ("blockers", "list", _("Its blockers, first to last"))],
    "assign": [("attacker", "id", _("Attacker")),
               ("pairs", "pairs", _("Recipient: damage (one per line)"))],
    "combat_damage": [("first_strike", "bool", _("Only the first-strike damage step"))],
    "cast": [("card", "id", _("Card (in a hand, or a catalog card)")),
             ("by", "id", _("Cast by")), ("targets", "list", _("Targets")),
             ("pairs", "pairs", _("Divided damage, target: amount (one per line)")),
             ("x", "int", _("X")),
             ("redirect", "pairs", _("Redirect, player: planeswalker"))],
    "damage": [("source", "id", _("Source")), ("to", "id", _("Dealt to")),
               ("amount", "int", _("Amount")), ("combat", "bool", _("Combat damage")),
               ("redirect_one", "id", _("Redirect to planeswalker"))],
    "activate": [("permanent", "id", _("Planeswalker")),
                 ("ability", "int", _("Loyalty ability (1, 2, 3…)")),
                 ("targets", "list", _("Targets")), ("x", "int", _("X")),
                 ("redirect", "pairs", _("Redirect, player: planeswalker"))],
    "enter": [("id", "id", _("Object")), ("card", "id", _("Card (for a new object)")),
              ("controller", "id", _("Controller")),
              ("loyalty", "int", _("Loyalty counters (empty: printed loyalty)"))],
    "move": [("pairs", "pairs", _("Object: zone (one per line)"))],
    "control": [("pairs", "pairs", _("Object: new controller (one per line)"))],
    "counters": [("object", "id", _("Object")), ("counter", "id", _("Counter kind")),
                 ("change", "int", _("Change (+ or -)"))],
    "become": [("object", "id", _("Object")), ("types", "list", _("New types")),
               ("power", "int", _("Power")), ("toughness", "int", _("Toughness"))],
    "choose": [("keep", "id", _("The player keeps"))],
    "step": [("step", "step", _("Step"))],
    "next_turn": [],
    "roll_planar_die": [("by", "id", _("Rolled by")), ("result", "result", _("Result")),
                        ("effect", "bool", _("Caused by an effect (free, not counted)"))],
    "planeswalk": [],
}


def _scalar(text: str) -> Any:
    text = text.strip()
    try:
        return int(text)
    except ValueError:
        return text


def _pairs_text(mapping: dict[str, Any] | None) -> str:
    return "\n".join(f"{k}: {v}" for k, v in (mapping or {}).items())


def _parse_pairs(text: str) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for n, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        key, sep, value = line.partition(":")
        if not sep or not key.strip() or not value.strip():
            raise forms.ValidationError(
                _("Line %(n)s: write “name: value”.") % {"n": n})
        out[key.strip()] = _scalar(value)
    return out


def _field(kind: str, label: Any) -> forms.Field:
    if kind == "pairs":
        return forms.CharField(label=label, required=False,
                               widget=forms.Textarea(attrs={"rows": 2}))
    if kind == "int":
        return NumberOrParamField(label=label, required=False)
    if kind == "bool":
        return forms.BooleanField(label=label, required=False)
    if kind == "step":
        return forms.ChoiceField(label=label, choices=[(s, s) for s in STEPS])
    if kind == "result":
        return forms.ChoiceField(label=label, choices=[(r, r) for r in DIE_RESULTS])
    return forms.CharField(label=label, required=False, max_length=200)


def _to_args(kind: str, data: dict[str, Any]) -> Any:
    """Cleaned fields -> the action's arguments."""
    pairs = _parse_pairs(data.get("pairs") or "")
    listed = [w.strip() for w in (data.get("targets") or data.get("blockers") or
                                  data.get("types") or "").split(",") if w.strip()]
    builders: dict[str, Callable[[], Any]] = {
        "attack": lambda: pairs, "block": lambda: pairs, "move": lambda: pairs,
        "control": lambda: pairs,
        "order": lambda: {data["attacker"]: listed},
        "assign": lambda: {data["attacker"]: pairs},
        "combat_damage": lambda: {"step": "first-strike"} if data.get("first_strike") else {},
        "cast": lambda: {k: v for k, v in (
            ("card", data.get("card")), ("by", data.get("by")),
            ("targets", pairs or listed or None), ("x", data.get("x")),
            ("redirect_to", _parse_pairs(data.get("redirect") or "") or None))
            if v not in (None, "")},
        "damage": lambda: {k: v for k, v in (
            ("source", data.get("source")), ("to", data.get("to")),
            ("amount", data.get("amount")), ("combat", True if data.get("combat") else None),
            ("redirect_to", data.get("redirect_one") or None)) if v not in (None, "")},
        "activate": lambda: {k: v for k, v in (
            ("permanent", data.get("permanent")), ("ability", data.get("ability")),
            ("targets", listed or None), ("x", data.get("x")),
            ("redirect_to", _parse_pairs(data.get("redirect") or "") or None))
            if v not in (None, "")},
        "enter": lambda: {k: v for k, v in (
            ("id", data.get("id")), ("card", data.get("card") or None),
            ("controller", data.get("controller") or None),
            ("counters", {"loyalty": data["loyalty"]} if data.get("loyalty") is not None
             else None)) if v not in (None, "")},
        "counters": lambda: {data.get("object"): {data.get("counter"): data.get("change")}},
        "become": lambda: {data.get("object"): {k: v for k, v in (
            ("types", listed or None), ("power", data.get("power")),
            ("toughness", data.get("toughness"))) if v is not None}},
        "choose": lambda: {"keep": data.get("keep")},
        "step": lambda: data.get("step"),
        "next_turn": lambda: {}, "planeswalk": lambda: {},
        "roll_planar_die": lambda: {k: v for k, v in (
            ("by", data.get("by")), ("result", data.get("result")),
            ("effect", True if data.get("effect") else None)) if v not in (None, "")},
    }
    return builders[kind]()


def _from_args(kind: str, args: Any) -> dict[str, Any] | None:
    """The action's arguments -> initial fields; None when they don't fit the fields."""
    try:
        initial = _initial(kind, args)
    except (AttributeError, TypeError, ValueError, KeyError, StopIteration):
        return None
    if initial is None:
        return None
    if _to_args(kind, initial) != (args if args is not None else {}):
        return None
    return initial


def _initial(kind: str, args: Any) -> dict[str, Any] | None:
    a = args if isinstance(args, dict) else {}
    if kind in ("attack", "block", "move", "control"):
        return {"pairs": _pairs_text(a)}
    if kind == "order":
        attacker, blockers = next(iter(a.items()))
        return {"attacker": attacker, "blockers": ", ".join(blockers)}
    if kind == "assign":
        attacker, amounts = next(iter(a.items()))
        return {"attacker": attacker, "pairs": _pairs_text(amounts)}
    if kind == "combat_damage":
        return {"first_strike": a.get("step") == "first-strike"}
    if kind == "cast":
        targets = a.get("targets")
        return {"card": a.get("card", ""), "by": a.get("by", ""),
                "targets": ", ".join(targets) if isinstance(targets, list) else "",
                "pairs": _pairs_text(targets) if isinstance(targets, dict) else "",
                "x": a.get("x"), "redirect": _pairs_text(a.get("redirect_to"))}
    if kind == "damage":
        return {"source": a.get("source", ""), "to": a.get("to", ""),
                "amount": a.get("amount"), "combat": bool(a.get("combat")),
                "redirect_one": a.get("redirect_to") or ""}
    if kind == "activate":
        return {"permanent": a.get("permanent", ""), "ability": a.get("ability"),
                "targets": ", ".join(a.get("targets") or []), "x": a.get("x"),
                "redirect": _pairs_text(a.get("redirect_to"))}
    if kind == "enter":
        counters = a.get("counters") or {}
        if set(a) - {"id", "card", "controller", "counters"} or set(counters) - {"loyalty"}:
            return None
        return {"id": a.get("id", ""), "card": a.get("card", ""),
                "controller": a.get("controller", ""), "loyalty": counters.get("loyalty")}
    if kind == "counters":
        obj, kinds = next(iter(a.items()))
        (counter, change), = kinds.items()
        return {"object": obj, "counter": counter, "change": change}
    if kind == "become":
        obj, change = next(iter(a.items()))
        return {"object": obj, "types": ", ".join(change.get("types") or []),
                "power": change.get("power"), "toughness": change.get("toughness")}
    if kind == "choose":
        return {"keep": a.get("keep", "")}
    if kind == "step":
        return {"step": args}
    if kind == "roll_planar_die":
        return {"by": a.get("by", ""), "result": a.get("result", "blank"),
                "effect": bool(a.get("effect"))}
    return {}


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
            for name, field_kind, label in KIND_FIELDS[self.action_kind]:
                self.fields[name] = _field(field_kind, label)

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
        if advanced:
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
