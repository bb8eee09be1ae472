"""Reads for the rule-history pages: the timeline, a scenario under every era, what-if
runs, and rule pages. Every answer comes from the engine (stored answer keys of
published versions, or a fresh run); nothing here decides a rule."""

from __future__ import annotations

import copy
import re
import unicodedata
from dataclasses import dataclass, field
from typing import Any

from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from engine import (
    ERA_KEYS,
    ERAS,
    DocumentError,
    EngineError,
    changes,
    find_era,
    first_divergence,
    moved_rules,
    parse,
    rule_catalogue,
    rule_exists,
    rule_number,
    rule_summary,
    rule_unsure,
    rule_versions,
    scenario_eras,
)
from quiz.presenters import answer_display
from quiz.services import scenario_of
from scenarios.caches import memo
from scenarios.forms import ZONES
from scenarios.models import TOPIC_LABELS, Scenario, ScenarioVersion, title_in
from scenarios.presentation.board import player_label
from scenarios.presentation.labels import era_label, object_names, render_text
from scenarios.presentation.present import present
from scenarios.services import engine_fingerprint, rules_cited

ZONE_NAMES = {**dict(ZONES), "outside": gettext_lazy("outside the game")}
"""zone key -> its name in the reader's language (``outside``: left with its owner, 800.4a)"""


@dataclass(frozen=True, slots=True)
class Listed:
    """A published scenario in a list: what a link to it needs (``url``: its era
    comparison, in the list's language)."""

    pk: int
    slug: str
    url: str


def _listed(pk: int, slug: str) -> Listed:
    return Listed(pk, slug, reverse("quiz:history_scenario", args=[slug]))


# The pages listing every published scenario (the timeline, the rule index) are kept per
# process by language and ``Scenario.objects.published_stamp()``: one cheap query per
# request, and a publish or retirement by any worker or server changes the stamp, so no
# page is ever stale. Bound: 8 entries each (three languages, and stamps just replaced);
# an entry is a few hundred bytes per era and per rule plus about 150 bytes per listed
# scenario (~1 MB for the timeline of 1,000 changed scenarios), so under 10 MB in all.

def timeline(language: str) -> list[dict[str, Any]]:
    """The eras, oldest first, each with the published scenarios whose answers differ
    from the era before (stored with each version: no document is read)."""
    return _timeline(language, Scenario.objects.published_stamp())


@memo(maxsize=16)  # one entry per language of the site (six, room for more)
def _timeline(language: str, stamp: tuple[Any, ...]) -> list[dict[str, Any]]:
    """:func:`timeline` for the library ``stamp`` says (callers don't mutate it)."""
    rows = Scenario.objects.published().with_facts("pk", "slug",
                                                   facts=("titles", "changed_in"))
    with translation.override(language):  # the links' language prefix
        listed = {r["pk"]: (_listed(r["pk"], r["slug"]),
                            title_in(r["titles"], language, r["slug"]))
                  for r in rows if r["changed_in"]}
    out = []
    for era in ERAS:
        out.append({
            "key": era.key, "name": era.name, "set": era.set_code, "date": era.effective,
            "changes": changes(era.key, language),
            "moved": moved_rules(era.key),
            "scenarios": [listed[r["pk"]] for r in rows if era.key in r["changed_in"]],
        })
    return out


@dataclass(slots=True)
class Comparison:
    rows: list[dict[str, Any]] = field(default_factory=list)
    eras: list[tuple[str, str]] = field(default_factory=list)


def comparison(version: ScenarioVersion, language: str) -> Comparison:
    scenario = scenario_of(version)
    variant = scenario.variant(0)
    eras = version.eras_in_order
    result = Comparison(eras=[(e, era_label(e)) for e in eras])
    names = object_names(variant, language)
    for q in variant.questions:
        cells = []
        previous = None
        texts = {o.id: render_text(o.text, language, variant) for o in q.options}
        for i, e in enumerate(eras):
            value = version.answer_keys[e].get(q.id)
            cells.append({"era": e, "text": answer_display(q, value, texts, names),
                          "changed": i > 0 and value != previous})
            previous = value
        result.rows.append({"id": q.id, "ask": render_text(q.ask, language, variant),
                            "cells": cells, "kind": q.kind})
    return result


def trace_pair(version: ScenarioVersion, era_a: str, era_b: str, language: str,
               ) -> dict[str, Any]:
    scenario = scenario_of(version)
    a, b = present(scenario, era_a, language), present(scenario, era_b, language)
    diverge = first_divergence(a.outcome.trace.steps, b.outcome.trace.steps)
    sides = [{"era": shown.era, "label": shown.era_label, "steps": shown.steps}
             for shown in (a, b)]
    return {"sides": sides, "diverge": diverge}


# -- what if ---------------------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class Knob:
    name: str
    label: str
    kind: str  # "int" or "choice" or "bool"
    value: Any
    choices: tuple[tuple[str, str], ...] = ()


def knobs(version: ScenarioVersion, language: str) -> list[Knob]:
    """What a learner may change: numbers on the board, each block, each redirection."""
    doc = version.document
    variant = scenario_of(version).variant(0)
    state = variant.state
    out: list[Knob] = []
    for i, obj in enumerate(doc["setup"].get("battlefield", [])):
        o = state.objects.get(obj.get("id"))
        if o is None:
            continue
        name = o.display_name(language)
        if o.is_creature:
            out.append(Knob(f"bf-{i}-power", _("%(name)s: power") % {"name": name}, "int",
                            o.power))
            out.append(Knob(f"bf-{i}-toughness", _("%(name)s: toughness") % {"name": name},
                            "int", o.toughness))
        if o.is_planeswalker:
            out.append(Knob(f"bf-{i}-loyalty", _("%(name)s: loyalty") % {"name": name}, "int",
                            o.counter("loyalty")))
    for i, action in enumerate(doc.get("actions", [])):
        if "block" in action and isinstance(action["block"], dict):
            attackers = sorted({a for a in action["block"].values()})
            for blocker in action["block"]:
                bname = state.objects[blocker].display_name(language) \
                    if blocker in state.objects else blocker
                choices = (("", "—"),) + tuple(
                    (a, state.objects[a].display_name(language) if a in state.objects else a)
                    for a in attackers)
                out.append(Knob(f"block-{i}-{blocker}", bname, "choice",
                                action["block"][blocker], choices))
        for kind in ("cast", "activate"):
            if kind in action and isinstance(action[kind], dict) and \
                    action[kind].get("redirect_to"):
                out.append(Knob(f"redirect-{i}", _("Redirect the damage to the planeswalker"),
                                "bool", True))
    return out


def apply_knobs(version: ScenarioVersion, data: Any) -> dict[str, Any]:
    """The document with the learner's changes. Parameters stay: what is not changed keeps
    its default (the knobs show variant 0), and a changed value replaces its $reference."""
    doc: dict[str, Any] = copy.deepcopy(version.document)
    for i, obj in enumerate(doc["setup"].get("battlefield", [])):
        for field_name in ("power", "toughness", "loyalty"):
            raw = data.get(f"bf-{i}-{field_name}")
            if raw in (None, ""):
                continue
            try:
                value = max(-20, min(99, int(raw)))
            except ValueError:
                continue
            if field_name == "loyalty":
                obj["counters"] = {**obj.get("counters", {}), "loyalty": value}
            else:
                obj[field_name] = value
    for i, action in enumerate(doc.get("actions", [])):
        if "block" in action and isinstance(action["block"], dict):
            new = {}
            for blocker, attacker in action["block"].items():
                raw = data.get(f"block-{i}-{blocker}", attacker)
                if raw:
                    new[blocker] = raw
            if new:
                action["block"] = new
            else:
                action.clear()
        for kind in ("cast", "activate"):
            if kind in action and isinstance(action[kind], dict) and \
                    action[kind].get("redirect_to") and data.get("changed") and \
                    data.get(f"redirect-{i}") is None:
                action[kind].pop("redirect_to")
    doc["actions"] = [a for a in doc.get("actions", []) if a]
    for q in doc.get("questions", []):
        q.pop("expect", None)
    return doc


def what_if(version: ScenarioVersion, era: str, data: Any, language: str) -> dict[str, Any]:
    """Run the changed scenario under ``era``: outcome and trace, or the errors.

    A public page: it runs the one variant and the one era asked for (plus the scenario's
    other eras for an "in which eras" question), never the whole document's check of
    every variant in every era that publishing does."""
    doc = apply_knobs(version, data)
    try:
        scenario = parse(doc)
        variant = scenario.variant(0)
        if era not in scenario_eras(scenario, variant):
            return {"errors": [_("Not every card and mechanic of this scenario exists under "
                                 "the %(era)s rules.") % {"era": era_label(era)}]}
        shown = present(scenario, era, language, keep=False)  # a one-off document
        answers = shown.answers  # the run, and the other eras' for an "eras" question
    except DocumentError as err:
        return {"errors": [e.message for e in err.items]}
    except EngineError as err:
        return {"errors": [str(err)]}
    state = shown.outcome.state
    names = object_names(variant, language)
    return {
        "errors": [],
        "life": [(player_label(state, p), state.life(p)) for p in state.players],
        "objects": [(o.display_name(language), ZONE_NAMES.get(o.zone, o.zone),
                     o.current_loyalty if o.is_planeswalker
                     else None, o.damage) for o in state.objects.values()
                    if o.zone != "command"],
        "answers": [(render_text(q.ask, language, variant),
                     answer_display(q, answers.get(q.id),
                                    {o.id: render_text(o.text, language, variant)
                                     for o in q.options}, names))
                    for q in variant.questions],
        "steps": shown.steps,
    }


# -- rule pages ------------------------------------------------------------------------------

@memo(maxsize=512)
def _cited_now(version_id: int, fingerprint: str) -> tuple[str, ...]:
    """The rules a version's traces cite under this engine, for a version whose stored
    check an older engine made (or none was recorded): run once per process."""
    version = ScenarioVersion.objects.get(pk=version_id)
    return tuple(rules_cited(scenario_of(version), version.eras))


def _cited(version_id: int, stored: list[str], checked_with: str,
           fingerprint: str) -> list[str] | tuple[str, ...]:
    """The rules a published version's traces cite: as its check ``stored`` them, else
    (``checked_with`` another engine) run by this one."""
    if checked_with == fingerprint:
        return stored
    return _cited_now(version_id, fingerprint)


def citations() -> dict[str, list[int]]:
    """rule key -> ids of published scenarios whose trace cites it (in any of their eras),
    from what their versions' checks stored: one query, no document read."""
    fingerprint = engine_fingerprint()
    index: dict[str, list[int]] = {}
    rows = Scenario.objects.published().order_by("pk").values_list(
        "pk", "current_version_id", "current_version__cited_rules",
        "current_version__checked_with")
    for pk, version_id, stored, checked_with in rows:
        for key in _cited(version_id, stored, checked_with, fingerprint):
            index.setdefault(key, []).append(pk)
    return index


def rule_history(key: str, language: str) -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = []
    previous = None
    for era in ERA_KEYS:
        if rule_exists(key, era):
            number = rule_number(key, era)
            event = ("appeared" if previous is None else
                     "moved" if number != previous else "")
            rows.append({"era": era, "label": era_label(era), "number": number,
                         "unsure": rule_unsure(key, era),
                         "summary": rule_summary(key, era, language), "event": event})
            previous = number
        elif previous is not None:
            rows.append({"era": era, "label": era_label(era), "number": None,
                         "summary": "", "event": "removed"})
            previous = None
    return rows


def rule_index(language: str) -> list[dict[str, Any]]:
    """Every rule of the catalogue with its latest number, its summary, and how many
    published scenarios cite it (kept per process: see :func:`timeline`)."""
    return _rule_index(language, Scenario.objects.published_stamp())


@memo(maxsize=16)  # one entry per language of the site (six, room for more)
def _rule_index(language: str, stamp: tuple[Any, ...]) -> list[dict[str, Any]]:
    """:func:`rule_index` for the library ``stamp`` says (callers don't mutate it)."""
    cited = citations()
    out = []
    for key in sorted(rule_catalogue()):
        latest = next((e for e in reversed(ERA_KEYS) if rule_exists(key, e)), None)
        era = latest or ERA_KEYS[0]
        versions = rule_versions(key)
        out.append({"key": key,
                    "number": rule_number(key, era) if latest else "",
                    "summary": rule_summary(key, latest, language) if latest else
                    versions[-1]["summary"].get(language, ""),
                    "uses": len(cited.get(key, [])), "current": latest == ERA_KEYS[-1]})
    return out


def scenarios_citing(key: str, language: str) -> list[tuple[Listed, str]]:
    """The published scenarios whose traces cite rule ``key``, with their titles: one
    query that reads no document (and a run of those whose stored check an older engine
    made)."""
    fingerprint = engine_fingerprint()
    published = Scenario.objects.published()
    found = published.citing(key) | published.exclude(
        current_version__checked_with=fingerprint)
    rows = found.with_facts("pk", "slug", "current_version__cited_rules",
                            "current_version__checked_with", facts=("titles",))
    return [(_listed(r["pk"], r["slug"]), title_in(r["titles"], language, r["slug"]))
            for r in rows
            if key in _cited(r["current_version_id"], r["current_version__cited_rules"],
                             r["current_version__checked_with"], fingerprint)]


# -- finding a rule by number or by words ------------------------------------------------------

MAX_QUERY = 100  # characters of a search kept: no rule number or summary phrase is longer
MAX_WORDS = 8
MIN_WORD = 3  # shorter words ("or", "cr") would match nearly every rule
NUMBER = re.compile(r"\d{3}(?:\.\d+[a-z]?)?")
_PREFIX = re.compile(r"^(?:cr|rules?|regol[ae]|reglas?|§|#)(?:\s*\.)?\s*")
_TRAILING = re.compile(r"[\s.,;:!?)\]]+$")


@dataclass(frozen=True, slots=True)
class RuleMatch:
    key: str
    number: str  # the number searched for (or, for words, the latest one)
    spans: tuple[tuple[str, str], ...]  # (first, last) era names in which it had that number
    summary: str  # in the reader's language, as worded in the last of those eras


@dataclass(frozen=True, slots=True)
class RuleSearch:
    query: str  # what was searched for, as kept (trimmed, at most MAX_QUERY characters)
    by_number: bool
    exact: bool  # by number: some rule had exactly that number (not only subrules of it)
    matches: tuple[RuleMatch, ...]

    @property
    def redirect(self) -> str | None:
        """The one rule an exact number meant, in every era it was used: go straight there."""
        keys = {m.key for m in self.matches}
        return next(iter(keys)) if self.exact and len(keys) == 1 else None


def _fold(text: str) -> str:
    """Lower case without accents, so "fedelta" finds "fedeltà" and "dano" "daño"."""
    decomposed = unicodedata.normalize("NFKD", text.casefold())
    return "".join(c for c in decomposed if not unicodedata.combining(c))


def _as_number(query: str) -> str | None:
    """A rule number typed loosely ("CR 306.7", "306.7.", "rule 702.19C", "306,7"), or None."""
    text = _TRAILING.sub("", _PREFIX.sub("", _fold(query)))
    text = re.sub(r"^(\d{3}),(\d)", r"\1.\2", text)
    return text if NUMBER.fullmatch(text) else None


def _spans(eras: list[str]) -> tuple[tuple[str, str], ...]:
    """Consecutive eras grouped: [(first name, last name), ...]."""
    spans: list[tuple[str, str]] = []
    run: list[str] = []
    for era in ERA_KEYS:
        if era in eras:
            run.append(era)
            continue
        if run:
            spans.append((find_era(run[0]).name, find_era(run[-1]).name))
            run = []
    if run:
        spans.append((find_era(run[0]).name, find_era(run[-1]).name))
    return tuple(spans)


@memo(maxsize=512)  # one entry per catalogue key (under a hundred)
def _numbers(key: str) -> dict[str, list[str]]:
    """number -> the eras (in order) in which rule ``key`` had it (callers don't mutate it)."""
    out: dict[str, list[str]] = {}
    for era in ERA_KEYS:
        if rule_exists(key, era):
            out.setdefault(rule_number(key, era), []).append(era)
    return out


def _is_under(got: str, number: str) -> bool:
    """Whether ``got`` is a subrule of ``number``: 306 -> 306.7, 702.19 -> 702.19c."""
    if len(got) <= len(number) or not got.startswith(number):
        return False
    after = got[len(number)]
    return after.isalpha() if "." in number else after == "."


def _find_number(number: str, language: str) -> tuple[bool, list[RuleMatch]]:
    """Rules that had ``number`` in some era; if none did, those numbered under it
    ("702.19" finds 702.19c and 702.19d), oldest first."""
    exact: list[tuple[str, int, RuleMatch]] = []
    under: list[tuple[str, int, RuleMatch]] = []
    for key in sorted(rule_catalogue()):
        for got, eras in _numbers(key).items():
            found = exact if got == number else under if _is_under(got, number) else None
            if found is not None:
                found.append((got, ERA_KEYS.index(eras[0]), RuleMatch(
                    key, got, _spans(eras), rule_summary(key, eras[-1], language))))
    matches = exact or under
    return bool(exact), [m for _, _, m in sorted(matches, key=lambda t: t[:2])]


@memo(maxsize=16)  # one entry per language of the site (six, room for more)
def _haystacks(language: str) -> tuple[tuple[str, str], ...]:
    """(key, folded text to search) per rule: the key, every number, every summary."""
    out = []
    for key, versions in sorted(rule_catalogue().items()):
        texts = [key.replace(".", " ").replace("-", " ")]
        for v in versions:
            texts.append(v["number"])
            texts.append(v["summary"].get(language) or v["summary"].get("en", ""))
        out.append((key, " " + " ".join(_words(" ".join(texts)))))
    return tuple(out)


def _words(text: str) -> list[str]:
    return re.findall(r"\w+(?:\.\w+)*", _fold(text))


def _find_words(query: str, language: str) -> list[RuleMatch]:
    """Rules with every word of ``query`` (3 letters or more) starting a word of their
    summary, number or key."""
    words = [w for w in _words(query) if len(w) >= MIN_WORD][:MAX_WORDS]
    if not words:
        return []
    out = []
    for key, text in _haystacks(language):
        if all(f" {w}" in text for w in words):
            numbers = _numbers(key)
            latest = max(numbers.items(), key=lambda kv: ERA_KEYS.index(kv[1][-1]),
                         default=None)
            if latest is None:  # a rule removed in every era: nothing to show
                continue
            number, eras = latest
            out.append(RuleMatch(key, number, _spans(eras),
                                 rule_summary(key, eras[-1], language)))
    return out


def rules_find(query: str, language: str) -> RuleSearch:
    """Rules by number ("306.7", "CR 702.19c", "306.7.") in any era, or by words of their
    summary in the reader's language. An exact number that meant one rule is a redirect
    (``RuleSearch.redirect``); one that meant different rules in different eras lists
    them with their eras."""
    kept = " ".join(query[:10 * MAX_QUERY].split())[:MAX_QUERY]
    number = _as_number(kept)
    if number is not None:
        exact, matches = _find_number(number, language)
        return RuleSearch(kept, True, exact, tuple(matches))
    return RuleSearch(kept, False, False, tuple(_find_words(kept, language)))


def topic_label(topic: str) -> str:
    return str(TOPIC_LABELS.get(topic, topic))
