"""A JSON Schema (draft 2020-12) of the scenario document, built from the engine's lists.

Authors' own editors (VS Code's YAML extension, JetBrains IDEs, ...) read it to complete
field names, topics, eras, keywords and card slugs and to mark a misshapen document as it
is typed. It describes the *shape* of a document (docs/scenario-format.md); what a
document *means* (that an id names an object, that an action is legal in an era, that an
answer agrees with ``expect``) stays the engine's to check (``engine.notation``,
``engine.check``), which remains the one validator the web app and the command line use.

The schema is built here rather than written by hand so that it can't drift: the topics,
kinds, steps, keywords, eras and card slugs come from the engine's own lists and
catalogue; each action and query kind's fragment comes from its own module
(``engine.kinds``); every question kind and object field the parser knows must have its
entry below (``scenario_schema`` refuses to build otherwise). The built schema
is committed as ``engine/data/scenario.schema.json`` (a catalogue change shows in review,
and a file in the repository can name it by path); a test checks that the file is what
``scenario_schema`` builds. Rebuild it with ``python -m engine.schema``.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from engine import schema_parts as sp
from engine.cards import catalog
from engine.document import (
    DEFAULT_LANGUAGES,
    FORMAT,
    LANGUAGE_TAG,
    MAX_ACTIONS,
    MAX_OBJECTS,
    MAX_OPTIONS,
    MAX_PARAM_VALUES,
    MAX_PARAMS,
    MAX_QUESTIONS,
    MAX_TEXT,
    OBJECT_ID,
    PARAM_REF,
    QUESTION_KINDS,
    SLUG,
    TOPICS,
)
from engine.eras import ERAS
from engine.kinds.actions import ACTIONS
from engine.kinds.queries import QUERIES, QUERY_KINDS
from engine.schema_parts import Schema
from engine.setup import OBJECT_FIELDS, ZONE_LISTS
from engine.state import CARD_TYPES, COLORS, KEYWORDS, STEPS

SCHEMA_FILE = Path(__file__).with_name("data") / "scenario.schema.json"
DRAFT = "https://json-schema.org/draft/2020-12/schema"
"""The card types an object may have (``engine.setup.parse_object`` accepts these)."""
LANGUAGE_NAMES = {"en": "English (required)", "it": "Italian", "es": "Spanish",
                  "fr": "French", "de": "German", "pt-br": "Brazilian Portuguese"}


# -- the parts of a document -----------------------------------------------------------------

def _action_args() -> dict[str, Schema]:
    """Each action kind's arguments, from its module (``engine.kinds.actions``)."""
    return {name: spec.schema() for name, spec in ACTIONS.items()}


def _query_args() -> dict[str, Schema]:
    """Each query kind's argument, from its module (``engine.kinds.queries``), with what
    it answers."""
    answers = {"int": "a number", "bool": "true or false", "str": "an id",
               "list": "a list"}
    out: dict[str, Schema] = {}
    for kind, spec in QUERIES.items():
        schema = spec.schema()
        out[kind] = schema | {"description": f"{schema['description']} Answers "
                                             f"{answers[spec.value_type]}."}
    return out


def _object_fields() -> dict[str, Schema]:
    return sp.complete("object fields", {
        "id": {"type": "string", "pattern": OBJECT_ID.pattern,
               "description": "The object's id, unique in the scenario: a short identifier "
                              "(letters, digits, - and _). Write {id} in a text to show its "
                              "printed name in the reader's language."},
        "card": {"description": "A card of the catalog (its name in each language, types, "
                                "power, toughness, loyalty, keywords and Oracle wording per "
                                "era); any of its fields can be overridden here.",
                 "anyOf": [sp.ref("card_slug"), sp.ref("param_ref")]},
        "name": sp.ref("text", "The name of an inline object (not for catalog cards)."),
        "types": {"type": "array", "description": "Card types (required for an inline "
                                                  "object).",
                  "items": sp.enum(CARD_TYPES, "A card type.")},
        "subtypes": {"type": "array", "items": {"type": "string"},
                     "description": "Subtypes, e.g. [Garruk] or [Bear]."},
        "supertypes": {"type": "array", "items": {"type": "string"},
                       "description": "Supertypes, e.g. [legendary]."},
        "power": sp.integer("Power."),
        "toughness": sp.integer("Toughness."),
        "loyalty": sp.integer("Printed loyalty.", 0),
        "keywords": {"type": "array", "description": "Keyword abilities.",
                     "items": sp.enum(tuple(sorted(KEYWORDS)), "A keyword.")},
        "damage": sp.integer("Damage marked on it.", 0),
        "counters": {"type": "object", "description": "Counters: kind -> number. A "
                                                      "planeswalker on the battlefield in "
                                                      "setup must state its loyalty.",
                     "properties": {"loyalty": sp.integer("Loyalty counters.", 0)},
                     "additionalProperties": sp.integer("How many.", 0)},
        "tapped": sp.boolean("Whether it is tapped."),
        "sick": sp.boolean("Whether it came under its controller's control this turn."),
        "controller": sp.string("The player who controls it."),
        "owner": sp.string("The player who owns it (default: its controller)."),
        "protector": sp.string("A battle's protector."),
        "defense": sp.integer("A battle's printed defense.", 0),
        "colors": {"type": "array", "description": "Its colors (a catalog card's come from "
                                                   "its mana cost or color indicator).",
                   "items": sp.enum(COLORS, "A color.")},
        "protection": _qualities("Qualities it has protection from."),
        "chosen_name": sp.string("The card name chosen as it entered (Runed Halo), as a "
                                 "catalog slug."),
    }, OBJECT_FIELDS)


def _qualities(description: str) -> Schema:
    return {"type": "array", "description": description + " A color, a card type in the "
            "plural (creatures, planeswalkers, ...), everything, or a catalog card's slug "
            "(protection from that card's name).", "items": {"type": "string"}}


def _setup() -> Schema:
    objects = {"type": "array", "maxItems": MAX_OBJECTS, "items": sp.ref("object")}
    zones = {zone: objects | {"description": f"Objects in the {zone} zone"
                                             + (" (planes and phenomena only)."
                                                if zone == "command" else ".")}
             for zone in ZONE_LISTS}
    return sp.fields("The board before the actions.", {
        "turn": sp.fields("Whose turn it is, and where.", {
            "active": sp.string("The active player (default: the first player)."),
            "step": sp.enum(STEPS, "The step (default main1)."),
            "number": sp.integer("The turn number (default 1).", 1, None),
        }),
        "players": {"type": "array", "minItems": 2, "description": "The players.",
                    "items": sp.fields("A player.", {
                        "id": {"type": "string", "pattern": OBJECT_ID.pattern,
                               "description": "The player's id, e.g. alice."},
                        "life": sp.integer("Life total (default 20)."),
                        "hexproof": sp.boolean("The player has hexproof (from something the "
                                          "scenario does not model)."),
                        "protection": _qualities("The player has protection (from "
                                                 "something the scenario does not model)."),
                    }, ("id",))},
        "teams": {"type": "array", "minItems": 2, "maxItems": 2,
                  "description": "Two-Headed Giant: two teams of two players, each with "
                                 "one shared life total.",
                  "items": sp.fields("A team.", {
                      "id": {"type": "string", "pattern": OBJECT_ID.pattern,
                             "description": "The team's id (not a player's)."},
                      "members": {"type": "array", "minItems": 2, "maxItems": 2,
                                  "items": {"type": "string"},
                                  "description": "The two players of the team."},
                      "life": sp.integer("The team's life total (default 30).", None, None),
                  }, ("id", "members"))},
        **zones,
        "planechase": sp.fields("Planechase (901): planar decks, the face-up plane, the rolls "
                              "made this turn.", {
            "decks": {"type": "object", "description": "Each player's planar deck "
                                                       "(player -> plane ids, top first), or "
                                                       "one deck named `communal`.",
                      "additionalProperties": sp.ids("Plane or phenomenon ids, top first.")},
            "face_up": {"description": "The face-up plane (or a list, rarely).",
                        "anyOf": [{"type": "string"},
                                  {"type": "array", "items": {"type": "string"}}]},
            "rolls": {"type": "object", "description": "Planar die rolls already made this "
                                                       "turn: player -> number.",
                      "additionalProperties": sp.integer("Rolls made.", 0, 50)},
            "communal": sp.boolean("One communal planar deck (901.15)."),
        }),
    }, ("players",))


def _question() -> Schema:
    needs = sp.complete("question kinds", {
        "number": ("answer",), "yesno": ("answer",), "choice": ("options",),
        "multi": ("options",), "assign": ("attacker",), "eras": ("claim",),
    }, QUESTION_KINDS)
    answer_kinds = {"number": "int", "yesno": "bool"}
    rules: list[Schema] = []
    for kind, required in needs.items():
        then: Schema = {"required": list(required)}
        if kind in answer_kinds:
            then["properties"] = {"answer": {"propertyNames": {"enum": [
                q for q, t in QUERY_KINDS.items() if t == answer_kinds[kind]]}}}
        rules.append({"if": {"properties": {"kind": {"const": kind}}, "required": ["kind"]},
                      "then": then})
    return sp.fields("A question: `number` and `yesno` ask a query (`answer`); `choice` and "
                   "`multi` list options with claims; `assign` asks for a combat damage "
                   "assignment; `eras` asks in which eras a claim holds.", {
        "id": {"type": "string", "pattern": SLUG.pattern,
               "description": "The question's id, unique in the scenario."},
        "kind": {"enum": list(QUESTION_KINDS), "description": "The kind of question."},
        "ask": sp.ref("text", "The question, in each language."),
        "answer": sp.ref("query", "`number`, `yesno`: the query whose value is the answer."),
        "options": {"type": "array", "minItems": 2, "maxItems": MAX_OPTIONS,
                    "description": "`choice`, `multi`: the options; the correct ones are "
                                   "exactly those whose claim holds.",
                    "items": sp.fields("An option.", {
                        "id": {"type": "string", "pattern": SLUG.pattern,
                               "description": "The option's id."},
                        "text": sp.ref("text", "The option, in each language."),
                        "claim": sp.ref("claim"),
                    }, ("id", "text", "claim"))},
        "attacker": sp.string("`assign`: the attacking creature the candidate assigns "
                            "damage for."),
        "goal": sp.fields("`assign`: correct only when it also gives this recipient the most "
                        "damage the rules allow.", {"most_to": sp.string("The recipient.")},
                        ("most_to",)),
        "claim": sp.ref("claim", "`eras`: the claim; the answer is the eras where it holds."),
        "when": sp.ref("when"),
        "expect": {"description": "The author's independent answer, checked against the "
                                  "engine: a number, true/false, an option id or list of ids, "
                                  "a list of era ids (for `assign`: the most damage the goal "
                                  "recipient can get); or {ERA: VALUE, ...}."},
    }, ("id", "kind", "ask")) | {"allOf": rules}


def _param() -> Schema:
    value = {"type": ["string", "integer", "boolean"]}
    bounds = {"type": "array", "minItems": 2, "maxItems": 2,
              "prefixItems": [{"type": "integer"}, {"type": "integer"}]}
    words = {"type": "array", "minItems": 1, "items": {"type": "string"}}
    card_filter = sp.fields("A catalog card drawn from those this filter matches (every "
                          "condition holds).", {
        "types": words | {"description": "Card types it has, all of them."},
        "subtypes": words | {"description": "Subtypes, any of them."},
        "keywords": words | {"description": "Keywords it has, all of them."},
        "without": words | {"description": "Keywords it doesn't have, none of them."},
        "legendary": {"type": "boolean", "description": "Legendary or not."},
        "exclude": {"type": "array", "items": sp.ref("card_slug"),
                    "description": "Cards left out."},
        **{k: bounds | {"description": f"[lo, hi]: its printed {k}, inclusive."}
           for k in ("power", "toughness", "loyalty", "defense")},
    })
    return sp.fields("A parameter: `range: [lo, hi]` (whole numbers, inclusive), `choice: "
                   "[...]` or `card: {filter}`; each attempt draws one value. Write $name "
                   "for a whole value, {name} in a text.", {
        "range": bounds | {"description": "[lo, hi], inclusive."},
        "choice": {"type": "array", "minItems": 1, "maxItems": MAX_PARAM_VALUES,
                   "items": value, "description": "The values to choose from."},
        "card": card_filter,
        "default": value | {"description": "The value of the default variant (seed 0); "
                                           "default: the first value."},
    }) | {"oneOf": [{"required": ["range"]}, {"required": ["choice"]},
                    {"required": ["card"]}]}


def _when() -> Schema:
    return {"type": "object", "minProperties": 1,
            "description": "Switches this item on only in the variants where each parameter "
                           "named has the value given (or one of the values listed).",
            "propertyNames": {"pattern": r"^[a-z_][a-z0-9_]*$"},
            "additionalProperties": {"anyOf": [
                {"type": ["string", "integer", "boolean"]},
                {"type": "array", "minItems": 1,
                 "items": {"type": ["string", "integer", "boolean"]}}]}}


def _defs() -> Schema:
    cards = catalog()
    slugs = sorted(cards)
    eras = [e.key for e in ERAS]
    return {
        "text": {
            "type": "object", "required": ["en"], "additionalProperties": False,
            "description": "A text in each language: en is required; a site requires the "
                           "languages it names to publish (it and es by default). {id} "
                           "shows an object's printed name, {name} a parameter's value.",
            "properties": {lang: {"type": "string", "minLength": 1, "maxLength": MAX_TEXT,
                                  "pattern": r"\S", "description": LANGUAGE_NAMES[lang]}
                           for lang in DEFAULT_LANGUAGES},
            # a language a site adds (a tag such as nl or zh-hans): the engine accepts the
            # languages its site configures (engine.document.configure_languages)
            "patternProperties": {f"^{LANGUAGE_TAG.pattern}$": {
                "type": "string", "minLength": 1, "maxLength": MAX_TEXT, "pattern": r"\S"}},
        },
        "param_ref": {"type": "string", "pattern": PARAM_REF.pattern,
                      "description": "A parameter ($name) standing for the whole value."},
        "card_slug": {
            "enum": slugs,
            "description": "A card of the engine's catalog (see the card catalogue page).",
            "enumDescriptions": [" · ".join(dict.fromkeys(cards[s].name.values()))
                                 for s in slugs],
        },
        "era": {"enum": eras, "description": "A rules era.",
                "enumDescriptions": [f"{e.name}, from {e.effective.isoformat()}"
                                     for e in ERAS]},
        "object": sp.fields("A card or token: either `card:` (a catalog card) or an inline "
                          "object (with `types`).",
                          _object_fields() | {"when": sp.ref("when")}, ("id",)),
        "action": {
            "type": "object", "minProperties": 1,
            "description": "An action: a mapping with one key, the action's kind. Each is "
                           "checked in every era, and state-based actions follow.",
            "propertyNames": {"enum": [*ACTIONS, "when"]},
            "properties": _action_args() | {"when": sp.ref("when")},
            "maxProperties": 2,
            # exactly one kind (and, with parameters, an optional `when:`)
            "oneOf": [{"required": [kind]} for kind in ACTIONS],
        },
        "query": {
            "type": "object", "minProperties": 1, "maxProperties": 1,
            "description": "A query about the state after all actions: a mapping with one "
                           "key, the query's kind.",
            "propertyNames": {"enum": list(QUERY_KINDS)},
            "properties": _query_args(),
        },
        "claim": sp.fields("A claim: the query's value is this value (a list compares as a "
                         "set).", {"query": sp.ref("query"),
                                   "is": {"description": "The value claimed."}},
                         ("query", "is")),
        "question": _question(),
        "param": _param(),
        "when": _when(),
    }


def scenario_schema() -> Schema:
    """The JSON Schema of a scenario document, format 1."""
    return {
        "$schema": DRAFT,
        "$comment": "Built by engine/schema.py from the engine's lists and card catalog: "
                    "do not edit by hand; rebuild with `python -m engine.schema`.",
        "title": f"Scenario document, format {FORMAT}",
        "description": "A planeswalker rules scenario (docs/scenario-format.md). The schema "
                       "checks the shape; the engine checks the meaning (ids, rules, eras).",
        "type": "object",
        "required": ["format", "id", "topic", "difficulty", "title", "setup", "actions",
                     "questions"],
        "additionalProperties": False,
        "properties": {
            "format": {"const": FORMAT, "description": "The format version."},
            "id": {"type": "string", "pattern": SLUG.pattern,
                   "description": "The scenario's slug, unique in the library (lowercase "
                                  "letters, digits and hyphens, at most 64 characters)."},
            "topic": {"enum": list(TOPICS), "description": "The topic."},
            "difficulty": {"type": "integer", "minimum": 1, "maximum": 5,
                           "description": "1 (intro) .. 5 (expert)."},
            "eras": {"type": "array", "minItems": 1, "uniqueItems": True,
                     "items": sp.ref("era"),
                     "description": "The eras this scenario is asked in (default: every era "
                                    "in which its cards, keywords and actions exist)."},
            "title": sp.ref("text", "The title."),
            "story": {"description": "Prose shown above the board: one text, or alternatives "
                                     "(`when:` picks the first that holds).",
                      "anyOf": [sp.ref("text"), {
                          "type": "array", "minItems": 1, "maxItems": 8,
                          "items": {"type": "object", "required": ["en"],
                                    "properties": {"when": sp.ref("when")},
                                    "additionalProperties": {"type": "string", "minLength": 1,
                                                             "maxLength": MAX_TEXT}}}]},
            "explain": sp.ref("text", "The author's note shown after answering."),
            "params": {"type": "object", "maxProperties": MAX_PARAMS,
                       "description": "Parameters: each attempt draws one variant.",
                       "propertyNames": {"pattern": r"^[a-z_][a-z0-9_]*$"},
                       "additionalProperties": sp.ref("param")},
            "setup": _setup(),
            "actions": {"type": "array", "maxItems": MAX_ACTIONS, "items": sp.ref("action"),
                        "description": "The actions, performed in order."},
            "questions": {"type": "array", "minItems": 1, "maxItems": MAX_QUESTIONS,
                          "items": sp.ref("question"), "description": "The questions."},
        },
        "$defs": _defs(),
    }


def schema_text() -> str:
    """The schema as the committed file holds it."""
    return json.dumps(scenario_schema(), indent=2, ensure_ascii=False) + "\n"


def main() -> int:
    """``python -m engine.schema``: rebuild the committed file."""
    SCHEMA_FILE.write_text(schema_text(), encoding="utf-8")
    print(f"wrote {SCHEMA_FILE}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
