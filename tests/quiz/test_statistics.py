"""The per-question statistics (quiz.selectors.question_stats) from the tallies and grouped
queries: the same numbers as the formula that read every attempt, and a cost that doesn't
grow with the attempts."""

from __future__ import annotations

import io
import json
import random
import statistics
from collections import Counter, defaultdict
from datetime import timedelta
from typing import Any

import pytest
from django.db import connection
from django.db.models import Q
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone, translation

from quiz.models import Attempt, CandidateScore, QuestionTally, QuizItem, QuizSession
from quiz.selectors import QuestionStats, point_biserial, point_biserial_grouped, question_stats
from scenarios.models import Scenario
from scenarios.services import scenario_import
from tests.factories import InstructorFactory, ScenarioFactory, UserFactory, scenario_document

pytestmark = pytest.mark.django_db


def _candidate(attempt: Any) -> str:
    return f"u{attempt.user_id}" if attempt.user_id else f"s{attempt.session_key}"


def old_question_stats(scenario: Scenario) -> list[QuestionStats]:
    """The statistics as computed before the tallies, from every attempt of every
    candidate who answered the scenario (kept here as the reference)."""
    attempts = list(Attempt.objects.filter(version__scenario=scenario)
                    .only("question_id", "correct", "answer", "era", "params",
                          "time_taken_ms", "user_id", "session_key"))
    if not attempts:
        return []
    candidates = {_candidate(a) for a in attempts}
    overall: dict[str, list[int]] = defaultdict(list)
    for a in (Attempt.objects.filter(Q(user_id__in=[c[1:] for c in candidates
                                                    if c.startswith("u")])
                                     | Q(session_key__in=[c[1:] for c in candidates
                                                          if c.startswith("s")]))
              .only("correct", "user_id", "session_key")):
        overall[_candidate(a)].append(int(a.correct))
    score = {c: statistics.fmean(v) for c, v in overall.items() if v}
    by_question: dict[str, list[Any]] = defaultdict(list)
    for a in attempts:
        by_question[a.question_id].append(a)
    version = scenario.current_version or scenario.latest_version()
    assert version is not None
    order = [q["id"] for q in version.document.get("questions", [])]
    out = []
    for qid in sorted(by_question, key=lambda q: order.index(q) if q in order else 99):
        rows = by_question[qid]
        stats = QuestionStats(qid, len(rows))
        stats.facility = statistics.fmean(int(a.correct) for a in rows)
        stats.discrimination = point_biserial([int(a.correct) for a in rows],
                                              [score.get(_candidate(a), 0.0) for a in rows])
        stats.median_ms = statistics.median(a.time_taken_ms for a in rows)
        wrong = Counter(json.dumps(a.answer, ensure_ascii=False, sort_keys=True)
                        for a in rows if not a.correct)
        stats.wrong_answers = wrong.most_common(8)
        eras: dict[str, list[int]] = defaultdict(list)
        params: dict[tuple[str, str], list[int]] = defaultdict(list)
        for a in rows:
            eras[a.era].append(int(a.correct))
            for name, value in (a.params or {}).items():
                params[(name, str(value))].append(int(a.correct))
        stats.by_era = [(e, len(v), statistics.fmean(v)) for e, v in sorted(eras.items())]
        stats.by_param = [(n, val, len(v), statistics.fmean(v))
                          for (n, val), v in sorted(params.items())]
        out.append(stats)
    return out


ANSWERS = [14, 20, 3, "yes", "Sí", ["a", "b"], ["b", "a"], {"x": 1, "y": 2}, {"y": 2, "x": 1},
           True, ""]


def _answers(rng: random.Random, scenarios: list[Scenario], *, candidates: int,
             attempts: int) -> None:
    """Random attempts by signed-in and anonymous candidates, in distinct instants."""
    users = [UserFactory() for _ in range(candidates // 2)]
    owners = [(u, "") for u in users] + [(None, f"key{n}") for n in range(candidates // 2)]
    versions = [v for s in scenarios for v in s.versions.all()]
    start = timezone.now() - timedelta(days=30)
    made = 0
    while made < attempts:
        owner, key = rng.choice(owners)
        session = QuizSession.objects.create(user=owner, session_key=key, length=10)
        items, rows = [], []
        for position in range(1, 11):
            version = rng.choice(versions)
            question = rng.choice(["life", "life", "damage", "gone", "also-gone"])
            era = rng.choice(["fdn-2024", "m10-2009", "dom-2018"])
            params = rng.choice([{}, {"n": rng.randint(1, 3)},
                                 {"n": 2, "who": rng.choice(["bob", "Bjørn", True])}])
            items.append(QuizItem(session=session, position=position, version=version,
                                  question_id=question, era=era, seed=0, params=params))
        QuizItem.objects.bulk_create(items)
        for item in items:
            made += 1
            correct = rng.random() < 0.6
            rows.append(Attempt(
                item=item, user=owner, session_key=key, version=item.version,
                question_id=item.question_id, era=item.era, seed=0, params=item.params,
                answer=20 if correct else rng.choice(ANSWERS), correct=correct, expected=20,
                time_taken_ms=rng.choice([500, 1000, 1000, 2500, rng.randint(0, 9000)]),
                created_at=start + timedelta(seconds=made)))
        Attempt.objects.bulk_create(rows)


@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_statistics_equal_the_formula_over_every_attempt(seed: int) -> None:
    rng = random.Random(seed)
    scenario = ScenarioFactory(slug="measured")
    scenario_import(document=scenario_document("measured", story={
        "en": "Alice attacks again.", "it": "Alice attacca ancora.", "es": "Alice ataca."}))
    other = ScenarioFactory(slug="other")
    _answers(rng, [scenario, other], candidates=rng.choice([4, 12, 30]),
             attempts=rng.choice([40, 200, 400]))
    assert scenario.versions.count() == 2

    new, old = question_stats(scenario), old_question_stats(scenario)

    assert [s.question for s in new] == [s.question for s in old]
    for mine, theirs in zip(new, old, strict=True):
        assert mine == theirs  # every field, floats bit for bit


def test_statistics_of_a_scenario_never_answered_are_empty() -> None:
    assert question_stats(ScenarioFactory()) == []


def test_grouped_point_biserial_is_the_listed_one_bit_for_bit() -> None:
    rng = random.Random(7)
    for _ in range(300):
        groups = [(rng.random() < 0.5, rng.randint(0, 9) / rng.randint(1, 9), rng.randint(1, 4))
                  for _ in range(rng.randint(1, 8))]
        item = [int(r) for r, _, n in groups for _ in range(n)]
        totals = [s for _, s, n in groups for _ in range(n)]
        assert point_biserial_grouped(groups) == point_biserial(item, totals)


def test_the_tallies_follow_inserts_claims_and_deletes() -> None:
    scenario = ScenarioFactory()
    _answers(random.Random(5), [scenario], candidates=4, attempts=30)

    def recount() -> tuple[dict[str, tuple[int, int]], dict[tuple[Any, ...], tuple[int, int]]]:
        scores: dict[str, list[int]] = defaultdict(lambda: [0, 0])
        tallies: dict[tuple[Any, ...], list[int]] = defaultdict(lambda: [0, 0])
        for a in Attempt.objects.all():
            for tally in (scores[_candidate(a)], tallies[(a.version_id, a.question_id, a.era)]):
                tally[0] += 1
                tally[1] += a.correct
        return ({c: tuple(v) for c, v in scores.items()},
                {k: tuple(v) for k, v in tallies.items()})

    def stored() -> tuple[dict[str, tuple[int, int]], dict[tuple[Any, ...], tuple[int, int]]]:
        return ({s.candidate: (s.attempts, s.correct)
                 for s in CandidateScore.objects.filter(attempts__gt=0)},
                {(t.version_id, t.question_id, t.era): (t.attempts, t.correct)
                 for t in QuestionTally.objects.filter(attempts__gt=0)})

    assert stored() == recount()
    anonymous = Attempt.objects.filter(user__isnull=True).first()
    assert anonymous is not None
    claimer = UserFactory()  # claiming moves an anonymous browser's answers to a user
    Attempt.objects.filter(session_key=anonymous.session_key).update(user=claimer, session_key="")
    Attempt.objects.filter(pk=Attempt.objects.first().pk).update(correct=False)  # type: ignore[union-attr]
    assert stored() == recount()
    Attempt.objects.filter(user__isnull=False).first().user.delete()  # type: ignore[union-attr]
    assert stored() == recount()


def _stats_queries(client: Any, slug: str) -> int:
    client.get(reverse("quiz:scenario_stats", args=[slug]))  # the client's first request
    with CaptureQueriesContext(connection) as captured:
        response = client.get(reverse("quiz:scenario_stats", args=[slug]))
    assert response.status_code == 200
    return len(captured)


def test_the_statistics_page_runs_as_many_queries_at_ten_times_the_attempts(
        instructor: Any, client: Any) -> None:
    small, large = ScenarioFactory(slug="small"), ScenarioFactory(slug="large")
    _answers(random.Random(1), [small], candidates=4, attempts=30)
    _answers(random.Random(2), [large], candidates=40, attempts=300)
    client.force_login(instructor)

    assert _stats_queries(client, "small") == _stats_queries(client, "large")


def test_candidates_may_not_read_the_statistics(candidate: Any, client: Any) -> None:
    ScenarioFactory(slug="s1")
    client.force_login(candidate)
    assert client.get(reverse("quiz:scenario_stats", args=["s1"])).status_code == 403


# -- snapshots of the scenarios with many attempts ------------------------------------

def test_a_large_scenario_shows_the_snapshot_the_command_stored(
        instructor: Any, client: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    from django.core.management import call_command

    from quiz import selectors
    from quiz.models import QuestionStatsSnapshot

    monkeypatch.setattr(selectors, "LIVE_STATISTICS_LIMIT", 50)
    small, large = ScenarioFactory(slug="small"), ScenarioFactory(slug="large")
    _answers(random.Random(8), [small], candidates=4, attempts=20)
    _answers(random.Random(9), [large], candidates=30, attempts=300)
    live = question_stats(large)

    call_command("refresh_question_stats", stdout=io.StringIO())

    assert list(QuestionStatsSnapshot.objects.values_list("scenario__slug", flat=True)) \
        == ["large"]
    shown, computed_at = selectors.question_stats_shown(large)
    assert shown == live and computed_at is not None  # the same figures, kept
    assert selectors.question_stats_shown(small) == (question_stats(small), None)
    client.force_login(instructor)
    page = client.get(reverse("quiz:scenario_stats", args=["large"])).content.decode()
    assert "Computed at" in page
    # what the page reads no longer depends on the attempts: ten times more, same queries
    before = _stats_queries(client, "large")
    _answers(random.Random(10), [large], candidates=30, attempts=300)
    assert _stats_queries(client, "large") == before


def test_without_a_snapshot_yet_a_large_scenario_is_computed_on_view(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from quiz import selectors

    monkeypatch.setattr(selectors, "LIVE_STATISTICS_LIMIT", 5)
    scenario = ScenarioFactory()
    _answers(random.Random(11), [scenario], candidates=4, attempts=20)

    assert selectors.question_stats_shown(scenario) == (question_stats(scenario), None)


def test_facility_is_broken_down_by_the_drawn_cards_keywords() -> None:
    """Issue 18: with or without deathtouch (Typhoid Rats has it, Grizzly Bears and Hill
    Giant don't; Vampire Nighthawk has deathtouch, flying and lifelink)."""
    scenario = ScenarioFactory(slug="feat")
    version = scenario.versions.get()
    session = QuizSession.objects.create(length=40, session_key="k")
    draws = ([("typhoid-rats", True)] * 6 + [("vampire-nighthawk", False)] * 2
             + [("grizzly-bears", False)] * 8 + [("hill-giant", True)] * 4)
    for position, (card, correct) in enumerate(draws, start=1):
        item = QuizItem.objects.create(session=session, position=position, version=version,
                                       question_id="life", era="fdn-2024", seed=position,
                                       params={"blk": card, "n": 2})
        Attempt.objects.create(item=item, session_key="k", version=version, question_id="life",
                               era="fdn-2024", seed=position, params=item.params,
                               answer=20, correct=correct, expected=20, time_taken_ms=1000)
    [stats] = question_stats(scenario)
    rows = {(name, keyword): rest for name, keyword, *rest in stats.by_feature}
    n, f, n_without, f_without = rows[("blk", "deathtouch")]
    assert (n, n_without) == (8, 12)
    assert f == pytest.approx(6 / 8) and f_without == pytest.approx(4 / 12)
    assert ("blk", "flying") in rows and ("n", "flying") not in rows
    client = Client()
    client.force_login(InstructorFactory())
    with translation.override("it"):
        html = client.get(reverse("quiz:scenario_stats", args=["feat"])).content.decode()
    assert "tocco letale" in html  # the keyword in the page's language
    assert "0,75 (8)" in html and "0,33 (12)" in html
