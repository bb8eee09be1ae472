"""One parametrized test over the whole case corpus, every case in every era it lists."""

from __future__ import annotations

import pytest

from engine import rulebook
from engine.eras import find_era
from engine.errors import DocumentError, Errors, IllegalAction
from engine.kinds.queries import parse_query
from engine.notation import parse
from engine.queries import answer
from engine.runner import play
from tests.engine.corpus import Case, document, load_cases, per_era

CASES = load_cases()


def test_the_corpus_is_large_enough() -> None:
    assert len({(c.file, c.name) for c in CASES}) >= 60
    assert len(CASES) >= 100


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.id)
def test_case(case: Case) -> None:
    era = find_era(case.era)
    scenario = parse(document(case))
    variant = scenario.variant(0)
    has_error, error = per_era(case.raw.get("error"), case.era)
    if has_error and error:
        with pytest.raises(DocumentError) as info:
            play(era, variant)
        err = info.value
        if "rule" in error:
            assert isinstance(err, IllegalAction), err
            assert err.violation.rule_key == error["rule"], err
            assert err.items[0].rule == era.rule(error["rule"])
        if "path" in error:
            assert err.items[0].path == error["path"], err
        if "message" in error:
            assert error["message"] in str(err), err
        return
    state, trace = play(era, variant)
    known = set(state.objects)
    for i, claim in enumerate(case.raw.get("expect", [])):
        applies, value = per_era(claim["is"], case.era)
        if not applies:
            continue
        errors = Errors()
        query = parse_query(claim["query"], f"expect[{i}]", variant.state, known, errors)
        assert query is not None, errors.items
        got = answer(era, state, query)
        if isinstance(value, list) and isinstance(got, list):
            assert sorted(map(str, got)) == sorted(map(str, value)), (claim, trace.as_list())
        else:
            assert got == value, (claim["query"], got, value, trace.as_list())
    applies, cites = per_era(case.raw.get("cites", []), case.era)
    cited = {s.rule_key for s in trace.steps}
    for key in cites or []:
        assert key in cited, (key, sorted(k for k in cited if k))
    applies, numbers = per_era(case.raw.get("numbers", {}), case.era)
    if applies and numbers:
        got_numbers = {s.rule for s in trace.steps}
        for n in numbers:
            assert str(n) in got_numbers, (n, sorted(x for x in got_numbers if x))
    for step in trace.steps:
        if step.rule_key:
            assert step.rule == rulebook.number(step.rule_key, case.era)
