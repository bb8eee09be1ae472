"""Small corrections to sentences built at run time, where a name is put into a
translated text and no fixed translation can know which name it will be.

Each language's corrections are data, in ``scenarios/wording/<language>.yaml`` (a language
without a file gets none):

- ``join``: a preposition before the article a printed name starts with, joined with it
  (Italian "di Il Velo di Catena" is "del Velo di Catena", "da L'Ippodromo" is
  "dall'Ippodromo"; Spanish "de El Gran Bosque", "del Gran Bosque"; French "de Le Voile
  de Chaîne", "du Voile de Chaîne"; Portuguese "de O ...", "do ...");
- ``before``: a word that takes another form before a word starting with given letters
  (Italian's euphonic d, "a Alice" is "ad Alice"; French elision, "de Ajani" is
  "d'Ajani").

A capitalised word gives a capitalised form ("A La Quarta Sfera", "Alla Quarta Sfera").
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass, replace
from pathlib import Path

from engine import read_bytes

WORDING = Path(__file__).resolve().parents[1] / "wording"
_NOT_AFTER = r"(?<![\w'’])"  # a whole word: not the end of another word or an elision


@dataclass(frozen=True, slots=True)
class _Rules:
    join: re.Pattern[str] | None
    joined: dict[tuple[str, str], str]  # (preposition, article), lower-case -> the join
    before: tuple[tuple[re.Pattern[str], str], ...]  # (the word before its letters, form)


def _capital(word: str) -> str:
    return word[:1].upper() + word[1:]


def _cased(word: str) -> str:
    """``word`` and its capitalised form, as a regular expression."""
    return "|".join(dict.fromkeys(re.escape(w) for w in (word, _capital(word))))


@functools.cache
def _rules(language: str) -> _Rules | None:
    path = WORDING / f"{language}.yaml"
    if not path.is_file():
        return None
    data = read_bytes(path.read_bytes()).document or {}  # the engine's safe YAML reader
    joined = {(prep, article): form for prep, articles in (data.get("join") or {}).items()
              for article, form in articles.items()}
    join = None
    if joined:
        preps = "|".join(_cased(p) for p in dict.fromkeys(p for p, _a in joined))
        articles = sorted({a for _p, a in joined}, key=len, reverse=True)
        # a printed name starts with a capital: "Il Velo di Catena", "L'Ippodromo"
        spaced = "|".join(re.escape(_capital(a)) for a in articles if not a.endswith("'"))
        elided = "|".join(re.escape(_capital(a)) for a in articles if a.endswith("'"))
        alternatives = [f"(?:(?P<spaced>{spaced}) )"] if spaced else []
        alternatives += [f"(?P<elided>{elided})"] if elided else []
        join = re.compile(f"{_NOT_AFTER}(?P<prep>{preps}) (?:{'|'.join(alternatives)})")
    before = tuple((re.compile(f"{_NOT_AFTER}({_cased(rule['word'])}) (?={rule['next']})"),
                    str(rule["form"])) for rule in data.get("before") or ())
    return _Rules(join, joined, before)


def _capitalised_like(form: str, word: str) -> str:
    return _capital(form) if word[:1].isupper() else form


def _spaced(form: str) -> str:
    """A form that ends in an apostrophe ("dall'", "d'") joins the next word directly."""
    return form if form.endswith(("'", "’")) else form + " "


def euphonic(text: str, language: str) -> str:
    """``text`` with the joins its language's names ask for (module docstring); a language
    without a wording file is returned unchanged."""
    rules = _rules(language)
    if rules is None:
        return text
    if rules.join is not None:
        def join(m: re.Match[str]) -> str:
            prep = m.group("prep")
            article = m.group("spaced") or m.group("elided")
            form = rules.joined[(prep.lower(), article.lower())]
            return _spaced(_capitalised_like(form, prep))

        text = rules.join.sub(join, text)
    for pattern, form in rules.before:
        def before(m: re.Match[str], form: str = form) -> str:
            return _spaced(_capitalised_like(form, m.group(1)))

        text = pattern.sub(before, text)
    return text


def euphonic_pieces[P](pieces: list[str | P], language: str) -> list[str | P]:
    """``euphonic`` over a text cut into pieces (strings and card references, dataclasses
    with a ``name``): the string before a name takes the join ("a " before "Alice" is "ad
    "; "de " before "Ajani" is "d'"), and a name whose article joins the word before it
    loses it ("di " + "Il Velo di Catena" -> "del " + "Velo di Catena")."""
    if _rules(language) is None:
        return pieces
    out = list(pieces)
    for i, piece in enumerate(out):
        if not isinstance(piece, str):
            continue
        after = out[i + 1] if i + 1 < len(out) else None
        name = "" if after is None or isinstance(after, str) else str(getattr(after, "name", ""))
        joined = euphonic(piece + name, language)
        # the name whole, or without its first word (an article: "Il ", "L'")
        cuts = [0, name.find(" ") + 1, next((k + 1 for k, c in enumerate(name[:4])
                                             if c in "'’"), 0)]
        kept = 0 if joined.endswith(name) else next(
            (k for k in cuts if k and joined.endswith(name[k:])), 0)
        rest = name[kept:]
        out[i] = joined[:len(joined) - len(rest)]
        if kept:
            out[i + 1] = replace(after, name=rest)  # type: ignore[type-var, assignment]
    return out
