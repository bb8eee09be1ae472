"""Small corrections to sentences built at run time, where a name is put into a
translated text and no fixed translation can know which name it will be."""

from __future__ import annotations

import re

# Italian puts the preposition "a" as "ad" before a word that starts with "a" ("ad Alice",
# "ad Angelo di Serra"). Names are inserted into sentences at run time, so no fixed
# translation can know; this runs on every Italian sentence that has names put into it.
_A_BEFORE_A = re.compile(r"(?<![\w'’])([Aa]) (?=[AaÀà])")


def euphonic(text: str, language: str) -> str:
    """``text`` with Italian's euphonic d: "a Alice" becomes "ad Alice" ("A Angelo..." at
    the start of a sentence, "Ad Angelo..."). Other languages are returned unchanged."""
    if language != "it":
        return text
    return _A_BEFORE_A.sub(r"\1d ", text)


def euphonic_pieces[P](pieces: list[str | P], language: str) -> list[str | P]:
    """``euphonic`` over a text cut into pieces (strings and card references with a
    ``name``): a string ending in "a " before a name starting with "a" gets its "ad"."""
    if language != "it":
        return pieces
    out = list(pieces)
    for i, piece in enumerate(out):
        if not isinstance(piece, str):
            continue
        after = out[i + 1] if i + 1 < len(out) else None
        head = str(getattr(after, "name", ""))[:1] if after is not None else ""
        fixed = euphonic(piece + head, language)
        out[i] = fixed[:len(fixed) - len(head)]
    return out
