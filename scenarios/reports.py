"""Writes for problem reports: a candidate raises one on a question they answered, an
instructor replies, closes and reopens it.

The quiz is a layer above this app, so the quiz hands the values of the attempt over as a
:class:`ReportSource` instead of this module reading quiz tables. One report per quiz item
may be open at a time (a partial unique constraint keeps that true under concurrency too).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.contrib.auth.models import AnonymousUser, User
from django.db import IntegrityError, transaction
from django.utils import timezone

from scenarios.models import ProblemReport, ScenarioVersion


class ReportRefused(Exception):
    """A report the rules refuse; ``code`` names why (``open-exists``)."""

    def __init__(self, code: str) -> None:
        self.code = code
        super().__init__(code)


@dataclass(frozen=True, slots=True)
class ReportSource:
    """What the candidate was shown and answered: copied onto the report as it was."""

    version_id: int
    question_id: str
    era: str
    seed: int
    correct: bool
    quiz_item: int
    params: dict[str, Any] = field(default_factory=dict)
    answer: Any = None


def _clean(report: ProblemReport) -> None:
    """``full_clean`` for the values typed or copied (choices, lengths); the foreign keys
    are objects just read, and the one open report is checked by the insert itself."""
    report.full_clean(exclude=["scenario", "version", "user", "replied_by", "closed_by"],
                      validate_constraints=False)


def _open_exists(quiz_item: int, *, exclude: int | None = None) -> bool:
    reports = ProblemReport.objects.open().filter(quiz_item=quiz_item)
    if exclude is not None:
        reports = reports.exclude(pk=exclude)
    return reports.exists()


@transaction.atomic
def report_create(*, source: ReportSource, user: User | AnonymousUser | None,
                  session_key: str, language: str, kind: str, text: str = "",
                  ) -> ProblemReport:
    """Store a candidate's report with the attempt's values. Refused while the candidate
    has an open report on the same quiz item (an instructor answers it first)."""
    if _open_exists(source.quiz_item):
        raise ReportRefused("open-exists")
    version = ScenarioVersion.objects.only("pk", "scenario_id").get(pk=source.version_id)
    signed_in = user if user is not None and user.is_authenticated else None
    report = ProblemReport(
        scenario_id=version.scenario_id, version=version, question_id=source.question_id,
        era=source.era, seed=source.seed, params=source.params, answer=source.answer,
        correct=source.correct, quiz_item=source.quiz_item,
        user=signed_in, session_key="" if signed_in is not None else session_key,
        language=language[:8], kind=kind, text=text.strip())
    _clean(report)
    try:
        with transaction.atomic():
            report.save()
    except IntegrityError as err:  # a concurrent request stored one first
        raise ReportRefused("open-exists") from err
    return report


@transaction.atomic
def report_reply(*, report: ProblemReport, by: User, reply: str,
                 ) -> ProblemReport:
    """Save (or change) the instructor's answer, which the candidate sees under the
    question; the report stays open."""
    report.reply = reply.strip()
    report.replied_by = by
    report.replied_at = timezone.now()
    _clean(report)
    report.save(update_fields=["reply", "replied_by", "replied_at"])
    return report


@transaction.atomic
def report_close(*, report: ProblemReport, by: User, reply: str = "",
                 ) -> ProblemReport:
    """Close a report, saving ``reply`` with it when one is given."""
    if reply.strip():
        report_reply(report=report, by=by, reply=reply)
    report.closed_at = timezone.now()
    report.closed_by = by
    report.save(update_fields=["closed_at", "closed_by"])
    return report


@transaction.atomic
def report_reopen(*, report: ProblemReport) -> ProblemReport:
    """Open a closed report again; refused if the candidate has since opened another on
    the same quiz item."""
    if _open_exists(report.quiz_item, exclude=report.pk):
        raise ReportRefused("open-exists")
    report.closed_at = None
    report.closed_by = None
    try:
        with transaction.atomic():
            report.save(update_fields=["closed_at", "closed_by"])
    except IntegrityError as err:
        raise ReportRefused("open-exists") from err
    return report
