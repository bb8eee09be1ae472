"""Small corrections to sentences built at run time, where a name is put into a
translated text and no fixed translation can know which name it will be."""

from __future__ import annotations

import re
from dataclasses import replace

# Italian puts the preposition "a" as "ad" before a word that starts with "a" ("ad Alice",
# "ad Angelo di Serra"). Names are inserted into sentences at run time, so no fixed
# translation can know; this runs on every Italian sentence that has names put into it.
_A_BEFORE_A = re.compile(r"(?<![\w'’])([Aa]) (?=[AaÀà])")


# A printed name that starts with an article ("Il Velo di Catena", "L'Ippodromo", "El Gran
# Bosque") joins a preposition put before it: Italian "di Il" is "del", "a La" is "alla",
# "da L'" is "dall'"; Spanish "de El" is "del" and "a El" is "al" (only "el" contracts).
_ARTICLES = ("il", "lo", "la", "l'", "i", "gli", "le")
_IT_JOINED = {prep: dict(zip(_ARTICLES, forms.split(), strict=True)) for prep, forms in {
    "di": "del dello della dell' dei degli delle",
    "a": "al allo alla all' ai agli alle",
    "da": "dal dallo dalla dall' dai dagli dalle",
    "in": "nel nello nella nell' nei negli nelle",
    "su": "sul sullo sulla sull' sui sugli sulle",
}.items()}
_IT_JOIN = re.compile(r"(?<![\w'’])(di|a|da|in|su|Di|A|Da|In|Su) (?:(Il|Lo|La|I|Gli|Le) |(L'))")
_ES_JOIN = re.compile(r"(?<![\w'’])(de|a|De|A) El ")


def _it_join(m: re.Match[str]) -> str:
    prep = m.group(1)
    article = m.group(2) or m.group(3)
    joined = _IT_JOINED[prep.lower()][article.lower()]
    if prep[0].isupper():
        joined = joined[0].upper() + joined[1:]
    return joined if joined.endswith("'") else joined + " "


def _es_join(m: re.Match[str]) -> str:
    joined = "del" if m.group(1).lower() == "de" else "al"
    return (joined.capitalize() if m.group(1)[0].isupper() else joined) + " "


def euphonic(text: str, language: str) -> str:
    """``text`` with the small joins a name put into a sentence asks for: Italian's
    euphonic d ("a Alice" becomes "ad Alice"; "A Angelo..." at the start of a sentence,
    "Ad Angelo..."), and a preposition joined with the article a printed name starts with
    ("di Il Velo di Catena" becomes "del Velo di Catena"; Spanish "de El Gran Bosque",
    "del Gran Bosque"). Other languages are returned unchanged."""
    if language == "es":
        return _ES_JOIN.sub(_es_join, text)
    if language != "it":
        return text
    return _A_BEFORE_A.sub(r"\1d ", _IT_JOIN.sub(_it_join, text))


def euphonic_pieces[P](pieces: list[str | P], language: str) -> list[str | P]:
    """``euphonic`` over a text cut into pieces (strings and card references, dataclasses
    with a ``name``): a string ending in "a " before a name starting with "a" gets its
    "ad"; a string ending in a preposition before a name that starts with an article takes
    the article ("di " + "Il Velo di Catena" -> "del " + "Velo di Catena")."""
    if language not in ("it", "es"):
        return pieces
    out = list(pieces)
    for i, piece in enumerate(out):
        if not isinstance(piece, str):
            continue
        after = out[i + 1] if i + 1 < len(out) else None
        name = "" if after is None or isinstance(after, str) else str(getattr(after, "name", ""))
        joined = euphonic(piece + name, language)
        if joined.endswith(name):
            out[i] = joined[:len(joined) - len(name)]
            continue
        rest = name[2:] if name.startswith("L'") else name.partition(" ")[2]
        out[i] = joined[:len(joined) - len(rest)]
        out[i + 1] = replace(after, name=rest)  # type: ignore[type-var, assignment]
    return out
