"""The glossary's terms are used, and its known wrong variants never appear: in the
library, the card and plane catalogues, the rule summaries, the era descriptions and the
interface's translations (docs/scenario-format.md, "Glossary")."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import polib
import pytest
import yaml
from django.conf import settings
from django.utils.translation import to_locale

from scenarios.library import library_files, read_document

ROOT = Path(__file__).resolve().parents[2]
GLOSSARY = ROOT / "scenarios" / "glossary"
# every language of the site but English: each has a glossary (scenarios/glossary/<code>.yaml)
LANGUAGES = tuple(code for code, _name in settings.LANGUAGES if code != "en")


def glossary(language: str) -> dict[str, dict[str, Any]]:
    """English term -> {term, wrong}: an entry is a plain translation, or a mapping with
    `term` and `wrong` (regular expressions, case-sensitive unless they say `(?i)`)."""
    raw = yaml.safe_load((GLOSSARY / f"{language}.yaml").read_text(encoding="utf-8"))
    out = {}
    for en, entry in raw.items():
        if isinstance(entry, str):
            entry = {"term": entry}
        assert isinstance(entry, dict) and set(entry) <= {"term", "wrong", "note"}, en
        assert isinstance(entry["term"], str) and entry["term"], en
        out[en] = {"term": entry["term"], "wrong": list(entry.get("wrong", []))}
    return out


def _texts(node: Any, language: str, where: str) -> Iterator[tuple[str, str]]:
    """Every text written in ``language`` inside a document: the value under a key that
    is the language's code."""
    if isinstance(node, dict):
        for k, v in node.items():
            if k == language and isinstance(v, str):
                yield where, v
            else:
                yield from _texts(v, language, f"{where}.{k}")
    elif isinstance(node, list):
        for i, v in enumerate(node):
            yield from _texts(v, language, f"{where}[{i}]")


def texts(language: str) -> Iterator[tuple[str, str]]:
    for path in library_files():
        yield from _texts(read_document(path), language, path.stem)
    for name in ("cards", "planes", "rules", "eras"):
        data = yaml.safe_load((ROOT / "engine" / "data" / f"{name}.yaml").read_text(
            encoding="utf-8"))
        yield from _texts(data, language, f"engine/data/{name}.yaml")
    po = polib.pofile(str(ROOT / "locale" / to_locale(language) / "LC_MESSAGES" / "django.po"))
    for entry in po:
        if entry.obsolete:
            continue
        for text in [entry.msgstr, *entry.msgstr_plural.values()]:
            if text:
                yield f"django.po: {entry.msgid[:50]!r}", text


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_glossaries_cover_the_same_terms(language: str) -> None:
    assert set(glossary(language)) == set(glossary("it"))


@pytest.mark.parametrize("language", LANGUAGES)
def test_no_known_wrong_variant_of_a_term_appears(language: str) -> None:
    checks = [(en, entry["term"], re.compile(w)) for en, entry in glossary(language).items()
              for w in entry["wrong"]]
    assert checks, "the glossary lists no wrong variants"
    found = []
    for where, text in texts(language):
        for en, term, wrong in checks:
            m = wrong.search(text)
            if m:
                found.append(f"{where}: {m.group()!r} (for {en!r} write {term!r})")
    assert not found, "\n".join(found[:60]) + f"\n({len(found)} in all)"


def test_a_wrong_variant_is_found_where_it_is_written() -> None:
    checks = [re.compile(w) for w in glossary("it")["Two-Headed Giant"]["wrong"]]
    assert any(c.search("una partita a Due Teste Giganti") for c in checks)
    assert not any(c.search("una partita a Gigante a Due Teste") for c in checks)
