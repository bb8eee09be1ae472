"""Escaping, number formatting and text measuring for the board's SVG.

The board is drawn without a browser, so the width of a text is estimated from its
characters (calibrated on DejaVu Sans, the widest common sans-serif: text estimated to fit
does fit whatever font the browser picks). Long texts are wrapped onto more lines; only
what can't be wrapped in the room left is cut with an ellipsis, and the whole text always
stays in the card's accessible name and card text.
"""

from __future__ import annotations

import re
from xml.sax.saxutils import escape

_XML_INVALID = re.compile("[^\t\n\r\x20-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")
_QUOTES = {'"': "&quot;", "'": "&#x27;"}

_NARROW = set("iljI.,:;'|!`")
_SEMI = set("ftr()[]{}-/ \"*")
_WIDE = set("mwMW@%")
SAFETY = 0.97
"""The share of a room that estimated text may fill (a margin for the estimate)."""


def esc(text: str) -> str:
    """Escaped text (for element content and attribute values alike), without the
    characters XML 1.0 can't hold."""
    return escape(_XML_INVALID.sub("", str(text)), _QUOTES)


def num(v: float) -> str:
    """A coordinate as short as it can be written: ``12``, ``12.5``."""
    return f"{v:.1f}".rstrip("0").rstrip(".") if v != int(v) else str(int(v))


class _Units(dict[str, float]):
    """A character's width in units of the font size, worked out once per character."""

    def __missing__(self, ch: str) -> float:
        if ch in _NARROW:
            units = 0.31
        elif ch in _SEMI:
            units = 0.4
        elif ch in _WIDE:
            units = 0.92
        elif ch.isupper():
            units = 0.7
        elif ch.isdigit():
            units = 0.64
        else:
            units = 0.6
        self[ch] = units
        return units


_UNITS = _Units()


def text_width(text: str, size: float, bold: bool = False) -> float:
    """The estimated width of ``text`` at font size ``size``, in the same units."""
    return sum(map(_UNITS.__getitem__, text)) * size * (1.12 if bold else 1.0)


def fits(text: str, width: float, size: float, bold: bool = False) -> bool:
    return text_width(text, size, bold) <= width * SAFETY


def fit(text: str, width: float, size: float, bold: bool = False) -> str:
    """``text`` cut with an ellipsis so that it fits in ``width`` (only for texts that
    have no room to wrap: the whole text is always given elsewhere)."""
    if fits(text, width, size, bold):
        return text
    while text and not fits(text + "…", width, size, bold):
        text = text[:-1]
    return text.rstrip() + "…"


def wrap(text: str, width: float, size: float, lines: int = 0,
         bold: bool = False) -> list[str]:
    """``text`` in lines of ``width``, broken between words (a word longer than a line
    gets a line of its own). With ``lines`` > 0 at most that many lines, the last one cut
    if need be; with 0 as many lines as it takes."""
    out: list[str] = []
    words = text.split()
    while words and (lines <= 0 or len(out) < lines - 1):
        line = words.pop(0)
        while words and fits(f"{line} {words[0]}", width, size, bold):
            line += " " + words.pop(0)
        out.append(line)
    if words:
        out.append(fit(" ".join(words), width, size, bold))
    return out


def wrap_items(items: list[str], width: float, size: float, sep: str = ", ") -> list[str]:
    """A list (keywords) in lines of ``width``, broken between items where it can be,
    and inside an item only when the item alone is wider than a line: nothing is cut."""
    out: list[str] = []
    line = ""
    for i, item in enumerate(items):
        piece = item + (sep.rstrip() if i < len(items) - 1 else "")
        candidate = f"{line}{' ' if line else ''}{piece}"
        if line and not fits(candidate, width, size):
            out.append(line)
            candidate = piece
        if fits(candidate, width, size):
            line = candidate
            continue
        parts = wrap(candidate, width, size)
        out += parts[:-1]
        line = parts[-1]
    if line:
        out.append(line)
    return out
