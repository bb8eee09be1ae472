"""The checks of casting a spell or activating an ability: the card exists in the era,
the timing (sorcery speed), the targets (115, 601.2c) and the redirections chosen."""

from __future__ import annotations

from collections.abc import Mapping

from engine.cards import Card, Wording
from engine.damage import Source, redirection_violation
from engine.eras import Era, era_end
from engine.errors import IllegalAction, Violation, illegal
from engine.state import MAIN_STEPS, GameState
from engine.targets import target_violation


def card_exists_violation(era: type[Era], card: Card) -> Violation | None:
    end = era_end(era)
    if end is not None and card.released >= end:
        return Violation("spell.targets", era.rule("spell.targets"), "card.not-yet-printed",
                         f"{card.name['en']} was first printed on {card.released.isoformat()},"
                         f" after the {era.name} rules ({era.key}) were replaced",
                         {"card": card.slug})
    return None


def check_targets(era: type[Era], state: GameState, path: str, caster: str,
                  wording: Wording, targets: list[str], *, divided: bool = False,
                  max_targets: int = 1, source: Source | None = None) -> None:
    """The targets chosen are legal (115; a spell that divides damage: 601.2d); ``source``
    is the spell or the ability's source (protection, 702.16b)."""
    if divided:
        spec = wording.targets[0] if wording.targets else frozenset()
        if not 1 <= len(targets) <= max_targets:
            raise illegal(path, era, "spell.targets", "target.count",
                          f"choose between 1 and {max_targets} targets (“{wording.text}”)")
        specs = [spec] * len(targets)
    else:
        specs = list(wording.targets)
        if len(targets) != len(specs):
            raise illegal(path, era, "spell.targets", "target.count",
                          f"this needs {len(specs)} target(s), {len(targets)} given "
                          f"(“{wording.text}”)")
    for i, (spec, target) in enumerate(zip(specs, targets, strict=True)):
        why = target_violation(era, state, caster, spec, target, wording.text, source)
        if why is not None:
            raise IllegalAction(f"{path}.targets[{i}]" if not divided
                                else f"{path}.targets.{target}", why, era.key)


def check_redirects(era: type[Era], state: GameState, path: str, source: Source,
                    redirect_to: Mapping[str, str]) -> None:
    if not era.redirection_rule:
        return
    for player, pw in redirect_to.items():
        if player not in state.players:
            raise illegal(f"{path}.redirect_to.{player}", era, "pw.redirection",
                          "redirect.not-player", f"{player!r} is not a player")
        why = redirection_violation(era, state, source, player, pw, combat=False)
        if why is not None:
            raise IllegalAction(f"{path}.redirect_to.{player}", why, era.key)


def check_sorcery_timing(era: type[Era], state: GameState, path: str, player: str,
                         what: str) -> None:
    if player not in state.teammates(state.turn.active) or state.turn.step not in MAIN_STEPS:
        raise illegal(path, era, "spell.sorcery-timing", "cast.timing",
                      f"{what} can be cast only in a main phase of its caster's turn")
    if state.combat is not None and state.combat.pending:
        raise illegal(path, era, "spell.sorcery-timing", "cast.stack-not-empty",
                      f"{what} can be cast only while the stack is empty")
