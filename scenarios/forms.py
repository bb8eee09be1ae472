"""The structured editor: crispy forms for a scenario's metadata, board, actions,
questions and parameters. They read a document and write one back; validation is the
same service as for YAML."""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any, cast

from crispy_forms.helper import FormHelper
from django import forms
from django.utils.translation import gettext_lazy as _

from engine import ERAS, KEYWORDS, MAX_TEXT, QUESTION_KINDS, STEPS, ReadError, catalog, read_value
from scenarios.editing import flow_yaml
from scenarios.models import TOPIC_CHOICES, Scenario

ZONES = [("battlefield", _("battlefield")), ("hand", _("hand")),
         ("graveyard", _("graveyard")), ("exile", _("exile")), ("library", _("library")),
         ("command", _("command zone"))]


class YamlValueField(forms.CharField):
    """A field holding one YAML value (a mapping, a list, a number...)."""

    def __init__(self, *args: Any, allow_empty: bool = True, **kwargs: Any) -> None:
        self.allow_empty = allow_empty
        kwargs.setdefault("required", False)
        super().__init__(*args, **kwargs)

    def clean(self, value: Any) -> Any:
        text = super().clean(value)
        if not text:
            if not self.allow_empty:
                raise forms.ValidationError(_("This field is required."))
            return None
        try:
            return read_value(text)
        except ReadError as err:
            if not err.syntax:  # anchors, a key given twice, a cap: the reader says which
                raise forms.ValidationError(err.located()) from None
            raise forms.ValidationError(_("Not a valid value: write it like %(shape)s.")
                                        % {"shape": self.help_text or "{key: value}"}) from None


class NumberOrParamField(forms.CharField):
    """A whole number, or a parameter reference such as ``$l``."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("max_length", 31)
        super().__init__(*args, **kwargs)

    def prepare_value(self, value: Any) -> Any:
        return "" if value is None else value

    def has_changed(self, initial: Any, data: Any) -> bool:
        """Compare as the page shows them: an initial ``20`` is posted back as ``"20"``,
        and must not make an untouched extra row (a new player) look filled in."""
        return str(self.prepare_value(initial)).strip() != str(data or "").strip()

    def clean(self, value: Any) -> Any:
        text = str(super().clean(value) or "").strip()
        if not text:
            return None
        if re.fullmatch(r"\$[a-z_][a-z0-9_]*", text):
            return text
        try:
            return int(text)
        except ValueError:
            raise forms.ValidationError(
                _("Enter a whole number or a parameter such as $p.")) from None


class TextAreaField(forms.CharField):
    """Free text typed in a textarea: a browser posts its line breaks as CRLF; the
    document keeps them as written (LF), so an untouched text comes back unchanged."""

    def to_python(self, value: Any) -> Any:
        text = super().to_python(value)
        return text.replace("\r\n", "\n") if isinstance(text, str) else text


class _Form(forms.Form):
    """A crispy form whose untouched rows post back exactly their initial values.

    A formset skips an extra row only when ``has_changed()`` is false. A select with no
    initial value shows (and a browser posts) its first option: that option is the
    field's initial value, so a blank extra row is not taken for a filled one."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for field in self.fields.values():
            if (isinstance(field, forms.ChoiceField)
                    and not isinstance(field, forms.MultipleChoiceField)
                    and field.initial is None and field.choices):
                # Normalised by ChoiceField's setter: pairs, never the callable the stubs
                # allow for the getter.
                choices = cast("Iterable[tuple[Any, Any]]", field.choices)
                field.initial = next(iter(choices))[0]
        self.helper = FormHelper()
        self.helper.form_tag = False
        self.helper.disable_csrf = True


class MetadataForm(_Form):
    """The scenario's own fields and its English texts. ``id`` only for a new scenario:
    an existing one keeps its identity."""

    id = forms.SlugField(label=_("Id"), max_length=64,
                         help_text=_("Lower case words joined by hyphens; it can't change "
                                     "once saved."))
    title_en = forms.CharField(label=_("Title (English)"), max_length=200)
    story_en = TextAreaField(label=_("Story (English)"), required=False, max_length=MAX_TEXT,
                             widget=forms.Textarea(attrs={"rows": 3}))
    explain_en = TextAreaField(label=_("Explanation (English)"), required=False,
                               max_length=MAX_TEXT, widget=forms.Textarea(attrs={"rows": 3}))
    topic = forms.ChoiceField(label=_("Topic"), choices=TOPIC_CHOICES)
    difficulty = forms.IntegerField(label=_("Difficulty"), min_value=1, max_value=5)
    eras = forms.MultipleChoiceField(
        label=_("Eras"), required=False, widget=forms.CheckboxSelectMultiple,
        choices=[(e.key, e.name) for e in ERAS],
        help_text=_("Leave all unticked: every era in which its cards and mechanics exist."))
    active = forms.CharField(label=_("Active player"), max_length=40)
    step = forms.ChoiceField(label=_("Step"), choices=[(s, s) for s in STEPS])

    def __init__(self, *args: Any, new: bool = False, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if not new:
            del self.fields["id"]

    def clean_id(self) -> str:
        slug = str(self.cleaned_data["id"])
        if Scenario.objects.filter(slug=slug).exists():
            raise forms.ValidationError(
                _("A scenario with this id exists already: choose another id."))
        return slug


class PlayerForm(_Form):
    id = forms.SlugField(label=_("Player"), max_length=40)
    life = NumberOrParamField(label=_("Life"), initial=20)
    hexproof = forms.BooleanField(label=_("Hexproof"), required=False)


class TeamForm(_Form):
    id = forms.SlugField(label=_("Team"), max_length=40)
    members = forms.CharField(label=_("Members"), max_length=100,
                              help_text=_("Player ids, comma-separated: alice, carol."))
    life = NumberOrParamField(label=_("Shared life"), initial=30)


class PlanechaseForm(_Form):
    """``setup.planechase``; the plane and phenomenon cards themselves are board objects
    in the command zone."""

    decks = YamlValueField(label=_("Planar decks"), max_length=1000,
                           help_text="{alice: [serra], bob: []}")
    face_up = YamlValueField(label=_("Face-up plane"), max_length=200, help_text="meadow")
    rolls = YamlValueField(label=_("Planar die rolls already made this turn"),
                           max_length=200, help_text="{alice: 1}")
    communal = forms.BooleanField(label=_("One communal planar deck"), required=False)


class ObjectForm(_Form):
    id = forms.CharField(label=_("Id"), max_length=40)
    zone = forms.ChoiceField(label=_("Zone"), choices=ZONES, initial="battlefield")
    card = forms.CharField(label=_("Card"), required=False, max_length=80,
                           widget=forms.TextInput(attrs={"list": "card-catalog"}),
                           help_text=_("A catalog card, or leave empty for an inline object."))
    controller = forms.CharField(label=_("Controller"), max_length=40)
    name = forms.CharField(label=_("Name (inline)"), required=False, max_length=80)
    types = forms.CharField(label=_("Types"), required=False, max_length=80,
                            help_text=_("Comma-separated, for inline objects."))
    subtypes = forms.CharField(label=_("Subtypes"), required=False, max_length=80)
    power = NumberOrParamField(label=_("Power"), required=False)
    toughness = NumberOrParamField(label=_("Toughness"), required=False)
    loyalty = NumberOrParamField(label=_("Loyalty counters"), required=False)
    damage = NumberOrParamField(label=_("Damage marked"), required=False)
    keywords = forms.MultipleChoiceField(label=_("Keywords"), required=False,
                                         choices=[(k, k) for k in sorted(KEYWORDS)],
                                         widget=forms.SelectMultiple(attrs={"size": 4}))
    tapped = forms.BooleanField(label=_("Tapped"), required=False)
    sick = forms.BooleanField(label=_("Summoning sick"), required=False)


class QuestionForm(_Form):
    id = forms.SlugField(label=_("Id"), max_length=64)
    kind = forms.ChoiceField(label=_("Kind"), choices=[(k, k) for k in QUESTION_KINDS])
    ask_en = TextAreaField(label=_("Question (English)"), max_length=2000,
                             widget=forms.Textarea(attrs={"rows": 2}))
    answer = YamlValueField(label=_("Answer query"), max_length=2000,
                            help_text="{loyalty: garruk}")
    options = YamlValueField(label=_("Options"), max_length=4000,
                             help_text="[{id: a, text: {en: ...}, claim: {query: ..., is: ...}}]")
    claim = YamlValueField(label=_("Claim (eras questions)"), max_length=2000,
                           help_text="{query: {zone: garruk}, is: graveyard}")
    attacker = forms.CharField(label=_("Attacker (assign questions)"), required=False,
                               max_length=40)
    goal = forms.CharField(label=_("Most damage to"), required=False, max_length=40)
    expect = YamlValueField(label=_("Expected answer"), max_length=2000, help_text="20")
    DELETE = forms.BooleanField(label=_("Remove"), required=False)


class ParamForm(_Form):
    name = forms.RegexField(label=_("Parameter"), regex=r"^[a-z_][a-z0-9_]*$", max_length=30)
    values = YamlValueField(label=_("Values"), max_length=500, allow_empty=False,
                            help_text="{range: [2, 5]}  or  {choice: [craw-wurm, hill-giant]}")
    default = YamlValueField(label=_("Default"), max_length=100)
    DELETE = forms.BooleanField(label=_("Remove"), required=False)


PlayerFormSet = forms.formset_factory(PlayerForm, extra=1, can_delete=True, max_num=4)
TeamFormSet = forms.formset_factory(TeamForm, extra=2, can_delete=True, max_num=2)
ObjectFormSet = forms.formset_factory(ObjectForm, extra=2, can_delete=True, max_num=40)
QuestionFormSet = forms.formset_factory(QuestionForm, extra=1, max_num=20)
ParamFormSet = forms.formset_factory(ParamForm, extra=1, max_num=8)


def card_choices() -> list[tuple[str, str]]:
    return [(slug, card.name["en"]) for slug, card in sorted(catalog().items())]


# -- document <-> forms ---------------------------------------------------------------------

ZONE_KEYS = [z for z, _ in ZONES]


def initial_from(document: dict[str, Any]) -> dict[str, Any]:
    setup = document.get("setup") or {}
    turn = setup.get("turn") or {}
    meta = {"id": document.get("id"), "title_en": _english(document.get("title")),
            "story_en": _english(document.get("story")),
            "explain_en": _english(document.get("explain")),
            "topic": document.get("topic"), "difficulty": document.get("difficulty"),
            "eras": document.get("eras") or [], "active": turn.get("active", "alice"),
            "step": turn.get("step", "main1")}
    players = [{"id": p.get("id"), "life": p.get("life", 20),
                "hexproof": bool(p.get("hexproof"))} for p in setup.get("players") or []]
    teams = [{"id": t.get("id"), "members": ", ".join(map(str, t.get("members") or [])),
              "life": t.get("life", 30)}
             for t in setup.get("teams") or [] if isinstance(t, dict)]
    planechase_raw = setup.get("planechase")
    planechase = planechase_raw if isinstance(planechase_raw, dict) else {}
    planechase_initial: dict[str, str | bool] = {
        key: flow_yaml(planechase.get(key)) for key in ("decks", "face_up", "rolls")}
    planechase_initial["communal"] = bool(planechase.get("communal"))
    objects = []
    for zone in ZONE_KEYS:
        for o in setup.get(zone) or []:
            counters = o.get("counters") or {}
            objects.append({
                "id": o.get("id"), "zone": zone, "card": o.get("card", ""),
                "controller": o.get("controller") or o.get("owner") or "",
                "name": (o.get("name") or {}).get("en", "") if isinstance(o.get("name"), dict)
                else "", "types": ", ".join(o.get("types") or []),
                "subtypes": ", ".join(o.get("subtypes") or []),
                "power": o.get("power"), "toughness": o.get("toughness"),
                "loyalty": counters.get("loyalty"), "damage": o.get("damage"),
                "keywords": o.get("keywords") or [], "tapped": bool(o.get("tapped")),
                "sick": bool(o.get("sick"))})
    actions = []
    for a in document.get("actions") or []:
        if isinstance(a, dict) and len(a) == 1:
            kind, args = next(iter(a.items()))
            actions.append({"kind": kind, "args": flow_yaml(args)})
    questions = []
    for q in document.get("questions") or []:
        questions.append({
            "id": q.get("id"), "kind": q.get("kind"),
            "ask_en": (q.get("ask") or {}).get("en", ""), "answer": flow_yaml(q.get("answer")),
            "options": flow_yaml(q.get("options")), "claim": flow_yaml(q.get("claim")),
            "attacker": q.get("attacker", ""),
            "goal": (q.get("goal") or {}).get("most_to", ""), "expect": flow_yaml(q.get("expect"))})
    params = [{"name": n, "values": flow_yaml({k: v for k, v in spec.items() if k != "default"}),
               "default": flow_yaml(spec.get("default"))}
              for n, spec in (document.get("params") or {}).items()]
    return {"meta": meta, "players": players, "teams": teams,
            "planechase": planechase_initial, "objects": objects, "actions": actions,
            "questions": questions, "params": params}


def _english(texts: Any) -> str:
    return str(texts.get("en") or "") if isinstance(texts, dict) else ""


def _set_english_texts(doc: dict[str, Any], meta: dict[str, Any]) -> None:
    """The title, story and explanation with their English wording from the form and
    their translations kept; a text whose English is emptied goes (no English, no text)."""
    for key in ("title", "story", "explain"):
        if f"{key}_en" not in meta:
            continue
        english = meta[f"{key}_en"]
        if english:
            texts = doc.get(key)
            doc[key] = {**(texts if isinstance(texts, dict) else {}), "en": english}
        else:
            doc.pop(key, None)


def _in_order_of(chosen: list[str], before: Any) -> list[str]:
    """The chosen keywords, those the document had in its own order first: the select
    lists them alphabetically, and an unchanged object must come back unchanged."""
    kept = [k for k in before if k in chosen] if isinstance(before, list) else []
    return kept + [k for k in chosen if k not in kept]


def _words(text: str) -> list[str]:
    return [w.strip() for w in text.split(",") if w.strip()]


def compose(base: dict[str, Any], meta: dict[str, Any], players: list[dict[str, Any]],
            objects: list[dict[str, Any]], actions: list[dict[str, Any]],
            questions: list[dict[str, Any]], params: list[dict[str, Any]],
            teams: list[dict[str, Any]] | None = None,
            planechase: dict[str, Any] | None = None) -> dict[str, Any]:
    """A document from the structured forms' cleaned data; texts other than each
    question's English wording (title, story, translations) are kept from ``base``."""
    doc = {k: v for k, v in base.items() if k not in ("setup", "actions", "questions",
                                                      "params", "eras")}
    doc["format"] = 1
    if meta.get("id"):
        doc["id"] = meta["id"]
    _set_english_texts(doc, meta)
    doc["topic"] = meta["topic"]
    doc["difficulty"] = meta["difficulty"]
    if meta.get("eras"):
        doc["eras"] = list(meta["eras"])
    if params:
        doc["params"] = {}
        for p in params:
            spec = dict(p["values"] or {})
            if p.get("default") is not None:
                spec["default"] = p["default"]
            doc["params"][p["name"]] = spec
    old_setup = base.get("setup") or {}
    turn = {**(old_setup.get("turn") or {}), "active": meta["active"], "step": meta["step"]}
    setup: dict[str, Any] = {"turn": turn, "players": []}
    if teams:
        setup["teams"] = [{"id": t["id"], "members": _words(t["members"]),
                           **({"life": t["life"]} if t.get("life") is not None else {})}
                          for t in teams]
    planechase = {k: v for k, v in (planechase or {}).items() if v not in (None, False)}
    if planechase:
        setup["planechase"] = planechase
    for p in players:
        row: dict[str, Any] = {"id": p["id"], "life": p["life"]}
        if p.get("hexproof"):
            row["hexproof"] = True
        setup["players"].append(row)
    old_objects = {o.get("id"): o for zone in ZONE_KEYS for o in old_setup.get(zone) or []
                   if isinstance(o, dict)}
    managed = {"card", "controller", "owner", "name", "types", "subtypes", "power",
               "toughness", "damage", "keywords", "tapped", "sick"}
    for o in objects:
        old = old_objects.get(o["id"], {})
        row = {"id": o["id"]}
        row.update({k: v for k, v in old.items() if k not in managed and k != "counters"})
        if o.get("card"):
            row["card"] = o["card"]
        if o["zone"] == "battlefield":
            row["controller"] = o["controller"]
            if old.get("owner") and old.get("owner") != o["controller"]:
                row["owner"] = old["owner"]
        else:
            row["owner"] = o["controller"]
        if not o.get("card"):
            old_name = old["name"] if isinstance(old.get("name"), dict) else {}
            if o.get("name"):
                row["name"] = {**old_name, "en": o["name"]}
            row["types"] = _words(o.get("types") or "") or ["creature"]
        if o.get("subtypes"):
            row["subtypes"] = _words(o["subtypes"])
        for key in ("power", "toughness", "damage"):
            if o.get(key) is not None:
                row[key] = o[key]
        counters = {k: v for k, v in (old.get("counters") or {}).items() if k != "loyalty"}
        if o.get("loyalty") is not None:
            counters["loyalty"] = o["loyalty"]
        if counters:
            row["counters"] = counters
        if o.get("keywords"):
            row["keywords"] = _in_order_of(o["keywords"], old.get("keywords"))
        for flag in ("tapped", "sick"):
            if o.get(flag):
                row[flag] = True
        setup.setdefault(o["zone"], []).append(row)
    doc["setup"] = setup
    doc["actions"] = list(actions)
    old_questions = {q.get("id"): q for q in base.get("questions") or [] if isinstance(q, dict)}
    doc["questions"] = []
    for q in questions:
        old = old_questions.get(q["id"], {})
        row = {"id": q["id"], "kind": q["kind"],
               "ask": {**(old.get("ask") or {}), "en": q["ask_en"]}}
        for key in ("answer", "options", "claim"):
            if q.get(key) is not None:
                row[key] = q[key]
        if q.get("attacker"):
            row["attacker"] = q["attacker"]
        if q.get("goal"):
            row["goal"] = {"most_to": q["goal"]}
        if q.get("expect") is not None:
            row["expect"] = q["expect"]
        doc["questions"].append(row)
    return doc
