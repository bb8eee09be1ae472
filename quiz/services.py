"""Writes for the quiz: starting sessions, serving questions, grading answers (through
the engine, via :mod:`quiz.grading`), spaced repetition."""

from __future__ import annotations

import logging
import random
from datetime import datetime, timedelta
from typing import Any

import fsrs
from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils import timezone

from engine import CURRENT, Era, NoVariant, Scenario, Variant, draw_variant
from quiz import drill, grading, rawsql
from quiz.forms import AnswerError, AnswerForm
from quiz.models import Attempt, QuizItem, QuizSession, ReviewCard
from quiz.selectors import (
    Candidate,
    Servable,
    abandoned_anonymous_sessions,
    due_cards,
    pool_scenarios,
)
from scenarios.caches import memo
from scenarios.models import ProblemReport, ScenarioVersion
from scenarios.presentation.present import outcome_of

EXAM_LENGTH = 25
logger = logging.getLogger(__name__)


class QuizError(Exception):
    """A request the quiz refuses; ``code`` says why (for a translated message)."""

    def __init__(self, code: str) -> None:
        super().__init__(code)
        self.code = code


def _rng() -> random.Random:
    return random.SystemRandom()


def _pick(scenarios: list[tuple[Servable, tuple[str, ...]]], length: int,
          rng: random.Random) -> list[Candidate]:
    """Up to ``length`` questions, spreading over scenarios before repeating one: the
    scenarios in a random order (only as many as there are questions to pick), each
    giving a question at random in turn. The draws grow with ``length``, not with the
    library."""
    chosen = rng.sample(scenarios, min(len(scenarios), length))
    left = [list(s.questions) for s, _ in chosen]
    picked: list[Candidate] = []
    while len(picked) < length and any(left):
        for (s, eras), questions in zip(chosen, left, strict=True):
            if questions and len(picked) < length:
                question = questions.pop(rng.randrange(len(questions)))
                picked.append(Candidate(s.scenario_id, s.version_id, question, eras))
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
            picked.append(Candidate(card.scenario_id, version.pk, card.question_id,
                                    (CURRENT.key,) if CURRENT.key in eras else eras[-1:]))
    elif mode == QuizSession.Mode.DRILL:
        return _drill_start(owner=owner, session_key=session_key, topics=topics,
                            era_mode=era_mode, era=era, now=now, rng=rng)
    else:
        if mode == QuizSession.Mode.EXAM:
            length = EXAM_LENGTH
        scenarios = pool_scenarios(topics=topics, difficulty_min=difficulty_min,
                                   difficulty_max=difficulty_max, era_mode=era_mode, era=era)
        picked = _pick(scenarios, length, rng)
    if not picked:
        raise QuizError("empty")
    session = QuizSession.objects.create(
        user=owner, session_key="" if owner else session_key, mode=mode, topics=topics,
        era_mode=era_mode, era=era, difficulty_min=difficulty_min,
        difficulty_max=difficulty_max, length=len(picked), created_at=now,
        deadline=now + timedelta(minutes=settings.QUIZ_EXAM_MINUTES)
        if mode == QuizSession.Mode.EXAM else None)
    QuizItem.objects.bulk_create([
        QuizItem(session=session, position=i + 1, version_id=c.version_id,
                 question_id=c.question_id, era=rng.choice(c.eras))
        for i, c in enumerate(picked)
    ])
    return session


@memo(maxsize=384)  # ~45 KB per entry, its facts included (scenarios.caches); twice the library
def version_meta(version_id: int) -> ScenarioVersion:
    """A version with its scenario, without its (large) JSON fields, kept per process:
    the versions quizzes serve are published, and a published version never changes.
    Its document is read on first use by ``scenario_of``."""
    return (ScenarioVersion.objects.select_related("scenario")
            .defer("document", "answer_keys", "errors", "warnings", "disagreements",
                   "variants")
            .get(pk=version_id))


def scenario_of(version: ScenarioVersion) -> Scenario:
    return grading.scenario_for(version.pk, version.content_hash, lambda: version.document)


def draw_seed(scenario: Scenario, era: str, question_id: str) -> int:
    """A variant for a candidate: one that asks the question and can be shown in the era
    (the engine's draw skips a card not yet printed then and a board not at rest), or 0
    when nothing varies. Should no draw be found (the check bounds the skips, so this
    is once in far more than a lifetime of draws), the default variant, which the check
    played in every era."""
    def run(era_class: type[Era], variant: Variant) -> object:
        # the page's kept run (presentation.outcome_of): the draw's play is the page's
        return outcome_of(scenario, variant.seed, era_class.key)

    try:
        return draw_variant(scenario, era, question_id, _rng(), run)
    except NoVariant:
        logger.warning("no variant drawn for %s %s in %s", scenario.id, question_id, era)
        return 0


def item_serve(*, item: QuizItem, now: datetime | None = None) -> QuizItem:
    """Show a question: its variant is drawn now, once, and kept (a drill's next question
    comes with its variant already drawn, chosen for its difficulty: it is only marked
    served)."""
    if item.seed is not None and item.served_at is not None:
        return item
    now = now or timezone.now()
    if item.seed is not None:
        QuizItem.objects.filter(pk=item.pk, served_at__isnull=True).update(served_at=now)
    else:
        scenario = scenario_of(item.version)
        seed = draw_seed(scenario, item.era, item.question_id)
        QuizItem.objects.filter(pk=item.pk, seed__isnull=True).update(
            seed=seed, params=scenario.values_for(seed), served_at=now)
    item.refresh_from_db()  # this draw, or the one a concurrent request stored first
    return item


def _drill_start(*, owner: Any, session_key: str, topics: list[str], era_mode: str,
                 era: str, now: datetime, rng: random.Random) -> QuizSession:
    """An endless drill (``quiz.drill``): the first question at the starting level."""
    session = QuizSession(
        user=owner, session_key="" if owner else session_key, mode=QuizSession.Mode.DRILL,
        topics=topics, era_mode=era_mode, era=era, length=1, created_at=now,
        level=drill.LEVEL_START)
    first = drill.pick(session, drill.LEVEL_START, rng, set())
    if first is None:
        raise QuizError("empty")
    session.save()
    _drill_item(session, 1, first)
    return session


def _drill_item(session: QuizSession, position: int, chosen: drill.Pick) -> QuizItem:
    scenario = scenario_of(version_meta(chosen.version_id))
    return QuizItem.objects.create(
        session=session, position=position, version_id=chosen.version_id,
        question_id=chosen.question_id, era=chosen.era, seed=chosen.seed,
        params=scenario.values_for(chosen.seed))


def _drill_next(item: QuizItem, correct: bool) -> tuple[float, drill.Pick | None] | None:
    """After the answer to a drill's latest question: its new level and next question
    (drawn before the attempt's transaction opens: the engine runs outside it). None
    for any other item."""
    session = item.session
    if not session.is_drill or item.position != session.length:
        return None
    level = drill.next_level(session.level or drill.LEVEL_START, correct)
    recent = set(QuizItem.objects.filter(session=session).order_by("-position")
                 .values_list("version__scenario_id", flat=True)[:drill.RECENT])
    return level, drill.pick(session, level, _rng(), recent)


def _check_open(item: QuizItem, now: datetime) -> None:
    session = item.session
    if session.finished_at is not None and not hasattr(item, "attempt"):
        raise QuizError("finished")
    if session.is_expired(now):
        raise QuizError("expired")
    if item.served_at is None or item.seed is None:
        raise QuizError("not-served")


def answer_submit(*, item: QuizItem, data: Any, user: Any, session_key: str,
                  posted_seed: str | None = None,
                  now: datetime | None = None) -> tuple[Attempt, bool]:
    """Grade an answer and record the attempt: one attempt per served question, whatever
    is posted twice. Returns the attempt and whether this call recorded it (False: an
    answer was already recorded -- a resubmitted form, a second tab, a raced double
    click -- and that first attempt is returned unchanged). ``data`` (the posted form)
    is read by ``quiz.forms.AnswerForm``: AnswerError, with the form's errors, if it is
    refused. The answer key comes from the engine."""
    now = now or timezone.now()
    _check_open(item, now)
    if posted_seed is not None and posted_seed != str(item.seed):
        raise QuizError("tampered")
    assert item.seed is not None
    scenario = scenario_of(item.version)
    expected = grading.expected_answer(scenario, item.question_id, item.era, item.seed)
    existing = getattr(item, "attempt", None)  # the reverse one-to-one raises if absent
    if existing is not None:
        return existing, False
    form = AnswerForm.for_answer_key(expected, data)
    if not form.is_valid():
        raise AnswerError(form)
    answer = form.answer
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
    following = _drill_next(item, correct)
    try:
        with transaction.atomic():
            insert.insert(attempt, values)
            if owner is not None:
                _schedule(user=owner, item=item, correct=correct, now=now)
            if following is not None:
                _drill_append(item, *following)
            elif item.position == item.session.length:
                _finish_if_done(item.session, now)
    except IntegrityError:
        existing = Attempt.objects.filter(item=item).first()
        if existing is None:  # the item went in the meantime: a drill stopped meanwhile
            raise QuizError("finished") from None
        return existing, False
    item.attempt = attempt
    return attempt, True


def _drill_append(item: QuizItem, level: float, chosen: drill.Pick | None) -> None:
    """The drill's new level, and its next question after ``item`` (its last), inside
    the attempt's transaction: a second answer to ``item`` rolls both back."""
    session = item.session
    grown = session.length + (chosen is not None)
    if not QuizSession.objects.filter(pk=session.pk, length=item.position,
                                      finished_at__isnull=True).update(
            level=level, length=grown):
        return  # stopped meanwhile: nothing comes after
    session.level, session.length = level, grown
    if chosen is not None:
        _drill_item(session, item.position + 1, chosen)


def _finish_if_done(session: QuizSession, now: datetime) -> None:
    """After the last question, close the session once every question is answered."""
    if not session.items.filter(attempt__isnull=True).exists():
        QuizSession.objects.filter(pk=session.pk, finished_at__isnull=True).update(
            finished_at=now)


def quiz_finish(*, session: QuizSession, now: datetime | None = None) -> QuizSession:
    """End a session: handed in by the candidate, or an exam whose time is up, which is
    recorded as closed at its deadline (whenever the server notices)."""
    now = now or timezone.now()
    if session.deadline is not None and now > session.deadline:
        now = session.deadline
    with transaction.atomic():
        closed = QuizSession.objects.filter(pk=session.pk, finished_at__isnull=True).update(
            finished_at=now)
        if closed and session.is_drill:
            # A drill stops when the candidate wants: the question waiting unanswered was
            # never part of it (one that was shown is kept only if none was answered).
            answered = session.items.filter(attempt__isnull=False).count()
            if answered:
                session.items.filter(attempt__isnull=True).delete()
                QuizSession.objects.filter(pk=session.pk).update(length=answered)
    session.refresh_from_db()
    return session


def item_flag(*, item: QuizItem, flagged: bool) -> QuizItem:
    """Mark a question to come back to (or unmark it). Answered or not, in an open
    session only: a finished session's flags no longer mean anything."""
    if item.session.finished_at is not None or item.session.is_expired():
        raise QuizError("finished")
    QuizItem.objects.filter(pk=item.pk).update(flagged=flagged)
    item.flagged = flagged
    return item


@transaction.atomic
def quiz_start_retry(*, session: QuizSession, user: Any, session_key: str,
                     now: datetime | None = None) -> QuizSession:
    """A practice session of the questions answered wrongly in ``session`` (and, once it
    is finished, of those left unanswered, which count as wrong): the same scenario
    versions, questions and eras, with variants drawn afresh."""
    now = now or timezone.now()
    missed = Q(attempt__correct=False)
    if session.finished_at is not None:
        missed |= Q(attempt__isnull=True)
    wrong = list(session.items.filter(missed).order_by("position"))
    if not wrong:
        raise QuizError("empty")
    owner = user if getattr(user, "is_authenticated", False) else None
    retry = QuizSession.objects.create(
        user=owner, session_key="" if owner else session_key,
        mode=QuizSession.Mode.PRACTICE, topics=session.topics, era_mode=session.era_mode,
        era=session.era, difficulty_min=session.difficulty_min,
        difficulty_max=session.difficulty_max, length=len(wrong), created_at=now)
    QuizItem.objects.bulk_create([
        QuizItem(session=retry, position=i + 1, version_id=w.version_id,
                 question_id=w.question_id, era=w.era)
        for i, w in enumerate(wrong)
    ])
    return retry


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


@transaction.atomic
def quiz_sessions_claim(*, user: Any, session_key: str) -> tuple[int, int]:
    """Give a candidate who signs up or logs in the quizzes and answers this browser made
    anonymously: Django's login gives the browser a new session key, which would orphan
    them. The sessions and attempts move to the user; then the review cards of the
    questions answered are rebuilt by replaying, in time order, every answer the user
    now has to them, as if all had been given signed in. ``session_key`` is the key from
    before login. Returns (sessions, attempts) claimed."""
    if not session_key or not getattr(user, "is_authenticated", False):
        return 0, 0
    attempts = Attempt.objects.filter(user__isnull=True, session_key=session_key)
    questions = set(attempts.values_list("version__scenario_id", "question_id"))
    claimed_attempts = attempts.update(user=user, session_key="")
    claimed_sessions = (QuizSession.objects.filter(user__isnull=True, session_key=session_key)
                        .update(user=user, session_key=""))
    ProblemReport.objects.filter(user__isnull=True, session_key=session_key).update(
        user=user, session_key="")  # the problem reports sent from those quizzes too
    if questions:
        _review_cards_rebuild(user=user, questions=questions)
    return claimed_sessions, claimed_attempts


def _review_cards_rebuild(*, user: Any, questions: set[tuple[int, str]]) -> None:
    """Schedule ``questions`` (scenario id, question id) afresh from the user's attempts,
    oldest first: an answer given anonymously may be older than one given signed in."""
    scenario_ids = {s for s, _ in questions}
    question_ids = {q for _, q in questions}
    stale = [pk for pk, s, q in ReviewCard.objects.filter(
        user=user, scenario_id__in=scenario_ids, question_id__in=question_ids)
        .values_list("pk", "scenario_id", "question_id") if (s, q) in questions]
    ReviewCard.objects.filter(pk__in=stale).delete()
    history = (Attempt.objects.filter(user=user, version__scenario_id__in=scenario_ids,
                                      question_id__in=question_ids)
               .select_related("item__version__scenario").order_by("created_at", "pk"))
    for attempt in history:
        item = attempt.item
        if (item.version.scenario_id, attempt.question_id) in questions:
            _schedule(user=user, item=item, correct=attempt.correct, now=attempt.created_at)


def quiz_sessions_purge(*, created_before: datetime, now: datetime | None = None,
                        dry_run: bool = False, batch: int = 500) -> tuple[int, int]:
    """Delete abandoned anonymous quizzes (see ``abandoned_anonymous_sessions``) with their
    questions, a batch per transaction so a large purge never holds the database long.
    Attempts are never deleted: a session with one is not abandoned. Returns (sessions,
    items) deleted, or that would be with ``dry_run``."""
    abandoned = abandoned_anonymous_sessions(created_before=created_before,
                                             now=now or timezone.now())
    if dry_run:
        return abandoned.count(), QuizItem.objects.filter(session__in=abandoned).count()
    sessions = items = 0
    while True:
        with transaction.atomic():
            ids = list(abandoned.values_list("pk", flat=True)[:batch])
            if not ids:
                return sessions, items
            _, deleted = abandoned.filter(pk__in=ids).delete()
        sessions += deleted.get(QuizSession._meta.label, 0)
        items += deleted.get(QuizItem._meta.label, 0)
