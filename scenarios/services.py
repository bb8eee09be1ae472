"""Writes for scenarios: the one validation service, import, publish, export, re-check.

Every path that brings a document in (the library loader, instructor authoring, file
upload, the command line) goes through :func:`scenario_validate`; nothing is written for
a document that does not validate.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.utils import timezone

from engine.check import CheckResult, check_document, translation_warnings
from engine.errors import ErrorItem
from scenarios.models import Scenario, ScenarioVersion


@dataclass(slots=True)
class Report:
    """What the validation service found: errors block saving; ``publish_errors`` block
    publishing (missing translations, disagreements with ``expect``)."""

    check: CheckResult
    publish_errors: list[ErrorItem] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.check.errors

    @property
    def publishable(self) -> bool:
        return self.ok and not self.check.disagreements and not self.publish_errors

    @property
    def errors(self) -> list[dict[str, Any]]:
        return [e.as_dict() for e in self.check.errors]

    @property
    def warnings(self) -> list[dict[str, Any]]:
        return [w.as_dict() for w in self.check.warnings]


class ScenarioInvalid(Exception):
    def __init__(self, report: Report) -> None:
        self.report = report
        super().__init__("; ".join(f"{e['path']}: {e['message']}" for e in report.errors))


class NotPublishable(Exception):
    def __init__(self, report: Report) -> None:
        self.report = report
        reasons = [f"{e.path}: {e.message}" for e in report.publish_errors]
        reasons += [f"{d['question']} in {d['era']}: expect {d['expected']!r}, engine "
                    f"{d['engine']!r}" for d in report.check.disagreements]
        super().__init__("; ".join(reasons))


def content_hash(document: Any) -> str:
    canonical = json.dumps(document, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(canonical.encode("utf-8")).hexdigest()


def scenario_validate(*, document: Any) -> Report:
    """Parse, expand every variant, run every question in every era, compare with
    ``expect``, check translations."""
    check = check_document(document)
    report = Report(check)
    if check.errors:
        return report
    report.publish_errors.extend(translation_warnings(document))  # also among the warnings
    return report


@dataclass(frozen=True, slots=True)
class ImportResult:
    scenario: Scenario
    version: ScenarioVersion
    outcome: str  # "created", "updated" or "unchanged"


@transaction.atomic
def scenario_import(*, document: Any, author: AbstractBaseUser | None = None,
                    source_path: str = "", publish: bool = True) -> ImportResult:
    """Store a document as a new version of its scenario (creating the scenario if new).

    An unchanged document adds nothing. An invalid one raises :class:`ScenarioInvalid`
    and writes nothing. With ``publish``, a valid, complete document becomes the
    scenario's published version (or :class:`NotPublishable` is raised).
    """
    report = scenario_validate(document=document)
    if not report.ok:
        raise ScenarioInvalid(report)
    if publish and not report.publishable:
        raise NotPublishable(report)
    digest = content_hash(document)
    slug = document["id"]
    scenario = Scenario.objects.select_for_update().filter(slug=slug).first()
    created = scenario is None
    if scenario is None:
        scenario = Scenario.objects.create(
            slug=slug, topic=document["topic"], difficulty=document["difficulty"],
            author=author, source_path=source_path)
    latest = scenario.latest_version()
    if latest is not None and latest.content_hash == digest:
        if publish and not latest.is_published:
            scenario_publish(scenario=scenario, version=latest, report=report)
        return ImportResult(scenario, latest, "unchanged")
    version = _new_version(scenario=scenario, document=document, report=report,
                           digest=digest, author=author)
    scenario.topic = document["topic"]
    scenario.difficulty = document["difficulty"]
    if source_path:
        scenario.source_path = source_path
    scenario.save()
    if publish:  # validated above, and found publishable
        scenario_publish(scenario=scenario, version=version, report=report)
    return ImportResult(scenario, version, "created" if created else "updated")


def _new_version(*, scenario: Scenario, document: Any, report: Report, digest: str,
                 author: AbstractBaseUser | None) -> ScenarioVersion:
    latest = scenario.latest_version()
    version = ScenarioVersion(
        scenario=scenario, number=(latest.number + 1) if latest else 1, document=document,
        content_hash=digest, created_by=author, eras=list(report.check.eras),
        answer_keys=report.check.answers, errors=report.errors, warnings=report.warnings,
        disagreements=report.check.disagreements)
    version.full_clean(exclude=["scenario", "created_by"])
    version.save()
    return version


@transaction.atomic
def scenario_publish(*, scenario: Scenario, version: ScenarioVersion,
                     report: Report | None = None) -> ScenarioVersion:
    """Make ``version`` the published one: it must be valid, complete in all three
    languages and agree with the engine. ``report``: the validation of this very document,
    when the caller has just made it (an import), so that it isn't run twice."""
    if version.published_at is None:
        report = report or scenario_validate(document=version.document)
        if not report.publishable:
            raise NotPublishable(report)
        version.published_at = timezone.now()
        version.save()
    scenario.current_version = version
    scenario.status = Scenario.Status.PUBLISHED
    scenario.save(update_fields=["current_version", "status", "updated_at"])
    return version


@transaction.atomic
def scenario_retire(*, scenario: Scenario) -> Scenario:
    """Hide a scenario from new quizzes; its versions and attempts stay."""
    scenario.status = Scenario.Status.RETIRED
    scenario.save(update_fields=["status", "updated_at"])
    return scenario


def scenario_export(*, scenario: Scenario) -> dict[str, Any]:
    """The document of the published version (else the latest draft)."""
    version = scenario.current_version or scenario.latest_version()
    if version is None:
        raise ValueError(f"{scenario.slug} has no version")
    return dict(version.document)


@dataclass(frozen=True, slots=True)
class AnswerChange:
    scenario: str
    version: int
    era: str
    question: str
    stored: Any
    now: Any


def scenarios_recheck() -> list[AnswerChange]:
    """Re-run every published version through the current engine and list each
    question whose answer key changed since it was published."""
    changes: list[AnswerChange] = []
    versions = ScenarioVersion.objects.filter(published_at__isnull=False).select_related(
        "scenario").order_by("scenario__slug", "number")
    for version in versions:
        check = check_document(version.document)
        now = check.answers if not check.errors else {}
        eras = set(version.answer_keys) | set(now)
        for era in sorted(eras):
            before = version.answer_keys.get(era, {})
            after = now.get(era, {})
            for qid in sorted(set(before) | set(after)):
                if before.get(qid) != after.get(qid):
                    changes.append(AnswerChange(version.scenario.slug, version.number, era,
                                                qid, before.get(qid), after.get(qid)))
    return changes
