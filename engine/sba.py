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
from operator import attrgetter

from engine.damage_triggers import resolve_next
from engine.departure import continues_without, leave_game
from engine.eras import Era
from engine.errors import DocumentError, ErrorItem
from engine.state import GameState, Obj, evolve, with_counters
from engine.trace import Trace
from engine.triggers import catalog_triggers, trigger_cards
from engine.zones import move_object

_card_of = attrgetter("card")


@dataclass(slots=True)
class ChoiceNeeded:
    """A per-controller legend or uniqueness rule needs the player's choice."""

    rule_key: str
    player: str
    candidates: tuple[str, ...]


def is_legendary(era: type[Era], obj: Obj) -> bool:
    """Legendary by its supertype, or a planeswalker in the eras where every planeswalker
    is legendary: planeswalker cards became legendary by Oracle errata (Ixalan), not by a
    rule, so a planeswalker whose supertypes the document states, or a copy that "isn't
    legendary" (707.9b), is legendary only if `legendary` is among them."""
    return "legendary" in obj.supertypes or (
        era.planeswalkers_legendary and obj.pw_errata and obj.is_planeswalker)


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
    """Perform state-based actions until none applies, then the triggered abilities of
    catalog cards that the action or those state-based actions triggered (603.3b), and
    again until neither happens. Returns the new state and whether a choice was asked
    for (see ``_state_based_actions``)."""
    state, asked = _state_based_actions(era, state, trace, keep)
    if not state.triggers and trigger_cards().isdisjoint(
            map(_card_of, state.objects.values())):
        trace.seen = len(trace.steps)  # the common case: nothing here can trigger
        return state, asked
    for _ in range(64):
        state, fired = catalog_triggers(era, state, trace)
        if not fired and state.triggers:  # lifelink/deathtouch/attack (damage_triggers)
            state, fired = resolve_next(era, state, trace), True
        if not fired:
            return state, asked
        state, again = _state_based_actions(era, state, trace, keep)
        asked = asked or again
    raise DocumentError(ErrorItem("", "triggered abilities did not settle"))


def _state_based_actions(era: type[Era], state: GameState, trace: Trace,
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
        sieges: list[str] = []
        touched: list[str] = []  # dealt deathtouch damage since the last check (704.5h)
        pw_legendary = era.planeswalkers_legendary
        battles = era.battles
        for obj in state.objects.values():  # with_object copies: safe to iterate
            if obj.zone != "battlefield":
                continue
            types = obj.types
            counters = obj.counters
            if counters and "+1/+1" in counters and "-1/-1" in counters:
                obj = _cancel_counters(obj, trace)
                state = state.with_object(obj)
                counters = obj.counters
            if "creature" in types and obj.toughness is not None:
                # with its +1/+1 and -1/-1 counters
                toughness = (obj.current_toughness or 0) if counters else obj.toughness
                if toughness <= 0:
                    to_graveyard[obj.id] = ("sba.zero-toughness", "sba.zero-toughness")
                elif obj.damage >= toughness:
                    destroy[obj.id] = ("sba.lethal-damage", "sba.lethal-damage")
                elif obj.deathtouched:  # 704.5h; before Magic 2010 a trigger (damage_triggers)
                    destroy[obj.id] = ("sba.deathtouch", "sba.deathtouch")
            if obj.deathtouched:
                touched.append(obj.id)
            if "planeswalker" in types:
                walkers.append(obj)
                if counters.get("loyalty", 0) <= 0:
                    to_graveyard[obj.id] = ("sba.zero-loyalty", "sba.zero-loyalty")
            if "legendary" in obj.supertypes or (
                    pw_legendary and obj.pw_errata and "planeswalker" in types):
                legends.append(obj)  # is_legendary, inlined: this loop is hot
            if battles and "battle" in types and counters.get("defense", 0) <= 0:
                if obj.last_defense_removed and is_siege(obj):
                    sieges.append(obj.id)  # its own trigger is waiting: not 704.5v
                else:
                    to_graveyard[obj.id] = ("sba.battle-zero-defense",
                                            "sba.battle-zero-defense")
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
        for oid in touched:  # 704.5h looks only at damage since the last check
            if oid not in destroy and oid not in to_graveyard:
                state = state.with_object(evolve(state.obj(oid), deathtouched=False))
        if not to_graveyard and not destroy:
            return (_defeated_sieges(state, trace, sieges) if sieges else state), asked
        for oid, (key, event) in {**destroy, **to_graveyard}.items():
            state = move_object(state, oid, "graveyard", trace, rule_key=key, event=event,
                                destroyed=oid in destroy)
        # 704.3 repeats the check until no state-based action applies. In this engine no
        # characteristic depends on another permanent (no permanent's static ability is
        # modelled; a face-up plane's are, but planes never leave during this check and
        # change no toughness, loyalty or defense), so a pass that only put permanents
        # into graveyards can't have made a new condition true: the next pass would find
        # nothing.
        return (_defeated_sieges(state, trace, sieges) if sieges else state), asked
    raise DocumentError(ErrorItem("", "state-based actions did not settle"))


def is_siege(obj: Obj) -> bool:
    """A battle with the battle type Siege (310.11; every battle printed in 2023-2025)."""
    return any(s.casefold() == "siege" for s in obj.subtypes)


def _defeated_sieges(state: GameState, trace: Trace, sieges: list[str]) -> GameState:
    """310.11b: "When the last defense counter is removed from this permanent, exile it,
    then you may cast it transformed without paying its mana cost." The engine performs
    no action between the state-based actions and this trigger's resolution (no player
    responds), and the transformed face is not modelled: the Siege stays in exile, not
    cast (docs/scenario-format.md)."""
    for oid in sieges:
        obj = state.obj(oid)
        if obj.on_battlefield and obj.last_defense_removed:
            state = move_object(state, oid, "exile", trace, rule_key="battle.siege-defeated",
                                event="battle.siege-exiled", controller=obj.controller)
            state = state.with_object(evolve(state.obj(oid), last_defense_removed=False))
    return state


def _players(era: type[Era], state: GameState, trace: Trace) -> GameState:
    if not state.teams:
        for p in state.players.values():
            if p.drew_from_empty or not (p.lost or (p.life > 0 and p.poison < 10)):
                break
        else:
            return state  # the common case: no player has lost (one pass)
    before = state.players
    state = _losses(era, state, trace)
    newly = [pid for pid, p in state.players.items() if p.lost and not before[pid].lost]
    if newly and continues_without(state, set(newly)):
        for pid in newly:  # 104.5: a player who loses leaves a game that goes on (800.4a)
            state = leave_game(era, state, trace, pid)
    return state


def _losses(era: type[Era], state: GameState, trace: Trace) -> GameState:
    state = _poisoned(state, trace)
    for team in state.teams.values():
        if team.life <= 0 and not team.lost:
            state = state.with_team(evolve(team, lost=True))
            trace.add("sba.team-life", "sba.team-loses", team=team.id, life=team.life)
    for player in state.players.values():
        if player.team is None and player.life <= 0 and not player.lost:
            state = state.with_player(evolve(player, lost=True))
            trace.add("sba.zero-life", "sba.player-loses", player=player.id, life=player.life)
    for player in state.players.values():
        if player.drew_from_empty:
            # 704.5b (420.5g in Lorwyn); in Two-Headed Giant the team loses (810.8a).
            state = state.with_player(evolve(player, drew_from_empty=False, lost=True))
            its_team = state.team_of(player.id)
            if its_team is not None and not its_team.lost:
                state = state.with_team(evolve(its_team, lost=True))
            if not player.lost:
                trace.add("sba.empty-library", "sba.player-loses-empty-library",
                          player=player.id)
    return state


def _poisoned(state: GameState, trace: Trace) -> GameState:
    """704.5c: a player with ten or more poison counters loses; in Two-Headed Giant a
    team with fifteen or more between its players (704.5u, 704.6b from 2020)."""
    for team in state.teams.values():
        poison = sum(state.players[m].poison for m in team.members)
        if poison >= 15 and not team.lost:
            state = state.with_team(evolve(team, lost=True))
            trace.add("sba.team-poison", "sba.team-poisoned", team=team.id, poison=poison)
    for player in state.players.values():
        if player.team is None and player.poison >= 10 and not player.lost:
            state = state.with_player(evolve(player, lost=True))
            trace.add("sba.poison", "sba.player-poisoned", player=player.id,
                      poison=player.poison)
    return state


def _cancel_counters(obj: Obj, trace: Trace) -> Obj:
    """704.5r (704.5q from late 2017): N +1/+1 and N -1/-1 counters are removed, N the
    smaller count."""
    n = min(obj.counters["+1/+1"], obj.counters["-1/-1"])
    obj = with_counters(with_counters(obj, "+1/+1", -n), "-1/-1", -n)
    trace.add("sba.counters-cancel", "sba.counters-cancel", object=obj.id, amount=n)
    return obj
