"""Writes for the quiz: starting sessions, serving questions, grading answers (through
the engine, via :mod:`quiz.grading`), spaced repetition."""

from __future__ import annotations

import random
import secrets
from datetime import datetime, timedelta
from typing import Any

import fsrs
from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils import timezone

from engine.eras import CURRENT
from quiz import grading, rawsql
from quiz.models import Attempt, QuizItem, QuizSession, ReviewCard
from quiz.selectors import Candidate, due_cards, question_pool
from scenarios.models import ScenarioVersion

EXAM_LENGTH = 25


class QuizError(Exception):
    """A request the quiz refuses; ``code`` says why (for a translated message)."""

    def __init__(self, code: str) -> None:
        super().__init__(code)
        self.code = code


def _rng() -> random.Random:
    return random.SystemRandom()


def _pick(pool: list[Candidate], length: int, rng: random.Random) -> list[Candidate]:
    """Up to ``length`` questions, spreading over scenarios before repeating one."""
    by_scenario: dict[int, list[Candidate]] = {}
    for c in pool:
        by_scenario.setdefault(c.scenario.pk, []).append(c)
    groups = list(by_scenario.values())
    rng.shuffle(groups)
    for g in groups:
        rng.shuffle(g)
    picked: list[Candidate] = []
    while len(picked) < length and any(groups):
        for g in groups:
            if g and len(picked) < length:
                picked.append(g.pop())
    rng.shuffle(picked)
    return picked


@transaction.atomic
def quiz_start(*, user: Any, session_key: str, mode: str = QuizSession.Mode.PRACTICE,
               topics: list[str] | None = None, era_mode: str = QuizSession.EraMode.CURRENT,
               era: str = "", difficulty_min: int = 1, difficulty_max: int = 5,
               length: int = 10, now: datetime | None = None) -> QuizSession:
    now = now or timezone.now()
    rng = _rng()
    topics = topics or []
    owner = user if getattr(user, "is_authenticated", False) else None
    if mode == QuizSession.Mode.REVIEW:
        if owner is None:
            raise QuizError("login-required")
        cards = list(due_cards(user=owner, now=now)[:length])
        picked = []
        for card in cards:
            version = card.scenario.current_version
            if version is None:
                continue
            eras = tuple(version.eras)
            picked.append(Candidate(card.scenario, card.question_id,
                                    (CURRENT.key,) if CURRENT.key in eras else eras[-1:]))
    else:
        if mode == QuizSession.Mode.EXAM:
            length = EXAM_LENGTH
        pool = question_pool(topics=topics, difficulty_min=difficulty_min,
                             difficulty_max=difficulty_max, era_mode=era_mode, era=era)
        picked = _pick(pool, length, rng)
    if not picked:
        raise QuizError("empty")
    session = QuizSession.objects.create(
        user=owner, session_key="" if owner else session_key, mode=mode, topics=topics,
        era_mode=era_mode, era=era, difficulty_min=difficulty_min,
        difficulty_max=difficulty_max, length=len(picked), created_at=now,
        deadline=now + timedelta(minutes=settings.QUIZ_EXAM_MINUTES)
        if mode == QuizSession.Mode.EXAM else None)
    QuizItem.objects.bulk_create([
        QuizItem(session=session, position=i + 1, version=c.scenario.current_version,
                 question_id=c.question_id, era=rng.choice(c.eras))
        for i, c in enumerate(picked)
    ])
    return session


_VERSIONS: dict[int, ScenarioVersion] = {}


def version_meta(version_id: int) -> ScenarioVersion:
    """A version with its scenario, without its (large) JSON fields, kept per process:
    the versions quizzes serve are published, and a published version never changes.
    Its document is read on first use by ``scenario_of``."""
    version = _VERSIONS.get(version_id)
    if version is None:
        if len(_VERSIONS) > 4096:
            _VERSIONS.clear()
        version = _VERSIONS[version_id] = (
            ScenarioVersion.objects.select_related("scenario")
            .defer("document", "answer_keys", "errors", "warnings", "disagreements")
            .get(pk=version_id))
    return version


def clear_caches() -> None:
    """Forget cached versions and parsed scenarios (tests, whose rolled-back databases
    hand out the same ids again)."""
    from quiz import presenters

    _VERSIONS.clear()
    grading.clear_caches()
    presenters.clear_caches()


def scenario_of(version: ScenarioVersion) -> grading.Scenario:
    return grading.scenario_for(version.pk, version.content_hash, lambda: version.document)


def draw_seed(scenario: grading.Scenario) -> int:
    """A variant for a candidate: any seed of two billion, or 0 when nothing varies."""
    return secrets.randbelow(2**31 - 1) + 1 if scenario.params else 0


def item_serve(*, item: QuizItem, now: datetime | None = None) -> QuizItem:
    """Show a question: its variant is drawn now, once, and kept."""
    if item.seed is not None:
        return item
    scenario = scenario_of(item.version)
    seed = draw_seed(scenario)
    QuizItem.objects.filter(pk=item.pk, seed__isnull=True).update(
        seed=seed, params=scenario.values_for(seed), served_at=now or timezone.now())
    item.refresh_from_db()  # this draw, or the one a concurrent request stored first
    return item


def _check_open(item: QuizItem, now: datetime) -> None:
    session = item.session
    if session.finished_at is not None and not hasattr(item, "attempt"):
        raise QuizError("finished")
    if session.is_expired(now):
        raise QuizError("expired")
    if item.served_at is None or item.seed is None:
        raise QuizError("not-served")


def answer_submit(*, item: QuizItem, data: Any, user: Any, session_key: str,
                  posted_seed: str | None = None, now: datetime | None = None) -> Attempt:
    """Grade an answer and record the attempt: one attempt per served question, whatever
    is posted twice (the first one is returned); the answer key comes from the engine."""
    now = now or timezone.now()
    _check_open(item, now)
    if posted_seed is not None and posted_seed != str(item.seed):
        raise QuizError("tampered")
    assert item.seed is not None
    scenario = scenario_of(item.version)
    expected = grading.expected_answer(scenario, item.question_id, item.era, item.seed)
    existing = getattr(item, "attempt", None)  # the reverse one-to-one raises if absent
    if existing is not None:
        return existing
    answer = grading.parse_answer(expected.question, data, expected.eras)
    correct = grading.is_correct(expected, answer, item.era)
    owner = user if getattr(user, "is_authenticated", False) else None
    elapsed = int((now - item.served_at).total_seconds() * 1000) if item.served_at else 0
    attempt = Attempt(
        item=item, user=owner, session_key="" if owner else session_key,
        version=item.version, question_id=item.question_id, era=item.era,
        seed=item.seed, params=item.params, answer=answer, correct=correct,
        expected=expected.value, time_taken_ms=max(0, min(elapsed, 2**31 - 1)),
        created_at=now)
    insert = rawsql.writer(Attempt)
    values = insert.params(attempt)  # prepared before the write transaction opens
    try:
        with transaction.atomic():
            insert.insert(attempt, values)
            if owner is not None:
                _schedule(user=owner, item=item, correct=correct, now=now)
            if item.position == item.session.length:
                _finish_if_done(item.session, now)
    except IntegrityError:
        return Attempt.objects.get(item=item)
    item.attempt = attempt
    return attempt


def _finish_if_done(session: QuizSession, now: datetime) -> None:
    """After the last question, close the session once every question is answered."""
    if not session.items.filter(attempt__isnull=True).exists():
        QuizSession.objects.filter(pk=session.pk, finished_at__isnull=True).update(
            finished_at=now)


def quiz_finish(*, session: QuizSession, now: datetime | None = None) -> QuizSession:
    """End a session (an exam at its deadline, or when the candidate hands it in)."""
    QuizSession.objects.filter(pk=session.pk, finished_at__isnull=True).update(
        finished_at=now or timezone.now())
    session.refresh_from_db()
    return session


_SCHEDULER = fsrs.Scheduler()


def _schedule(*, user: Any, item: QuizItem, correct: bool, now: datetime) -> ReviewCard:
    """FSRS: a right answer is rated Good, a wrong one Again."""
    scenario = item.version.scenario
    card_row = (ReviewCard.objects.select_for_update()
                .filter(user=user, scenario=scenario, question_id=item.question_id).first())
    card = fsrs.Card.from_dict(card_row.card) if card_row else fsrs.Card()
    rating = fsrs.Rating.Good if correct else fsrs.Rating.Again
    card, _ = _SCHEDULER.review_card(card, rating, review_datetime=now)
    if card_row is None:
        card_row = ReviewCard(user=user, scenario=scenario, question_id=item.question_id)
    card_row.card = card.to_dict()
    card_row.due = card.due
    card_row.reviews += 1
    card_row.lapses += 0 if correct else 1
    card_row.save()
    return card_row
