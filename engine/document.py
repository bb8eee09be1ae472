"""The scenario format's fixed words, caps and id patterns (docs/scenario-format.md).

Shared by the parser (``engine.notation``, ``engine.setup``, ``engine.questions``, the
kinds in ``engine.kinds``), the reader and the JSON Schema, so each is written once.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any, TypeVar

V = TypeVar("V")

FORMAT = 1

# The languages a text may be written in, English first (every text has it). A site
# configures its own (``configure_languages``: the web app passes Django's ``LANGUAGES``
# when it starts); these six are the default, for the command line and for a document read
# without the site. A language is a lower-case tag: ``fr``, ``pt-br``.
DEFAULT_LANGUAGES = ("en", "it", "es", "fr", "de", "pt-br")
LANGUAGE_TAG = re.compile(r"[a-z]{2,3}(?:-[a-z0-9]{2,8})?")
_languages: tuple[str, ...] = DEFAULT_LANGUAGES


def languages() -> tuple[str, ...]:
    """The languages texts may be written in, English first."""
    return _languages


def configure_languages(codes: Iterable[str]) -> tuple[str, ...]:
    """Set the languages texts may be written in (English is always among them, first);
    returns them. ValueError for a code that is not a language tag."""
    global _languages
    wanted = [str(code).lower() for code in codes]
    for code in wanted:
        if not LANGUAGE_TAG.fullmatch(code):
            raise ValueError(f"{code!r} is not a language tag such as fr or pt-br")
    _languages = tuple(dict.fromkeys(["en", *wanted]))
    return _languages

TOPICS = ("trample-into-planeswalkers", "removed-attack-target", "redirection-era",
          "combat-damage-assignment", "loyalty", "loyalty-abilities", "uniqueness-and-legend",
          "two-headed-giant", "planechase", "battles")
QUESTION_KINDS = ("number", "yesno", "choice", "multi", "assign", "eras")

# Caps: any accepted document runs in well under 10 ms.
MAX_OBJECTS = 40
MAX_ACTIONS = 40
MAX_QUESTIONS = 20
MAX_OPTIONS = 8
MAX_PARAMS = 8
MAX_PARAM_VALUES = 64
MAX_DEPTH = 12
MAX_NODES = 4000
MAX_TEXT = 5000
MAX_NUMBER = 1000

SLUG = re.compile(r"^[a-z0-9][a-z0-9-]{0,63}$")
SLUG_RULE = ("lower-case letters, digits and `-`, starting with a letter or digit, at most "
             "64 characters")
"""What ``SLUG`` accepts, in the words of the error messages (docs/scenario-format.md)."""
OBJECT_ID = re.compile(r"^[A-Za-z][A-Za-z0-9_-]{0,39}$")
PARAM_REF = re.compile(r"^\$([a-z_][a-z0-9_]*)$")


def is_int(v: Any) -> bool:
    """A whole number (YAML's true and false are not)."""
    return isinstance(v, int) and not isinstance(v, bool)


class Ids(set[str]):
    """The ids a document has declared so far. ``in`` answers False for a value that can't
    be an id (a list, a mapping) where a plain set raises TypeError, so a misshapen
    reference is reported as an unknown id at its path, never a crash."""

    def __contains__(self, v: object) -> bool:
        if not isinstance(v, str):
            return False
        if set.__contains__(self, v):
            return True
        # Objects an effect makes (engine.effects): tokens `SOURCE-token-N` of a known
        # source, and unknown drawn cards `PLAYER-card-N`; a reference to one the game
        # never made is an error when it is used ("never entered the game").
        base, sep, n = v.rpartition("-token-")
        if sep and n.isdigit() and set.__contains__(self, base):
            return True
        _, sep, n = v.rpartition("-card-")
        return bool(sep) and n.isdigit()


class IdDict(dict[str, V]):
    """Players, teams or objects by id, with ``in`` and ``get`` as forgiving as :class:`Ids`
    for a value that can't be an id."""

    def __contains__(self, v: object) -> bool:
        return isinstance(v, str) and dict.__contains__(self, v)

    def get(self, key: Any, default: Any = None) -> Any:
        return dict.get(self, key, default) if isinstance(key, str) else default
