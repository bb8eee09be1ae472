"""Writes for scenarios: the one validation service, import, publish, export, re-check.

Every path that brings a document in (the library loader, instructor authoring, file
upload, the command line) goes through :func:`scenario_validate`; nothing is written for
a document that does not validate.

Validated once, kept: a version stores what its check found (eras, answer keys, errors,
warnings, disagreements, the rules its traces cite) and the fingerprint of the engine
that checked it (:func:`engine_fingerprint`). Editors and rule pages read what is stored;
a library file whose bytes and engine are those of its scenario's latest version is not
read again (:func:`scenario_load`). A check made by another engine is never trusted: it
is made again (and stored, when the answer keys came out the same).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Container, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml
from django.conf import settings
from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import OuterRef, Q, Subquery
from django.utils import timezone

import engine
from engine import (
    CheckResult,
    ErrorItem,
    check_document,
    find_era,
    run_variant,
    translation_warnings,
)
from engine import Scenario as Parsed
from scenarios.library import read_document, read_source
from scenarios.models import FACT_FIELDS, Scenario, ScenarioVersion

# Bump when what a version stores from its check changes (a new stored result, a new
# meaning): every stored check is then made again, once.
CHECK_FORMAT = 2  # 2: a generator's survey (ScenarioVersion.variants)


def _fingerprint() -> str:
    """A hash of every file of the engine package (its code and its data: eras, rule
    catalogue, cards, schema), the YAML library that reads documents, and
    :data:`CHECK_FORMAT`."""
    digest = hashlib.sha256(f"check {CHECK_FORMAT}; yaml {yaml.__version__}".encode())
    root = Path(engine.__file__).parent
    for path in sorted(root.rglob("*")):
        if path.is_file() and "__pycache__" not in path.parts and path.suffix != ".pyc":
            digest.update(b"\0" + path.relative_to(root).as_posix().encode() + b"\0")
            digest.update(path.read_bytes())
    return digest.hexdigest()


# Once per process (about 6 ms), at import: the engine a process runs is the one it loaded.
_ENGINE_FINGERPRINT = _fingerprint()


def engine_fingerprint() -> str:
    """What made a stored check (:func:`_fingerprint`): any change to the engine's files,
    to PyYAML's version or to :data:`CHECK_FORMAT` makes every stored check stale."""
    return _ENGINE_FINGERPRINT


@dataclass(slots=True)
class Report:
    """What the validation service found: errors block saving; ``publish_errors`` block
    publishing (missing translations, disagreements with ``expect``)."""

    check: CheckResult
    publish_errors: list[ErrorItem] = field(default_factory=list)
    cited_rules: list[str] = field(default_factory=list)

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
    ``expect``, check translations; list the rules the traces cite."""
    check = check_document(document)
    report = Report(check)
    if check.errors:
        return report
    # the site's languages required to publish (also among the check's warnings)
    report.publish_errors.extend(translation_warnings(
        document, settings.QUIZ_REQUIRED_LANGUAGES))
    assert check.scenario is not None  # checked without errors: parsed
    report.cited_rules = rules_cited(check.scenario, check.eras)
    return report


def rules_cited(scenario: Parsed, eras: Iterable[str]) -> list[str]:
    """The rule keys the traces of variant 0 cite, in any of ``eras`` (the rule pages list
    the scenarios citing a rule); an era in which the variant no longer runs cites none."""
    variant = scenario.variant(0)
    keys: set[str] = set()
    for era in eras:
        try:
            outcome = run_variant(find_era(era), variant)
        except Exception:  # noqa: BLE001 - a stored version that no longer runs
            continue
        keys.update(step.rule_key for step in outcome.trace.steps if step.rule_key)
    return sorted(keys)


@dataclass(frozen=True, slots=True)
class ImportResult:
    scenario: Scenario
    version: ScenarioVersion
    outcome: str  # "created", "updated" or "unchanged"


@transaction.atomic
def scenario_import(*, document: Any, author: User | None = None,
                    source_path: str = "", publish: bool = True,
                    source_hash: str = "") -> ImportResult:
    """Store a document as a new version of its scenario (creating the scenario if new).

    An unchanged document adds nothing (its version keeps this check, if an older engine
    made the stored one). An invalid one raises :class:`ScenarioInvalid` and writes
    nothing. With ``publish``, a valid, complete document becomes the scenario's
    published version (or :class:`NotPublishable` is raised). ``source_hash``: the hash of
    the library file's bytes the document was read from (:func:`scenario_load`).
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
        version_refresh(version=latest, report=report)
        if source_hash and latest.source_hash != source_hash:
            latest.source_hash = source_hash
            latest.save(update_fields=["source_hash"])
        if publish and not latest.is_published:
            scenario_publish(scenario=scenario, version=latest, report=report)
        return ImportResult(scenario, latest, "unchanged")
    version = _new_version(scenario=scenario, document=document, report=report,
                           digest=digest, author=author, source_hash=source_hash)
    scenario.topic = document["topic"]
    scenario.difficulty = document["difficulty"]
    if source_path:
        scenario.source_path = source_path
    scenario.save()
    if publish:  # validated above, and found publishable
        scenario_publish(scenario=scenario, version=version, report=report)
    return ImportResult(scenario, version, "created" if created else "updated")


def _new_version(*, scenario: Scenario, document: Any, report: Report, digest: str,
                 author: User | None, source_hash: str) -> ScenarioVersion:
    latest = scenario.latest_version()
    version = ScenarioVersion(
        scenario=scenario, number=(latest.number + 1) if latest else 1, document=document,
        content_hash=digest, created_by=author, eras=list(report.check.eras),
        answer_keys=report.check.answers, errors=report.errors, warnings=report.warnings,
        disagreements=report.check.disagreements, cited_rules=report.cited_rules,
        variants=report.check.variants, checked_with=engine_fingerprint(),
        source_hash=source_hash)
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
        version_refresh(version=version, report=report)
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


# -- what a version's check stored -----------------------------------------------------------

def version_refresh(*, version: ScenarioVersion, report: Report | None = None) -> bool:
    """Make the stored check of ``version`` this engine's, if an older one made it (or it
    was never recorded); whether it is now this engine's. ``report``: this engine's check
    of this very document, when the caller has it.

    The answer keys and eras never change: if this engine finds other ones, nothing is
    stored (``recheck_scenarios`` lists the difference) and the callers check afresh, as
    before there was anything stored. The version's facts (``ScenarioVersion.questions``,
    ``titles``, ``changed_in``: from its document and answer keys) are made again too."""
    fingerprint = engine_fingerprint()
    if version.checked_with != fingerprint or not version.has_facts:
        # A row saved before versions kept their facts, or under other eras: made again.
        version.save(update_fields=list(FACT_FIELDS))
    if version.checked_with == fingerprint:
        return True
    report = report or scenario_validate(document=version.document)
    check = report.check
    if check.errors or _as_stored(check.answers) != _as_stored(version.answer_keys) or \
            list(check.eras) != list(version.eras):
        return False
    version.errors, version.warnings = report.errors, report.warnings
    version.disagreements, version.cited_rules = check.disagreements, report.cited_rules
    version.variants = check.variants
    version.checked_with = fingerprint
    version.save(update_fields=["errors", "warnings", "disagreements", "cited_rules",
                                "cited_rules_text", "variants", "checked_with"])
    return True


def _as_stored(value: Any) -> Any:
    """A value as the database gives it back (JSON: lists for tuples, text keys)."""
    return json.loads(json.dumps(value))


def versions_refresh(*, skip: Iterable[int] = ()) -> int:
    """Backfill: the stored check of every scenario's latest and current version made
    again where an older engine made it (or none was recorded), but for the versions
    ``skip`` (just checked); how many are now current. Every version saved before versions
    kept their facts (``ScenarioVersion.questions``, ``titles``, ...) gets them."""
    latest = ScenarioVersion.objects.filter(scenario=OuterRef("scenario")).order_by(
        "-number").values("number")[:1]
    stale = ScenarioVersion.objects.exclude(checked_with=engine_fingerprint()).filter(
        Q(number=Subquery(latest)) | Q(pk__in=Scenario.objects.values("current_version")),
    ).exclude(pk__in=list(skip))
    refreshed = sum(version_refresh(version=version) for version in stale)
    missing = Q()
    for name in FACT_FIELDS:
        missing |= Q(**{f"{name}__isnull": True})
    for version in ScenarioVersion.objects.filter(missing).iterator(chunk_size=100):
        version.save(update_fields=list(FACT_FIELDS))  # computed from the document alone
    return refreshed


@dataclass(frozen=True, slots=True)
class StoredCheck:
    """A version's check, as the editors show it (the errors and warnings as dicts)."""

    errors: list[dict[str, Any]]
    warnings: list[dict[str, Any]]
    eras: list[str]
    answers: dict[str, dict[str, Any]]
    disagreements: list[dict[str, Any]]
    variants: dict[str, Any] = field(default_factory=dict)
    """A generator's survey (``ScenarioVersion.variants``)."""

    @property
    def ok(self) -> bool:
        return not self.errors and not self.disagreements


def version_check(*, version: ScenarioVersion) -> StoredCheck:
    """What the check of ``version`` found: the stored results when this engine made them,
    else a fresh check (stored for next time when the answer keys came out the same)."""
    if version.checked_with != engine_fingerprint():
        report = scenario_validate(document=version.document)
        if not version_refresh(version=version, report=report):
            check = report.check
            return StoredCheck(report.errors, report.warnings, list(check.eras),
                               check.answers, check.disagreements, check.variants)
    return StoredCheck(version.errors, version.warnings, list(version.eras),
                       version.answer_keys, version.disagreements, version.variants)


def scenario_load(*, path: Path, publish: bool = True, force: bool = False,
                  known: Container[str] | None = None) -> ImportResult:
    """Load one library file (:func:`scenario_import`, ``source_path`` its path).

    A file whose bytes are those its scenario's latest version was read from, checked by
    this engine (and published, with ``publish``), is "unchanged" for the cost of a read,
    a hash and one query: it is neither parsed nor checked. ``force`` reads and checks it
    all the same. ``known``: :func:`loaded_hashes`, taken before a run of loads (a hash
    not in it needs no query). Raises ``LibraryFileError``, :class:`ScenarioInvalid` or
    :class:`NotPublishable` like an import."""
    source = read_source(path)
    digest = hashlib.sha256(source).hexdigest()
    if not force and (known is None or digest in known):
        stored = _loaded_unchanged(digest, publish=publish)
        if stored is not None:
            return ImportResult(stored.scenario, stored, "unchanged")
    return scenario_import(document=read_document(path, source), source_path=str(path),
                           publish=publish, source_hash=digest)


def loaded_hashes() -> set[str]:
    """The hashes of the files stored versions were loaded from, checked by this engine."""
    return set(ScenarioVersion.objects.filter(checked_with=engine_fingerprint()).exclude(
        source_hash="").values_list("source_hash", flat=True))


def _loaded_unchanged(digest: str, *, publish: bool) -> ScenarioVersion | None:
    latest = ScenarioVersion.objects.filter(scenario=OuterRef("scenario")).order_by(
        "-number").values("number")[:1]
    version = ScenarioVersion.objects.select_related("scenario").filter(
        source_hash=digest, checked_with=engine_fingerprint(),
        number=Subquery(latest)).first()
    if version is None or version.errors or (publish and not (
            version.is_published and not version.disagreements)):
        return None
    return version
