"""The rules engine's front door: everything the web apps use, and nothing else.

The apps (``scenarios``, ``quiz``) import from ``engine`` only, never from a module inside
it; import-linter's contracts in pyproject.toml hold that, and hold the engine to pure
Python (no Django, no app). Inside the engine, modules import each other directly.
"""

from engine.cards import Card, UnknownCard, card_or_none, catalog, find_card
from engine.check import CheckResult, check_document, translation_warnings
from engine.difficulty import estimate as estimate_difficulty
from engine.document import DEFAULT_LANGUAGES, configure_languages, languages
from engine.draws import NoVariant, variant_eras
from engine.draws import draw as draw_variant
from engine.eras import CURRENT, ERA_KEYS, ERAS, Era, UnknownEra, era_end, find_era
from engine.errors import DocumentError, EngineError, ErrorItem, IllegalAction, Violation
from engine.history import changes, first_divergence, moved_rules
from engine.kinds.actions import ACTIONS
from engine.kinds.base import ActionSpec, EditorField, PairsError
from engine.notation import (
    ACTION_KINDS,
    DIE_RESULTS,
    MAX_TEXT,
    PLACEHOLDER,
    QUESTION_KINDS,
    TOPICS,
    Question,
    Scenario,
    Variant,
    parse,
    render_text,
)
from engine.params import setup_items
from engine.planechase import effective_power, planar_controller
from engine.queries import legal_assignment, why_illegal_assignment
from engine.reader import (
    MAX_DOCUMENT_BYTES,
    ReadError,
    Reading,
    Syntax,
    load_document,
    parse_text,
    read_bytes,
    read_text,
    read_value,
)
from engine.rulebook import RuleVersion
from engine.rulebook import catalogue as rule_catalogue
from engine.rulebook import exists as rule_exists
from engine.rulebook import history as rule_versions
from engine.rulebook import number as rule_number
from engine.rulebook import summary as rule_summary
from engine.rulebook import unsure as rule_unsure
from engine.runner import (
    Outcome,
    answer_eras,
    play,
    play_declarations,
    run_variant,
    scenario_eras,
)
from engine.schema import SCHEMA_FILE
from engine.state import KEYWORDS, STEPS, GameState, Obj
from engine.texts import Named
from engine.texts import resolve as resolve_placeholder
from engine.trace import Trace, TraceStep

__all__ = [
    "ACTIONS", "ACTION_KINDS", "CURRENT", "DEFAULT_LANGUAGES", "DIE_RESULTS", "ERAS",
    "ERA_KEYS", "KEYWORDS", "MAX_DOCUMENT_BYTES", "MAX_TEXT", "PLACEHOLDER", "QUESTION_KINDS",
    "SCHEMA_FILE", "STEPS", "TOPICS", "ActionSpec", "Card", "CheckResult", "DocumentError",
    "EditorField", "EngineError", "Era", "ErrorItem", "GameState", "IllegalAction", "Named",
    "NoVariant", "Obj",
    "Outcome", "PairsError", "Question", "ReadError", "Reading", "RuleVersion", "Scenario",
    "Syntax", "Trace", "TraceStep", "UnknownCard", "UnknownEra", "Variant", "Violation",
    "answer_eras", "card_or_none", "catalog", "draw_variant", "estimate_difficulty", "changes",
    "check_document", "configure_languages",
    "effective_power", "era_end", "find_card", "find_era", "first_divergence", "languages",
    "legal_assignment", "load_document", "moved_rules", "parse", "parse_text",
    "planar_controller", "play", "play_declarations", "read_bytes", "read_text", "read_value",
    "render_text", "resolve_placeholder", "rule_catalogue", "rule_exists", "rule_number",
    "rule_summary",
    "rule_unsure", "rule_versions", "run_variant", "scenario_eras", "setup_items",
    "translation_warnings",
    "variant_eras",
    "why_illegal_assignment",
]
