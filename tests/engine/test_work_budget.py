"""The whole check of a document (every variant in every era) has a work budget in engine
steps; a document over it is refused, naming the budget, and the check stops there."""

from __future__ import annotations

from engine import check
from scenarios.library import LIBRARY, read_document


def test_the_library_fits_the_work_budget_with_room_to_spare() -> None:
    document = read_document(LIBRARY / "removed-attack-target" / "rat-downfall-before-blocks.yaml")
    assert check.check_document(document).ok  # 720 steps, the library's largest


def test_a_document_over_the_budget_is_refused_and_the_check_stops(monkeypatch) -> None:
    document = read_document(LIBRARY / "removed-attack-target" / "rat-downfall-before-blocks.yaml")
    runs: list[int] = []
    real = check._run_values

    def counting(*args, **kwargs):
        runs.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(check, "WORK_BUDGET", 100)
    monkeypatch.setattr(check, "_run_values", counting)
    result = check.check_document(document)
    assert not result.ok
    assert [e.path for e in result.errors] == ["params"]
    assert "more than 100 engine steps" in result.errors[0].message
    assert len(runs) < len(list(result.scenario.all_value_sets()))  # stopped early
