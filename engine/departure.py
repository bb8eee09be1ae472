"""A player leaves the game: by conceding (104.3a), or by losing in a game that goes on
without them (104.5; 800.4).

A two-player game, or a Two-Headed Giant game of two teams, ends when a player (or a
team) loses: nothing more happens, and the engine only marks the loss. A multiplayer game
goes on while players of two or more sides (teams, or players on no team) remain, and the
player who left takes their things with them, all at once, not as a state-based action
(800.4a):
- every object they own leaves the game (its zone becomes ``outside``): permanents,
  cards in every zone, their plane and phenomenon cards (901.10);
- every effect that gave them control of an object ends: it returns to the player it came
  from (``eot_controller``, "until end of turn" control), or to its owner; if that player
  has left too, it is exiled (800.4c);
- the abilities they control that wait to be put on the stack cease to exist;
- creatures attacking them stay attacking, but no combat damage is assigned to a player
  who has left (800.4e): the engine shows them as attacking nothing;
- in Planechase, the planar controller who leaves is first replaced by the next player in
  turn order (800.4p; ``planar_controller`` skips players who left); if a face-up plane or
  phenomenon left, the planar controller turns up the top card of their planar deck at
  once (901.10), and a phenomenon met this way is encountered.
"""

from __future__ import annotations

from engine.eras import Era
from engine.state import OUTSIDE, GameState, evolve
from engine.trace import Trace
from engine.zones import move_object, remove_from_combat

__all__ = ["continues_without", "leave_game"]

def continues_without(state: GameState, leaving: frozenset[str] | set[str]) -> bool:
    """Whether the game goes on once these players have left (800.4): players of at least
    two sides remain in it."""
    sides = {p.team or p.id for p in state.players.values()
             if not p.lost and p.id not in leaving}
    return len(sides) >= 2


def leave_game(era: type[Era], state: GameState, trace: Trace, pid: str) -> GameState:
    """``pid`` (already marked as having lost) leaves a game that goes on (800.4a)."""
    trace.add("game.leaves", "game.player-leaves", player=pid)
    pc = state.planechase
    face_up_left = False
    for oid, obj in list(state.objects.items()):
        if obj.owner != pid or obj.zone == OUTSIDE:
            continue
        if pc is not None and oid in pc.face_up:
            face_up_left = True
        state = move_object(state, oid, OUTSIDE, trace, rule_key="game.leaves",
                            event="game.object-leaves", owner=pid)
    if pc is not None:
        decks = {k: tuple(c for c in cards if state.obj(c).zone != OUTSIDE)
                 for k, cards in pc.decks.items()}
        face_up = tuple(c for c in pc.face_up if state.obj(c).zone != OUTSIDE)
        state = evolve(state, planechase=evolve(pc, decks=decks, face_up=face_up))
    for oid, obj in list(state.objects.items()):
        if obj.controller != pid or obj.owner == pid or obj.zone in (OUTSIDE, "command"):
            continue
        back = obj.eot_controller or obj.owner
        if obj.zone == "battlefield" and not state.players[back].lost:
            state = remove_from_combat(state, oid, trace, "control-changed")
            state = state.with_object(evolve(state.obj(oid), controller=back,
                                             eot_controller=None))
            trace.add("game.leaves", "game.control-ends", object=oid, controller=back,
                      player=pid)
        else:  # 800.4a: objects still controlled by that player are exiled (800.4c)
            state = move_object(state, oid, "exile", trace, rule_key="game.leaves",
                                event="game.exiled-controller-left", player=pid)
    gone = [t for t in state.triggers if t.source.controller == pid]
    if gone:
        state = evolve(state, triggers=tuple(t for t in state.triggers
                                             if t.source.controller != pid))
        trace.add("game.leaves", "game.abilities-cease", player=pid, count=len(gone))
    combat = state.combat
    if combat is not None and pid in combat.attackers.values():
        attackers = dict(combat.attackers)
        for attacker, target in combat.attackers.items():
            if target == pid:
                attackers[attacker] = None
                trace.add("combat.defender-left", "combat.defender-left",
                          attacker=attacker, player=pid)
        state = evolve(state, combat=evolve(combat, attackers=attackers))
    if pc is not None:
        from engine.planechase import after_departure

        state = after_departure(era, state, trace, face_up_left)
    return state
