"""Dealing damage: the replacement and prevention effects that modify it, then its
results, and the planeswalker redirection rule.

A damage event first goes through the replacement and prevention effects that apply to
it, in the order the affected player chooses (``engine.replacement``: redirections,
prevention shields, protection). What is left is dealt, with its results (119.3 / 120.3):
to a player, that much life is lost (in Two-Headed Giant, from the team's shared total,
810.9), or with infect that many poison counters; to a planeswalker, that many loyalty
counters are removed (306.8), infect and wither included; to a creature, it is marked,
or with wither or infect becomes -1/-1 counters; to a battle, defense counters are
removed (310.6). Deathtouch: from Magic 2010 the creature is destroyed by a state-based
action (704.5h); before, each instance of deathtouch triggers ("whenever this deals
damage to a creature, destroy that creature", 502.63). Lifelink: from Magic 2010 the
source's controller gains that much life at the same time (702.15b); before, each
instance triggers ("you gain that much life", 502.68) and the life is gained when the
trigger resolves, after state-based actions.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from engine.cards import Card
from engine.eras import Era
from engine.errors import DocumentError, ErrorItem, Violation
from engine.prevention import applies
from engine.replacement import Event, Redirect, current_order, may_apply_any, replace
from engine.state import GameState, Obj, Source, Trigger, evolve, with_counters
from engine.trace import Trace

__all__ = ["DamageEvent", "Source", "damage_to_player", "deal_damage", "deal_damage_all",
           "redirection_violation", "spell_source"]


def spell_source(card: Card, caster: str, obj: Obj | None = None) -> Source:
    """A spell as a source of damage: the object cast from a hand, or the catalog card
    cast by its slug (its colors from its mana cost, 202.2)."""
    if obj is not None:
        return Source(obj.id, caster, colors=obj.colors, types=obj.types,
                      name=obj.card or obj.id)
    return Source(card.slug, caster, colors=card.colors, types=card.types, name=card.slug)


def deal_damage(era: type[Era], state: GameState, trace: Trace, source: Source,
                recipient: str, amount: int, *, combat: bool) -> GameState:
    """One damage event (already redirected by the redirection rule if it was going to
    be)."""
    state, _ = _deal(era, state, trace, ((source, recipient, amount, combat),), None)
    return state


DamageEvent = tuple[Source, str, int, bool]


def deal_damage_all(era: type[Era], state: GameState, trace: Trace,
                    events: Iterable[DamageEvent]) -> GameState:
    """Damage events dealt at the same time (510.2 for combat damage), in one new state."""
    state, _ = _deal(era, state, trace, tuple(events), None)
    return state


def _deal(era: type[Era], state: GameState, trace: Trace, events: tuple[DamageEvent, ...],
          redirect: Redirect | None) -> tuple[GameState, Sequence[DamageEvent]]:
    """Replace, then deal, each event; returns the new state and the events as dealt
    (each one's recipient is who was dealt its damage, or its own recipient if all of it
    was prevented)."""
    if not era.keyword_exists("infect"):
        for source, _recipient, amount, _combat in events:
            if source.infect and amount > 0:
                raise DocumentError(ErrorItem(
                    "", f"{source.id} has infect, a keyword that doesn't exist in the "
                        f"{era.name} rules (it arrived with Scars of Mirrodin, 2010-10-01)",
                    None, era.key))
    if not state.shields and redirect is None and not may_apply_any(state, events):
        return _results(era, state, trace, events), events
    if state.shields and len(events) > 1:
        _check_shared_shields(era, state, events)
    final: list[DamageEvent] = []
    for source, recipient, amount, combat in events:
        obj = state.objects.get(recipient)
        if amount > 0 and (obj is None or obj.on_battlefield):
            event, shields = replace(era, state, trace, Event(source, recipient, amount,
                                                              combat), redirect)
            if shields is not state.shields:
                state = evolve(state, shields=shields)
            final.append((event.source, event.recipient, event.amount, event.combat))
        else:
            final.append((source, recipient, amount, combat))
    return _results(era, state, trace, final), final


def _check_shared_shields(era: type[Era], state: GameState,
                          events: tuple[DamageEvent, ...]) -> None:
    """615.7: a shield that would prevent damage from two or more sources dealt at the
    same time prevents the damage its player (or its permanent's controller) chooses.
    The engine models that choice only where it can't change the result."""
    for shield in state.shields:
        if shield.amount is None:
            continue
        hits = [(s, n) for s, r, n, c in events
                if n > 0 and applies(shield, state, r, s, c)]
        kinds = {(s.controller, s.lifelink, s.deathtouch, s.infect, s.wither)
                 for s, _n in hits}
        if len(kinds) > 1 and shield.amount < sum(n for _s, n in hits):
            order = current_order()
            raise DocumentError(ErrorItem(
                order.path if order is not None else "",
                f"the shield {shield.id} would prevent damage from "
                f"{', '.join(s.id for s, _n in hits)} dealt at the same time, and which "
                f"damage it prevents is chosen by the player it protects and changes the "
                f"result: the engine does not model that choice",
                era.rule("prevention.shield"), era.key))


def _results(era: type[Era], state: GameState, trace: Trace,
             events: Iterable[DamageEvent]) -> GameState:
    """The results of damage dealt at the same time (119.3 / 120.3)."""
    objects = dict(state.objects)
    players = dict(state.players)
    teams = dict(state.teams)
    triggers = list(state.triggers)
    triggered_keywords = era.lifelink_trigger

    def change_life(pid: str, delta: int) -> int:
        player = players[pid]
        if player.team is not None:
            team = teams[player.team] = evolve(teams[player.team],
                                               life=teams[player.team].life + delta)
            return team.life
        player = players[pid] = evolve(player, life=player.life + delta)
        return player.life

    for source, recipient, amount, combat in events:
        if amount <= 0:
            continue
        if recipient in players:
            if source.infect:
                player = players[recipient] = evolve(players[recipient],
                                                     poison=players[recipient].poison + amount)
                trace.add("keyword.infect-player", "damage.poison", source=source.id,
                          player=recipient, amount=amount, combat=combat,
                          poison=player.poison)
            else:
                life = change_life(recipient, -amount)
                key = "twohg.damage-to-team" if players[recipient].team else "damage.to-player"
                trace.add(key, "damage.player", source=source.id, player=recipient,
                          amount=amount, combat=combat, life=life)
        else:
            obj = objects[recipient]
            if obj.zone != "battlefield":
                trace.add(None, "damage.recipient-gone", source=source.id, object=recipient,
                          amount=amount, kind="combat" if combat else "noncombat")
                continue
            if obj.is_planeswalker:
                obj = with_counters(obj, "loyalty", -amount)
                trace.add("pw.damage-removes-loyalty", "damage.planeswalker",
                          source=source.id, object=recipient, amount=amount, combat=combat,
                          loyalty=obj.counter("loyalty"))
            if obj.is_battle and era.battles:
                obj = with_counters(obj, "defense", -amount)
                trace.add("damage.battle", "damage.battle", source=source.id,
                          object=recipient, amount=amount, combat=combat,
                          defense=obj.counter("defense"))
            if obj.is_creature:
                if source.infect or source.wither:
                    obj = with_counters(obj, "-1/-1", amount)
                    trace.add("keyword.infect-creature" if source.infect else "keyword.wither",
                              "damage.counters", source=source.id, object=recipient,
                              amount=amount, combat=combat, counters=obj.counter("-1/-1"))
                else:
                    # 704.5h remembers deathtouch damage (a trigger before Magic 2010)
                    obj = evolve(obj, damage=obj.damage + amount, deathtouched=bool(
                        source.deathtouch and era.deathtouch != "trigger") or obj.deathtouched)
                    trace.add("damage.to-creature", "damage.creature", source=source.id,
                              object=recipient, amount=amount, combat=combat,
                              marked=obj.damage)
                if source.deathtouch:
                    if era.deathtouch == "trigger":
                        for _ in range(source.deathtouch):
                            triggers.append(Trigger("deathtouch", source, amount, recipient,
                                                    obj.generation, combat))
                        trace.add("keyword.deathtouch", "trigger.deathtouch",
                                  source=source.id, object=recipient,
                                  instances=source.deathtouch)
                    elif not obj.deathtouched:  # damage as -1/-1 counters
                        obj = evolve(obj, deathtouched=True)
            objects[recipient] = obj
        if source.lifelink:
            if triggered_keywords:
                for _ in range(source.lifelink):
                    triggers.append(Trigger("lifelink", source, amount, combat=combat))
                trace.add("keyword.lifelink", "trigger.lifelink", source=source.id,
                          amount=amount, instances=source.lifelink)
            else:
                life = change_life(source.controller, amount)
                trace.add("keyword.lifelink", "damage.lifelink", source=source.id,
                          player=source.controller, amount=amount, life=life)
    return evolve(state, objects=objects, players=players, teams=teams,
                  triggers=tuple(triggers))


def redirection_violation(era: type[Era], state: GameState, source: Source, player: str,
                          planeswalker: str, *, combat: bool) -> Violation | None:
    """Why the redirection rule can't send this damage to ``planeswalker``.

    Only noncombat damage that an opponent's source would deal to a player, and only to
    a planeswalker that player controls (212.9g, then 306.7). A planeswalker that has
    left the battlefield is not a violation: the redirection then does nothing (614.9).
    """
    def v(code: str, message: str) -> Violation:
        return Violation("pw.redirection", era.rule("pw.redirection"), code, message,
                         {"player": player, "planeswalker": planeswalker})

    if combat:
        return v("redirect.combat", "combat damage can't be redirected to a planeswalker")
    if not state.are_opponents(source.controller, player):
        return v("redirect.not-opponent",
                 f"{source.controller} can't redirect damage their own source deals to "
                 f"{player}: only damage to an opponent can be redirected")
    obj = state.objects.get(planeswalker)
    if obj is None:
        return v("redirect.unknown", f"{planeswalker!r} is not an object of this scenario")
    if obj.on_battlefield and obj.is_planeswalker and obj.controller != player:
        return v("redirect.not-controlled",
                 f"{planeswalker} is controlled by {obj.controller}, not by {player}: "
                 f"damage can only be redirected to a planeswalker the damaged player controls")
    if not obj.is_planeswalker and obj.on_battlefield:
        return v("redirect.not-planeswalker", f"{planeswalker} is not a planeswalker")
    return None


def damage_to_player(era: type[Era], state: GameState, trace: Trace, source: Source,
                     player: str, amount: int, redirect_to: str | None,
                     ) -> tuple[GameState, str]:
    """Noncombat damage to a player, applying the redirection rule where it exists (a
    redirection effect, in the order the damaged player chooses among the effects that
    apply, 616.1).

    Returns the new state and who was dealt the damage. The whole event moves: it is
    never split between the player and a planeswalker.
    """
    redirect = None
    if redirect_to is not None:
        if era.redirection_rule:
            redirect = Redirect(player, redirect_to)
        else:
            trace.add(None, "redirect.no-rule", player=player, planeswalker=redirect_to,
                      removed_rule="pw.redirection")
    state, dealt = _deal(era, state, trace, ((source, player, amount, False),), redirect)
    return state, dealt[0][1]
