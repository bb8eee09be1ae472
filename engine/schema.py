"""A JSON Schema (draft 2020-12) of the scenario document, built from the engine's lists.

Authors' own editors (VS Code's YAML extension, JetBrains IDEs, ...) read it to complete
field names, topics, eras, keywords and card slugs and to mark a misshapen document as it
is typed. It describes the *shape* of a document (docs/scenario-format.md); what a
document *means* (that an id names an object, that an action is legal in an era, that an
answer agrees with ``expect``) stays the engine's to check (``engine.notation``,
``engine.check``), which remains the one validator the web app and the command line use.

The schema is built here rather than written by hand so that it can't drift: the topics,
kinds, steps, keywords, eras and card slugs come from the engine's own lists and
catalogue, and every action, query, question kind and object field the parser knows must
have its entry below (``scenario_schema`` refuses to build otherwise). The built schema
is committed as ``engine/data/scenario.schema.json`` (a catalogue change shows in review,
and a file in the repository can name it by path); a test checks that the file is what
``scenario_schema`` builds. Rebuild it with ``python -m engine.schema``.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from engine.cards import catalog
from engine.eras import ERAS
from engine.notation import (
    ACTION_KINDS,
    BECOME_FIELDS,
    DIE_RESULTS,
    FORMAT,
    LANGUAGES,
    MAX_ACTIONS,
    MAX_NUMBER,
    MAX_OBJECTS,
    MAX_OPTIONS,
    MAX_PARAM_VALUES,
    MAX_PARAMS,
    MAX_QUESTIONS,
    MAX_TEXT,
    MOVE_ZONES,
    OBJECT_FIELDS,
    OBJECT_ID,
    PARAM_REF,
    QUERY_KINDS,
    QUESTION_KINDS,
    SLUG,
    TOPICS,
)
from engine.state import KEYWORDS, PERMANENT_TYPES, STEPS

Schema = dict[str, Any]

SCHEMA_FILE = Path(__file__).with_name("data") / "scenario.schema.json"
DRAFT = "https://json-schema.org/draft/2020-12/schema"
CARD_TYPES = tuple(sorted(PERMANENT_TYPES | {"instant", "sorcery", "plane", "phenomenon"}))
"""The card types an object may have (``engine.notation._object`` accepts these)."""
ZONE_LISTS = ("battlefield", "hand", "graveyard", "exile", "library", "command")
LANGUAGE_NAMES = {"en": "English (required)", "it": "Italian (required to publish)",
                  "es": "Spanish (required to publish)"}


# -- small builders --------------------------------------------------------------------------

def _ref(name: str, description: str = "") -> Schema:
    out: Schema = {"$ref": f"#/$defs/{name}"}
    if description:
        out["description"] = description
    return out


def _int(description: str, lo: int | None = -MAX_NUMBER, hi: int | None = MAX_NUMBER,
         ) -> Schema:
    """A whole number, or a parameter (``$name``) that stands for one."""
    number: Schema = {"type": "integer"}
    if lo is not None:
        number["minimum"] = lo
    if hi is not None:
        number["maximum"] = hi
    return {"description": description, "anyOf": [number, _ref("param_ref")]}


def _enum(values: tuple[str, ...] | list[str], description: str) -> Schema:
    """One of the engine's fixed words, or a parameter that stands for one."""
    return {"description": description, "anyOf": [{"enum": list(values)}, _ref("param_ref")]}


def _string(description: str) -> Schema:
    return {"type": "string", "description": description}


def _bool(description: str) -> Schema:
    return {"type": "boolean", "description": description}


def _ids(description: str) -> Schema:
    return {"type": "array", "description": description, "items": {"type": "string"}}


def _mapping(description: str, values: Schema) -> Schema:
    """A non-empty mapping id -> value (attack, block, move, ...)."""
    return {"type": "object", "description": description, "minProperties": 1,
            "additionalProperties": values}


def _fields(description: str, properties: Schema, required: tuple[str, ...] = ()) -> Schema:
    out: Schema = {"type": "object", "description": description, "properties": properties,
                   "additionalProperties": False}
    if required:
        out["required"] = list(required)
    return out


def _nothing(description: str) -> Schema:
    """``{}`` (or nothing at all)."""
    return {"description": description,
            "anyOf": [{"type": "null"}, {"type": "object", "maxProperties": 0}]}


def _complete[T](name: str, entries: dict[str, T], expected: tuple[str, ...]) -> dict[str, T]:
    """``entries`` in the engine's order, refusing to build if one is missing or extra."""
    if set(entries) != set(expected):
        raise RuntimeError(f"engine/schema.py: the {name} described "
                           f"({', '.join(sorted(entries))}) are not the engine's "
                           f"({', '.join(sorted(expected))})")
    return {key: entries[key] for key in expected}


# -- the parts of a document -----------------------------------------------------------------

def _redirect_map() -> Schema:
    return _mapping("The redirection rule (before dom-2018): player -> the planeswalker "
                    "they control that the damage is dealt to instead.",
                    {"type": "string"})


def _action_args() -> dict[str, Schema]:
    """Each action kind's arguments. `attack: {}` and `block: {}` (no attackers, no
    blockers) are legal declarations in the format's contract, so the schema lets an
    empty mapping through for those two and leaves the verdict to the engine."""
    amount = _int("An amount of damage.", 0)
    return _complete("action kinds", {
        "attack": _mapping(
            "Declare attackers: ATTACKER: TARGET (a player, a planeswalker or battle id, or "
            "a team id in Two-Headed Giant before dom-2018). Moves to declare-attackers.",
            {"type": "string"}) | {"minProperties": 0},
        "block": _mapping(
            "Declare blockers: BLOCKER: ATTACKER. Moves to declare-blockers.",
            {"type": "string"}) | {"minProperties": 0},
        "order": _mapping("Damage assignment order: ATTACKER: [BLOCKER, ...] (only in eras "
                          "that have it; elsewhere it does nothing).",
                          _ids("The blockers, first to last.")),
        "assign": _mapping(
            "The attacking player's combat damage assignment: ATTACKER: {RECIPIENT: N}.",
            {"type": "object", "minProperties": 1, "additionalProperties": amount}),
        "combat_damage": {
            "description": "Perform the remaining combat damage steps; `{step: first-strike}` "
                           "performs only the first-strike step.",
            "anyOf": [{"type": "null"},
                      _fields("", {"step": {"const": "first-strike"}})]},
        "cast": _fields("Cast a spell (an object in a hand, or a catalog card by its slug) "
                        "and resolve it.", {
            "card": {"description": "An object id in a hand, or a catalog card's slug.",
                     "anyOf": [_ref("card_slug"), {"type": "string"}]},
            "by": _string("The player who casts it."),
            "targets": {"description": "Target ids; for a spell that divides damage, a "
                                       "mapping target -> amount.",
                        "anyOf": [{"type": "array", "items": {"type": "string"}},
                                  {"type": "object", "additionalProperties": amount}]},
            "x": _int("The value of X.", 0),
            "mode": _int("The mode of a modal spell, 1-based.", 1),
            "redirect_to": _redirect_map(),
        }, ("card", "by")),
        "damage": _fields("A damage event from a source (an effect the scenario does not "
                          "model as a card).", {
            "source": _string("The object that deals the damage."),
            "to": _string("The player, team or object dealt damage."),
            "amount": amount,
            "combat": _bool("Whether it is combat damage (default false)."),
            "redirect_to": {"description": "A planeswalker to redirect it to (redirection "
                                           "rule, before dom-2018).",
                            "type": ["string", "null"]},
        }, ("source", "to", "amount")),
        "activate": _fields("Activate a loyalty ability: checks timing, once per turn per "
                            "permanent, and the loyalty cost.", {
            "permanent": _string("The planeswalker."),
            "ability": _int("The loyalty ability, 1-based in printed order.", 1),
            "targets": _ids("Target ids."),
            "x": _int("The value of X.", 0),
            "redirect_to": _redirect_map(),
        }, ("permanent", "ability")),
        "enter": _ref("object", "An object enters the battlefield (a planeswalker with its "
                                "printed loyalty unless `counters` says otherwise); with the "
                                "id of an object in another zone, that object returns as a "
                                "new object."),
        "move": _mapping("An effect moves objects: ID: ZONE.",
                         _enum(MOVE_ZONES, "The zone it moves to.")),
        "control": _mapping("An effect changes control: ID: PLAYER.", {"type": "string"}),
        "counters": _mapping("Put (+) or remove (-) counters: ID: {KIND: CHANGE}.", {
            "type": "object", "additionalProperties": _int("The change, + or -."),
            "properties": {"loyalty": _int("Loyalty counters to add (+) or remove (-).")}}),
        "become": _mapping("An effect changes an object's characteristics: ID: {...}.",
                           _become()),
        "choose": _fields("The choice the legend or uniqueness rule asks for: the player "
                          "keeps this object.", {"keep": _string("The object kept.")},
                          ("keep",)),
        "step": _enum(STEPS, "Advance to a later step of this turn."),
        "next_turn": _nothing("The next player's turn, at its first main phase."),
        "roll_planar_die": _fields("Roll the planar die (the special action, 901.9).", {
            "by": _string("The player who rolls."),
            "result": _enum(DIE_RESULTS, "What the die shows."),
            "effect": _bool("A roll an effect causes: free, and not counted."),
        }, ("by", "result")),
        "planeswalk": _nothing("An effect makes the planar controller planeswalk."),
    }, ACTION_KINDS)


def _become() -> Schema:
    words = {"type": "array", "items": {"type": "string"}}
    fields = _complete("`become` fields", {
        "types": {"type": "array", "description": "The new card types.",
                  "items": _enum(tuple(sorted(PERMANENT_TYPES)), "A permanent type.")},
        "subtypes": words | {"description": "The new subtypes."},
        "supertypes": words | {"description": "The new supertypes."},
        "power": _int("The new power."),
        "toughness": _int("The new toughness."),
        "keywords": {"type": "array", "description": "The new keywords.",
                     "items": _enum(tuple(sorted(KEYWORDS)), "A keyword.")},
    }, BECOME_FIELDS)
    return {"type": "object", "minProperties": 1, "properties": fields,
            "additionalProperties": False}


def _query_args() -> dict[str, Schema]:
    pair = {"type": "array", "minItems": 2, "maxItems": 2, "items": {"type": "string"}}
    entries = {
        "life": _string("A player's (or, in Two-Headed Giant, a team's) life total."),
        "loyalty": _string("A planeswalker's loyalty (printed loyalty once it has left "
                           "the battlefield)."),
        "damage": _string("The damage marked on an object."),
        "counters": pair | {"description": "[OBJECT, KIND]: how many counters of KIND."},
        "zone": _string("The zone an object is in."),
        "controller": _string("Who controls an object (a face-up plane: the planar "
                              "controller)."),
        "attacking": _string("What a creature attacks: an id, `nothing` (its planeswalker "
                             "or battle was removed from combat) or null."),
        "blocked": _string("Whether an attacking creature is blocked."),
        "legal": _ref("action", "Would this action be legal now?"),
        "max_damage_to": pair | {"description": "[ATTACKER, RECIPIENT]: the most combat "
                                                "damage the attacker could legally assign "
                                                "to that recipient."},
        "attack_targets": _string("What a creature could legally attack now (a list)."),
        "face_up_plane": _nothing("The face-up plane's id."),
        "planar_controller": {"description": "The planar controller.",
                              "anyOf": [{"type": "null"}, {"const": True},
                                        {"type": "object", "maxProperties": 0}]},
        "roll_cost": _string("The cost of that player's next planar die roll."),
        "subtypes": _string("An object's subtypes (a list)."),
    }
    answers = {"int": "a number", "bool": "true or false", "str": "an id",
               "list": "a list"}
    return {kind: schema | {"description": f"{schema['description']} Answers "
                                           f"{answers[QUERY_KINDS[kind]]}."}
            for kind, schema in _complete("query kinds", entries, tuple(QUERY_KINDS)).items()}


def _object_fields() -> dict[str, Schema]:
    return _complete("object fields", {
        "id": {"type": "string", "pattern": OBJECT_ID.pattern,
               "description": "The object's id, unique in the scenario: a short identifier "
                              "(letters, digits, - and _). Write {id} in a text to show its "
                              "printed name in the reader's language."},
        "card": {"description": "A card of the catalog (its name in each language, types, "
                                "power, toughness, loyalty, keywords and Oracle wording per "
                                "era); any of its fields can be overridden here.",
                 "anyOf": [_ref("card_slug"), _ref("param_ref")]},
        "name": _ref("text", "The name of an inline object (not for catalog cards)."),
        "types": {"type": "array", "description": "Card types (required for an inline "
                                                  "object).",
                  "items": _enum(CARD_TYPES, "A card type.")},
        "subtypes": {"type": "array", "items": {"type": "string"},
                     "description": "Subtypes, e.g. [Garruk] or [Bear]."},
        "supertypes": {"type": "array", "items": {"type": "string"},
                       "description": "Supertypes, e.g. [legendary]."},
        "power": _int("Power."),
        "toughness": _int("Toughness."),
        "loyalty": _int("Printed loyalty.", 0),
        "keywords": {"type": "array", "description": "Keyword abilities.",
                     "items": _enum(tuple(sorted(KEYWORDS)), "A keyword.")},
        "damage": _int("Damage marked on it.", 0),
        "counters": {"type": "object", "description": "Counters: kind -> number. A "
                                                      "planeswalker on the battlefield in "
                                                      "setup must state its loyalty.",
                     "properties": {"loyalty": _int("Loyalty counters.", 0)},
                     "additionalProperties": _int("How many.", 0)},
        "tapped": _bool("Whether it is tapped."),
        "sick": _bool("Whether it came under its controller's control this turn."),
        "controller": _string("The player who controls it."),
        "owner": _string("The player who owns it (default: its controller)."),
        "protector": _string("A battle's protector."),
        "defense": _int("A battle's printed defense.", 0),
    }, OBJECT_FIELDS)


def _setup() -> Schema:
    objects = {"type": "array", "maxItems": MAX_OBJECTS, "items": _ref("object")}
    zones = {zone: objects | {"description": f"Objects in the {zone} zone"
                                             + (" (planes and phenomena only)."
                                                if zone == "command" else ".")}
             for zone in ZONE_LISTS}
    return _fields("The board before the actions.", {
        "turn": _fields("Whose turn it is, and where.", {
            "active": _string("The active player (default: the first player)."),
            "step": _enum(STEPS, "The step (default main1)."),
            "number": _int("The turn number (default 1).", 1, None),
        }),
        "players": {"type": "array", "minItems": 2, "description": "The players.",
                    "items": _fields("A player.", {
                        "id": {"type": "string", "pattern": OBJECT_ID.pattern,
                               "description": "The player's id, e.g. alice."},
                        "life": _int("Life total (default 20)."),
                        "hexproof": _bool("The player has hexproof (from something the "
                                          "scenario does not model)."),
                    }, ("id",))},
        "teams": {"type": "array", "minItems": 2, "maxItems": 2,
                  "description": "Two-Headed Giant: two teams of two players, each with "
                                 "one shared life total.",
                  "items": _fields("A team.", {
                      "id": {"type": "string", "pattern": OBJECT_ID.pattern,
                             "description": "The team's id (not a player's)."},
                      "members": {"type": "array", "minItems": 2, "maxItems": 2,
                                  "items": {"type": "string"},
                                  "description": "The two players of the team."},
                      "life": _int("The team's life total (default 30).", None, None),
                  }, ("id", "members"))},
        **zones,
        "planechase": _fields("Planechase (901): planar decks, the face-up plane, the rolls "
                              "made this turn.", {
            "decks": {"type": "object", "description": "Each player's planar deck "
                                                       "(player -> plane ids, top first), or "
                                                       "one deck named `communal`.",
                      "additionalProperties": _ids("Plane or phenomenon ids, top first.")},
            "face_up": {"description": "The face-up plane (or a list, rarely).",
                        "anyOf": [{"type": "string"},
                                  {"type": "array", "items": {"type": "string"}}]},
            "rolls": {"type": "object", "description": "Planar die rolls already made this "
                                                       "turn: player -> number.",
                      "additionalProperties": _int("Rolls made.", 0, 50)},
            "communal": _bool("One communal planar deck (901.15)."),
        }),
    }, ("players",))


def _question() -> Schema:
    needs = _complete("question kinds", {
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
    return _fields("A question: `number` and `yesno` ask a query (`answer`); `choice` and "
                   "`multi` list options with claims; `assign` asks for a combat damage "
                   "assignment; `eras` asks in which eras a claim holds.", {
        "id": {"type": "string", "pattern": SLUG.pattern,
               "description": "The question's id, unique in the scenario."},
        "kind": {"enum": list(QUESTION_KINDS), "description": "The kind of question."},
        "ask": _ref("text", "The question, in each language."),
        "answer": _ref("query", "`number`, `yesno`: the query whose value is the answer."),
        "options": {"type": "array", "minItems": 2, "maxItems": MAX_OPTIONS,
                    "description": "`choice`, `multi`: the options; the correct ones are "
                                   "exactly those whose claim holds.",
                    "items": _fields("An option.", {
                        "id": {"type": "string", "pattern": SLUG.pattern,
                               "description": "The option's id."},
                        "text": _ref("text", "The option, in each language."),
                        "claim": _ref("claim"),
                    }, ("id", "text", "claim"))},
        "attacker": _string("`assign`: the attacking creature the candidate assigns "
                            "damage for."),
        "goal": _fields("`assign`: correct only when it also gives this recipient the most "
                        "damage the rules allow.", {"most_to": _string("The recipient.")},
                        ("most_to",)),
        "claim": _ref("claim", "`eras`: the claim; the answer is the eras where it holds."),
        "expect": {"description": "The author's independent answer, checked against the "
                                  "engine: a number, true/false, an option id or list of ids, "
                                  "a list of era ids (for `assign`: the most damage the goal "
                                  "recipient can get); or {ERA: VALUE, ...}."},
    }, ("id", "kind", "ask")) | {"allOf": rules}


def _param() -> Schema:
    value = {"type": ["string", "integer"]}
    return _fields("A parameter: `range: [lo, hi]` (whole numbers, inclusive) or `choice: "
                   "[...]`; each attempt draws one value. Write $name for a whole value, "
                   "{name} in a text.", {
        "range": {"type": "array", "minItems": 2, "maxItems": 2,
                  "prefixItems": [{"type": "integer"}, {"type": "integer"}],
                  "description": "[lo, hi], inclusive."},
        "choice": {"type": "array", "minItems": 1, "maxItems": MAX_PARAM_VALUES,
                   "items": value, "description": "The values to choose from."},
        "default": value | {"description": "The value of the default variant (seed 0); "
                                           "default: the first value."},
    }) | {"oneOf": [{"required": ["range"]}, {"required": ["choice"]}]}


def _defs() -> Schema:
    cards = catalog()
    slugs = sorted(cards)
    eras = [e.key for e in ERAS]
    return {
        "text": {
            "type": "object", "required": ["en"], "additionalProperties": False,
            "description": "A text in each language: en is required, it and es are "
                           "required for a published scenario. {id} shows an object's "
                           "printed name, {name} a parameter's value.",
            "properties": {lang: {"type": "string", "minLength": 1, "maxLength": MAX_TEXT,
                                  "pattern": r"\S", "description": LANGUAGE_NAMES[lang]}
                           for lang in LANGUAGES},
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
        "object": _fields("A card or token: either `card:` (a catalog card) or an inline "
                          "object (with `types`).", _object_fields(), ("id",)),
        "action": {
            "type": "object", "minProperties": 1, "maxProperties": 1,
            "description": "An action: a mapping with one key, the action's kind. Each is "
                           "checked in every era, and state-based actions follow.",
            "propertyNames": {"enum": list(ACTION_KINDS)},
            "properties": _action_args(),
        },
        "query": {
            "type": "object", "minProperties": 1, "maxProperties": 1,
            "description": "A query about the state after all actions: a mapping with one "
                           "key, the query's kind.",
            "propertyNames": {"enum": list(QUERY_KINDS)},
            "properties": _query_args(),
        },
        "claim": _fields("A claim: the query's value is this value (a list compares as a "
                         "set).", {"query": _ref("query"),
                                   "is": {"description": "The value claimed."}},
                         ("query", "is")),
        "question": _question(),
        "param": _param(),
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
                     "items": _ref("era"),
                     "description": "The eras this scenario is asked in (default: every era "
                                    "in which its cards, keywords and actions exist)."},
            "title": _ref("text", "The title."),
            "story": _ref("text", "Prose shown above the board."),
            "explain": _ref("text", "The author's note shown after answering."),
            "params": {"type": "object", "maxProperties": MAX_PARAMS,
                       "description": "Parameters: each attempt draws one variant.",
                       "propertyNames": {"pattern": r"^[a-z_][a-z0-9_]*$"},
                       "additionalProperties": _ref("param")},
            "setup": _setup(),
            "actions": {"type": "array", "maxItems": MAX_ACTIONS, "items": _ref("action"),
                        "description": "The actions, performed in order."},
            "questions": {"type": "array", "minItems": 1, "maxItems": MAX_QUESTIONS,
                          "items": _ref("question"), "description": "The questions."},
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
