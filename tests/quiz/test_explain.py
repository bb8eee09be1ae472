"""The trace in words: every event the engine records has a sentence, in every language,
and a Planechase trace reads as sentences, not event codes."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest
from django.utils import translation

from engine import find_era, parse, run_variant
from scenarios.library import LIBRARY, read_document
from scenarios.presentation.explain import EVENTS, explain_trace

ENGINE = Path(__file__).resolve().parents[2] / "engine"
EVENT_CODE = re.compile(r"[a-z]+\.[a-z-]+")


def recorded_events() -> dict[str, str]:
    """Every event code passed as a constant to ``trace.add``/``add_first`` in the engine,
    with where it is."""
    events: dict[str, str] = {}
    for path in sorted(ENGINE.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                    and node.func.attr in ("add", "add_first") and len(node.args) >= 2
                    and isinstance(node.args[1], ast.Constant)
                    and isinstance(node.args[1].value, str)
                    and EVENT_CODE.fullmatch(node.args[1].value)):  # not err.add(path, msg)
                events.setdefault(node.args[1].value, f"{path.name}:{node.lineno}")
    return events


def test_every_recorded_event_has_a_sentence() -> None:
    events = recorded_events()
    assert len(events) > 40  # the walk found the engine's trace calls
    missing = {e: where for e, where in events.items() if e not in EVENTS}
    assert not missing, f"events with no sentence in presentation.explain.EVENTS: {missing}"


@pytest.mark.parametrize("language", ["en", "it", "es"])
def test_a_planechase_trace_reads_as_sentences(language: str) -> None:
    scenario = parse(read_document(LIBRARY / "planechase/pc-chaos-on-opponents-plane.yaml"))
    variant = scenario.variant(0)
    outcome = run_variant(find_era("fdn-2024"), variant)
    with translation.override(language):
        steps = explain_trace(outcome.trace.steps, outcome.state, "fdn-2024", language)
    assert any(s.event == "planechase.chaos" for s in steps)
    for step in steps:
        assert step.text != step.event, step
        assert "%(" not in step.text and "planechase." not in step.text, step


def test_a_two_headed_giant_team_is_named_by_its_members() -> None:
    scenario = parse(read_document(LIBRARY / "two-headed-giant/thg-team-damage-one-player.yaml"))
    outcome = run_variant(find_era("xln-2017"), scenario.variant(0))
    steps = explain_trace(outcome.trace.steps, outcome.state, "xln-2017", "en")
    attacks = [s.text for s in steps if s.event == "combat.attacks"]
    assert len(attacks) == 1 and attacks[0].endswith("→ Bob & Dave."), attacks


def library_runs():
    from engine import scenario_eras

    for path in sorted(LIBRARY.glob("*/*.yaml")):
        scenario = parse(read_document(path))
        variant = scenario.variant(0)
        for era in scenario_eras(scenario, variant):
            yield path.stem, era, run_variant(find_era(era), variant)


@pytest.mark.parametrize("language", ["en", "it", "es"])
def test_every_library_trace_reads_as_sentences_in_every_era(language: str) -> None:
    """What a candidate reads under each feedback: no event code, no unfilled slot, no
    rule cited without its summary in the reader's language."""
    checked = 0
    with translation.override(language):
        for slug, era, outcome in library_runs():
            for step in explain_trace(outcome.trace.steps, outcome.state, era, language):
                where = f"{slug} {era} step {step.number}: {step.text!r}"
                assert step.text != step.event and "%(" not in step.text, where
                assert not step.rule or step.summary, where
                checked += 1
    assert checked > 4500  # every step of every library scenario in every era


def test_italian_puts_ad_before_a_word_starting_with_a() -> None:
    from scenarios.presentation.wording import euphonic

    assert euphonic("Il danno assegnato a Alice (3) va a Bob.", "it") == (
        "Il danno assegnato ad Alice (3) va a Bob.")
    assert euphonic("A Angelo di Serra non è assegnato danno.", "it") == (
        "Ad Angelo di Serra non è assegnato danno.")
    assert euphonic("casa Alice, l'a Angelo, ad Alice", "it") == "casa Alice, l'a Angelo, ad Alice"
    assert euphonic("no a Alice", "es") == "no a Alice"


@pytest.mark.parametrize(("text", "language", "joined"), [
    ("l'abilità di Il Velo di Catena", "it", "l'abilità del Velo di Catena"),
    ("va a La Nebbia Eterna", "it", "va alla Nebbia Eterna"),
    ("lascia L'Ippodromo, da L'Ippodromo", "it", "lascia L'Ippodromo, dall'Ippodromo"),
    ("in Il Maelstrom e su I Cannelli Eterei", "it", "nel Maelstrom e sui Cannelli Eterei"),
    ("A La Quarta Sfera", "it", "Alla Quarta Sfera"),
    ("di Garruk, a Alice", "it", "di Garruk, ad Alice"),
    ("el efecto de El Gran Bosque", "es", "el efecto del Gran Bosque"),
    ("A El Hipódromo", "es", "Al Hipódromo"),
    ("de La Baronía Oscura", "es", "de La Baronía Oscura"),
    ("of The Eon Fog", "en", "of The Eon Fog"),
    ("la main de Alice, que Ajani, de Le Voile de Chaîne", "fr",
     "la main d'Alice, qu'Ajani, du Voile de Chaîne"),
    ("À Les Champs, de La Grande Forêt, de L'Hippodrome", "fr",
     "Aux Champs, de La Grande Forêt, de L'Hippodrome"),
    ("o efeito de O Véu, em A Grande Floresta, a A Fortaleza", "pt-br",
     "o efeito do Véu, na Grande Floresta, à Fortaleza"),
    ("von Der Kettenschleier", "de", "von Der Kettenschleier"),
])
def test_a_preposition_joins_the_article_a_printed_name_starts_with(
        text: str, language: str, joined: str) -> None:
    from scenarios.presentation.wording import euphonic

    assert euphonic(text, language) == joined


def test_a_story_piece_takes_the_article_off_the_card_name_that_follows() -> None:
    from scenarios.presentation.cardtext import Ref
    from scenarios.presentation.wording import euphonic_pieces

    assert euphonic_pieces(["l'abilità di ", Ref("Il Velo di Catena", "k"), " e a ",
                            Ref("Alice", "p")], "it") == [
        "l'abilità del ", Ref("Velo di Catena", "k"), " e ad ", Ref("Alice", "p")]
    assert euphonic_pieces(["de ", Ref("El Gran Bosque", "k")], "es") == [
        "del ", Ref("Gran Bosque", "k")]
    assert euphonic_pieces(["a ", Ref("Angelo di Serra", "k")], "it") == [
        "ad ", Ref("Angelo di Serra", "k")]
    assert euphonic_pieces(["le pouvoir de ", Ref("Ajani Crinièredor", "k"), " et de ",
                            Ref("Le Voile de Chaîne", "v")], "fr") == [
        "le pouvoir d'", Ref("Ajani Crinièredor", "k"), " et du ",
        Ref("Voile de Chaîne", "v")]
    assert euphonic_pieces(["o efeito de ", Ref("O Véu da Corrente", "k")], "pt-br") == [
        "o efeito do ", Ref("Véu da Corrente", "k")]


A_BEFORE_A = re.compile(r"(?<![\w'’])[Aa] A(lice|ngelo)")


def test_italian_steps_say_infligge_n_danni_and_ad_alice() -> None:
    """Italian cards say "infligge 4 danni a", "1 danno"; the preposition "a" becomes "ad"
    before Alice or Angelo, whatever name the sentence gets at run time."""
    with translation.override("it"):
        texts = [step.text for _slug, era, outcome in library_runs()
                 for step in explain_trace(outcome.trace.steps, outcome.state, era, "it")]
    assert not [t for t in texts if "danno pari a" in t or "punti vita pari a" in t]
    assert not [t for t in texts if A_BEFORE_A.search(t)]
    assert any(" ad Alice" in t for t in texts)  # the sweep meets the case it guards
    assert any(re.search(r"infligge 1 danno a ", t) for t in texts)
    assert any(re.search(r"infligge [2-9] danni a ", t) for t in texts)


def test_spanish_steps_use_the_glossary_forms_for_damage_and_life() -> None:
    with translation.override("es"):
        texts = [step.text for _slug, era, outcome in library_runs()
                 for step in explain_trace(outcome.trace.steps, outcome.state, era, "es")]
    # "N de daño" and "gana N vidas" (issue 15's review; the glossary's term), never
    # "N daños" or "N de vida"
    assert not [t for t in texts if re.search(r"\d+ daños|\d+ de vida", t)]
    assert any(re.search(r"hace 1 de daño a ", t) for t in texts)
    assert any(re.search(r"hace [2-9] de daño a ", t) for t in texts)
