"""The shipped library: every file validates, agrees with the engine, is complete."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from engine import check_document
from scenarios.library import LIBRARY, library_files, read_document

FILES = library_files()
GLOSSARY = Path(__file__).resolve().parents[2] / "scenarios" / "glossary"


@pytest.mark.parametrize("path", FILES, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_library_file_validates_and_agrees_with_the_engine(path: Path) -> None:
    document = read_document(path)
    result = check_document(document)
    assert result.errors == [], result.errors
    assert result.disagreements == [], result.disagreements
    # A `redirect_to` asked in eras without the redirection rule is a deliberate warning
    # (one document serves every era; docs/scenario-format.md): no other warning is allowed.
    others = [w for w in result.warnings if not w.path.endswith(".redirect_to")]
    assert others == [], others
    assert document["id"] == path.stem
    assert path.parent.name in (document["topic"], "loyalty")
    for q in document["questions"]:
        assert "expect" in q, (path, q["id"])
    for lang in ("en", "it", "es"):
        assert document["title"].get(lang) and document.get("explain", {}).get(lang)


def test_library_size_and_coverage() -> None:
    docs = [read_document(p) for p in FILES]
    topics = Counter(d["topic"] for d in docs)
    assert len(docs) >= 70, topics
    assert topics["trample-into-planeswalkers"] >= 14
    assert topics["removed-attack-target"] >= 14
    assert topics["redirection-era"] >= 14
    assert topics["loyalty"] + topics["loyalty-abilities"] >= 8
    assert topics["uniqueness-and-legend"] >= 8
    assert topics["combat-damage-assignment"] >= 6
    assert topics["two-headed-giant"] >= 6
    assert sum(1 for d in docs if d.get("params")) * 3 >= len(docs)
    assert sum(1 for d in docs for q in d["questions"] if q["kind"] == "eras") >= 15
    assert len({d["id"] for d in docs}) == len(docs)


def test_the_library_folder_is_where_the_loader_looks() -> None:
    assert LIBRARY.is_dir() and FILES
