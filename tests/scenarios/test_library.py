"""The shipped library: every file validates, agrees with the engine, is complete."""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from engine import ERA_KEYS, TOPICS, check_document, parse, scenario_eras
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
    """Enough for a candidate preparing for an exam not to run out (issue 15): 150
    scenarios, every topic at least 10, half with parameters, the difficulties spread."""
    docs = [read_document(p) for p in FILES]
    topics = Counter(d["topic"] for d in docs)
    assert len(docs) >= 150, len(docs)
    assert set(topics) == set(TOPICS) and min(topics.values()) >= 10, topics
    assert sum(1 for d in docs if d.get("params")) * 2 >= len(docs)
    levels = Counter("easy" if d["difficulty"] <= 2 else "medium" if d["difficulty"] == 3
                     else "hard" for d in docs)
    assert min(levels[k] for k in ("easy", "medium", "hard")) * 4 >= len(docs), levels
    assert sum(1 for d in docs for q in d["questions"] if q["kind"] == "eras") >= 15
    assert sum(1 for d in docs if d["topic"] == "battles") >= 10
    assert len({d["id"] for d in docs}) == len(docs)


# The rules change at these boundaries only for cards, keywords and objects that exist from
# then on (trample over planeswalkers and loyalty cost changes at Modern Horizons 2;
# battles at March of the Machine): no board exists on both sides, so no answer can change
# across them. Scenarios asked from those eras on cover what they brought.
NEW_THINGS_ONLY = {("dom-2018", "mh2-2021"), ("mh2-2021", "mom-2023")}


def boundary_counts(docs: list[dict[str, Any]]) -> dict[tuple[str, str], set[str]]:
    """Per pair of consecutive eras, the scenarios whose expected answer (default
    variant) to some question differs between the two, both asked."""
    pairs = zip(ERA_KEYS, ERA_KEYS[1:], strict=False)
    out: dict[tuple[str, str], set[str]] = {p: set() for p in pairs}
    for doc in docs:
        asked = set(scenario_eras(parse(doc)))
        for q in doc["questions"]:
            expect = q["expect"]
            for a, b in out:
                if a not in asked or b not in asked:
                    continue
                if q["kind"] == "eras":
                    changed = (a in expect) != (b in expect)
                elif isinstance(expect, dict):
                    changed = a in expect and b in expect and expect[a] != expect[b]
                else:
                    changed = False
                if changed:
                    out[(a, b)].add(doc["id"])
    return out


def test_every_era_boundary_has_scenarios_whose_answer_changes_across_it() -> None:
    counts = boundary_counts([read_document(p) for p in FILES])
    for pair, ids in counts.items():
        if pair in NEW_THINGS_ONLY:
            assert not ids, (pair, ids)  # if one appears, this exception is wrong
        else:
            assert len(ids) >= 3, (pair, sorted(ids))


def test_the_library_folder_is_where_the_loader_looks() -> None:
    assert LIBRARY.is_dir() and FILES
