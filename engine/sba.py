"""State-based actions (420.5 in Lorwyn's numbering, 704 from Magic 2010).

They are checked after every action, all at once, repeatedly until none applies. The
legend rule and the uniqueness rule take three forms through the eras (global and
all-die; per controller, that player keeps one; uniqueness gone and planeswalkers
legendary); which applies is asked of the era.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass

from engine.eras import Era
from engine.errors import DocumentError, ErrorItem
from engine.state import GameState, Obj, evolve
from engine.trace import Trace
from engine.zones import move_object


@dataclass(slots=True)
class ChoiceNeeded:
    """A per-controller legend or uniqueness rule needs the player's choice."""

    rule_key: str
    player: str
    candidates: tuple[str, ...]


def is_legendary(era: type[Era], obj: Obj) -> bool:
    """Legendary by its supertype, or a planeswalker in the eras where every planeswalker
    is legendary."""
    return "legendary" in obj.supertypes or (era.planeswalkers_legendary and obj.is_planeswalker)


def _clash_groups(objs: list[Obj], keys: dict[str, list[str]], per_controller: bool,
                  ) -> list[tuple[str | None, tuple[str, ...]]]:
    """Groups of two or more objects sharing a key (a name or a planeswalker type)."""
    buckets: dict[tuple[str | None, str], list[str]] = defaultdict(list)
    for obj in objs:
        for k in keys[obj.id]:
            owner_key = obj.controller if per_controller else None
            buckets[(owner_key, k)].append(obj.id)
    return [(ctrl, tuple(ids)) for (ctrl, _), ids in buckets.items() if len(ids) > 1]


def check(era: type[Era], state: GameState, trace: Trace,
          keep: Iterable[str] = ()) -> tuple[GameState, bool]:
    """Perform state-based actions until none applies.

    ``keep`` holds the ids a ``choose`` action says the player keeps. Returns the new
    state and whether a choice was asked for (so that ``choose`` was used).
    """
    kept = set(keep)
    asked = False
    for _ in range(64):
        to_graveyard: dict[str, tuple[str, str]] = {}
        destroy: dict[str, tuple[str, str]] = {}
        choices: list[ChoiceNeeded] = []
        state = _players(era, state, trace)
        walkers: list[Obj] = []
        legends: list[Obj] = []
        for obj in state.objects.values():
            if obj.zone != "battlefield":
                continue
            types = obj.types
            if "creature" in types and obj.toughness is not None:
                if obj.toughness <= 0:
                    to_graveyard[obj.id] = ("sba.zero-toughness", "sba.zero-toughness")
                elif obj.damage >= obj.toughness:
                    destroy[obj.id] = ("sba.lethal-damage", "sba.lethal-damage")
                elif obj.deathtouched and obj.damage > 0:
                    key = "keyword.deathtouch" if era.deathtouch == "trigger" else "sba.deathtouch"
                    destroy[obj.id] = (key, "sba.deathtouch")
            if "planeswalker" in types:
                walkers.append(obj)
                if obj.counters.get("loyalty", 0) <= 0:
                    to_graveyard[obj.id] = ("sba.zero-loyalty", "sba.zero-loyalty")
            if is_legendary(era, obj):
                legends.append(obj)
            if era.battles and "battle" in types and obj.counters.get("defense", 0) <= 0:
                to_graveyard[obj.id] = ("sba.battle-zero-defense", "sba.battle-zero-defense")
        # The uniqueness rule: planeswalkers sharing a planeswalker type.
        if era.uniqueness_rule is not None and len(walkers) > 1:
            per = era.uniqueness_rule == "per-controller"
            subtypes = {o.id: [s.casefold() for s in o.subtypes] for o in walkers}
            for ctrl, ids in _clash_groups(walkers, subtypes, per):
                if per:
                    choices.append(ChoiceNeeded("sba.uniqueness", ctrl or "", ids))
                else:
                    for oid in ids:
                        to_graveyard[oid] = ("sba.uniqueness", "sba.uniqueness")
        # The legend rule: legendary permanents with the same name.
        per = era.legend_rule == "per-controller"
        names = {o.id: [o.name.get("en", o.id).casefold()] for o in legends}
        for ctrl, ids in (_clash_groups(legends, names, per) if len(legends) > 1 else ()):
            if per:
                choices.append(ChoiceNeeded("sba.legend", ctrl or "", ids))
            else:
                for oid in ids:
                    to_graveyard[oid] = ("sba.legend", "sba.legend")
        for choice in choices:
            asked = True
            keeping = [c for c in choice.candidates if c in kept]
            if len(keeping) != 1:
                names_list = ", ".join(choice.candidates)
                raise DocumentError(ErrorItem(
                    "", f"the {'legend' if choice.rule_key == 'sba.legend' else 'uniqueness'}"
                    f" rule asks {choice.player} to choose which one of {names_list} to keep:"
                    f" add `choose: {{keep: ID}}` right after this action",
                    era.rule(choice.rule_key), era.key))
            trace.add(choice.rule_key, "sba.choice", player=choice.player, keep=keeping[0],
                      candidates=list(choice.candidates))
            for oid in choice.candidates:
                if oid != keeping[0]:
                    to_graveyard[oid] = (choice.rule_key, choice.rule_key)
        for oid in list(destroy):
            if oid in to_graveyard:
                del destroy[oid]
            elif state.obj(oid).has("indestructible"):
                trace.add_first(("keyword.indestructible", destroy[oid][0]),
                                "sba.indestructible", object=oid, would=destroy[oid][1])
                del destroy[oid]
        if not to_graveyard and not destroy:
            return state, asked
        for oid, (key, event) in {**destroy, **to_graveyard}.items():
            state = move_object(state, oid, "graveyard", trace, rule_key=key, event=event,
                                destroyed=oid in destroy)
        # 704.3 repeats the check until no state-based action applies. In this engine no
        # characteristic depends on another permanent (no permanent's static ability is
        # modelled; a face-up plane's are, but planes never leave during this check and
        # change no toughness, loyalty or defense), so a pass that only put permanents
        # into graveyards can't have made a new condition true: the next pass would find
        # nothing.
        return state, asked
    raise DocumentError(ErrorItem("", "state-based actions did not settle"))


def _players(era: type[Era], state: GameState, trace: Trace) -> GameState:
    for team in state.teams.values():
        if team.life <= 0 and not team.lost:
            state = state.with_team(evolve(team, lost=True))
            trace.add("sba.team-life", "sba.team-loses", team=team.id, life=team.life)
    for player in state.players.values():
        if player.team is None and player.life <= 0 and not player.lost:
            state = state.with_player(evolve(player, lost=True))
            trace.add("sba.zero-life", "sba.player-loses", player=player.id, life=player.life)
    return state
