"""The characters no authored key or text may hold, and how to name them in a message
without printing them (docs/scenario-format.md, "Caps"). Used by the document
validation (engine.notation) and by the reader (engine.reader)."""

from __future__ import annotations

import re

# Refused in every authored text and key (docs/scenario-format.md, "Caps"): C0 controls but
# tab and newline, DEL, C1 controls, lone surrogates (not text: UTF-8 can't store them), and
# the bidirectional controls that make a text read otherwise than it is stored (embeddings,
# overrides, isolates, and the invisible LRM, RLM and ALM marks: no language of the app
# needs them).
FORBIDDEN_CHARACTERS = re.compile(
    r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\ud800-\udfff]")
_BIDI = frozenset({0x061C, 0x200E, 0x200F, *range(0x202A, 0x202F), *range(0x2066, 0x206A)})


def describe_character(char: str) -> str:
    """A refused character named by its kind and code point (never the character itself:
    a message must not carry what it refuses)."""
    code = ord(char)
    if 0xD800 <= code <= 0xDFFF:
        kind = "a lone surrogate"
    elif code in _BIDI:
        kind = "a bidirectional control character"
    else:
        kind = "a control character"
    return f"{kind} U+{code:04X}"


def text_problem(text: str) -> str | None:
    """Why a text can't be kept as written (its first refused character, 1-based), or None."""
    found = FORBIDDEN_CHARACTERS.search(text)
    if found is None:
        return None
    return f"contains {describe_character(found.group())} at position {found.start() + 1}"


def printable(text: str) -> str:
    """``text`` with each refused character written as an escape (``\\u0000``), so that a
    path or a message naming a bad key stays plain text."""
    return FORBIDDEN_CHARACTERS.sub(lambda m: f"\\u{ord(m.group()):04x}", text)
