"""Targets of spells and abilities, checked against the wording in force in the era.

Catalog cards carry their Oracle wording by era: "target creature or player" before
Dominaria, "any target" after, battles included from March of the Machine.
"""

from __future__ import annotations

from collections.abc import Collection

from engine import rulebook
from engine.eras import Era
from engine.errors import Violation
from engine.protection import protected_from
from engine.state import GameState, Source


def describe(spec: Collection[str]) -> str:
    return " or ".join(sorted(spec))


def target_violation(era: type[Era], state: GameState, caster: str, spec: frozenset[str],
                     target: str, wording: str = "", source: Source | None = None,
                     ) -> Violation | None:
    """Why ``target`` isn't a legal target for a target described by ``spec``, of a spell
    or ability whose source is ``source`` (protection from its qualities, 702.16b)."""
    def v(code: str, message: str, key: str = "spell.targets") -> Violation:
        if not rulebook.exists(key, era.key):
            key = "spell.targets"  # no hexproof keyword yet: the targeting rule itself
        return Violation(key, era.rule(key), code, message,
                         {"target": target, "allowed": sorted(spec), "wording": wording})

    allowed_text = describe(spec)
    if target in state.players:
        player = state.players[target]
        if "player" not in spec and not ("opponent" in spec
                                         and state.are_opponents(caster, target)):
            return v("target.not-allowed",
                     f"{target} is a player, but this targets only {allowed_text}"
                     + (f" (“{wording}”)" if wording else ""))
        if player.hexproof and state.are_opponents(caster, target):
            return v("target.hexproof", f"{target} has hexproof", "keyword.hexproof")
        return _protection(era, state, target, source, spec, wording)
    obj = state.objects.get(target)
    if obj is None:
        return v("target.unknown", f"{target!r} is not a player or object of this scenario")
    if obj.zone == "command" and obj.types & {"plane", "phenomenon"}:
        return v("target.not-permanent",
                 f"{target} is a {next(iter(obj.types))} card in the command zone, not a "
                 f"permanent: it can't be targeted as one", "planechase.command-zone")
    if not obj.on_battlefield:
        return v("target.not-on-battlefield", f"{target} is not on the battlefield")
    matches = (
        "permanent" in spec
        or ("creature" in spec and obj.is_creature)
        or ("tapped-creature" in spec and obj.is_creature and obj.tapped)
        or ("planeswalker" in spec and obj.is_planeswalker)
        or ("battle" in spec and obj.is_battle and era.battles)
        or ("land" in spec and obj.is_("land"))
    )
    if not matches:
        return v("target.not-allowed",
                 f"{target} can't be targeted: this targets only {allowed_text}"
                 + (f" (“{wording}”)" if wording else ""))
    if obj.has("shroud"):
        return v("target.shroud", f"{target} has shroud", "keyword.hexproof")
    if obj.has("hexproof") and state.are_opponents(caster, obj.controller):
        return v("target.hexproof", f"{target} has hexproof", "keyword.hexproof")
    return _protection(era, state, target, source, spec, wording)


def _protection(era: type[Era], state: GameState, target: str, source: Source | None,
                spec: Collection[str], wording: str) -> Violation | None:
    """702.16b (502.7b in Lorwyn): a permanent or player with protection can't be the
    target of spells with the quality or of abilities from a source with it."""
    if source is None:
        return None
    for grantor, quality in protected_from(state, target, source):
        via = "" if grantor == target else f" (from {grantor})"
        return Violation("protection.target", era.rule("protection.target"),
                         "target.protection",
                         f"{target} has protection from {quality}{via}: {source.id} can't "
                         f"target it", {"target": target, "allowed": sorted(spec),
                                        "wording": wording, "quality": quality})
    return None
