"""A generator as its author reviews it: the survey its check made (distinct boards, skips
per era, how each question's answer is spread over the draws) and a gallery of variants
drawn at random, each with its board and its answers in every era it can be shown in.

The engine draws, runs and answers; this module only arranges what it found for the
editor's preview.
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext as _

from engine import (
    EngineError,
    Scenario,
    answer_eras,
    card_or_none,
    find_era,
    run_variant,
    variant_eras,
)
from scenarios.editing import flow_yaml
from scenarios.presentation.labels import era_label, render_text
from scenarios.presentation.present import present

GALLERY_SIZE = 6


@dataclass(frozen=True, slots=True)
class Share:
    answer: str
    draws: int
    percent: int


@dataclass(frozen=True, slots=True)
class Spread:
    question: str
    total: int
    shares: list[Share]
    degenerate: bool


@dataclass(frozen=True, slots=True)
class EraSurvey:
    era: str
    label: str
    boards: int
    unprinted: int
    restless: int


def survey_view(variants: dict[str, Any], era: str) -> dict[str, Any] | None:
    """The stored survey (``ScenarioVersion.variants``) for the preview: the counts, each
    era's skips, and each question's spread in ``era``. None without parameters."""
    if not variants:
        return None
    eras = [EraSurvey(e, era_label(e), int(s.get("boards", 0)),
                      int(s.get("skipped", {}).get("unprinted", 0)),
                      int(s.get("skipped", {}).get("restless", 0)))
            for e, s in (variants.get("eras") or {}).items()]
    spreads = []
    degenerate = variants.get("degenerate") or {}  # the engine's verdict, per question
    for qid, by_era in (variants.get("answers") or {}).items():
        counts = by_era.get(era) or []
        total = sum(int(n) for _a, n in counts)
        if not total:
            continue
        shares = [Share(_shown(answer), int(n), round(100 * int(n) / total))
                  for answer, n in counts]
        spreads.append(Spread(qid, total, shares, era in degenerate.get(qid, ())))
    return {"boards": int(variants.get("boards", 0)), "exact": bool(variants.get("exact")),
            "drawn": int(variants.get("drawn", 0)),
            "exhaustive": bool(variants.get("exhaustive")), "eras": eras,
            "spreads": spreads}


def _shown(answer: str) -> str:
    try:
        return flow_yaml(json.loads(answer))
    except ValueError:
        return answer


@dataclass(frozen=True, slots=True)
class Drawn:
    """One variant of the gallery."""

    seed: int
    values: list[tuple[str, str]]
    unused: list[str]
    """The parameters this variant's script doesn't use (switched off by a `when:`)."""
    era: str
    era_label: str
    board_svg: str
    story: str
    questions: list[dict[str, Any]]
    eras: list[str]


def gallery(scenario: Scenario, era: str, language: str, size: int = GALLERY_SIZE,
            rng: random.Random | None = None) -> list[Drawn]:
    """``size`` variants drawn at random (distinct ones, as far as there are), each with
    its board under ``era`` (or, if it can't be shown there, its latest era) and every
    question's answer in every era it can be shown in."""
    rng = rng or random.SystemRandom()
    out: list[Drawn] = []
    seen: set[tuple[tuple[str, str], ...]] = set()
    for _try in range(size * 8):
        if len(out) >= size:
            break
        seed = rng.randrange(1, 2**31 - 1)
        values = scenario.values_for(seed)
        key = tuple((k, repr(v)) for k, v in values.items())
        if key in seen:
            continue
        seen.add(key)
        try:
            variant = scenario.variant(seed)
            eras = variant_eras(scenario, variant)
            outcomes = {e: run_variant(find_era(e), variant) for e in eras}
        except EngineError:
            continue  # a variant in error: the preview's check names it
        if not eras:
            continue
        shown_era = era if era in eras else eras[-1]
        states = {e: o.state for e, o in outcomes.items()}
        across = answer_eras(scenario, variant, eras, states)
        questions = []
        for q in variant.questions:
            cells = [flow_yaml(across[q.id] if q.id in across else outcomes[e].answers.get(q.id))
                     for e in eras]
            questions.append({"id": q.id, "ask": render_text(q.ask, language, variant),
                              "cells": cells})
        board = present(scenario, shown_era, language, seed=seed, keep=False).board
        used = scenario.shown_params(values)
        told = scenario.story_for(values)
        out.append(Drawn(seed, [(k, _value(v, language)) for k, v in values.items()
                                if k in used],
                         [k for k in values if k not in used], shown_era,
                         era_label(shown_era), board.svg,
                         render_text(told, language, variant) if told else "",
                         questions, list(eras)))
    return out


def _value(value: Any, language: str) -> str:
    if isinstance(value, bool):
        return _("yes") if value else _("no")
    card = card_or_none(value)
    if card is not None:
        return card.name.get(language) or card.name["en"]
    return str(value)
