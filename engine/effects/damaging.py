"""Effects that deal damage (or prevent it): to targets, divided, to each creature and player."""

from __future__ import annotations

from engine.cards import Effect
from engine.damage import deal_damage, deal_damage_all
from engine.effects.players import discard_cards
from engine.effects.resolution import Resolution, handles, hit
from engine.prevention import shield_from_effect


@handles("damage")
def _damage(r: Resolution, e: Effect) -> None:
    for t in r.legal_targets():
        r.state = hit(r.era, r.state, r.trace, r.source, t, r.amount(e), r.redirect_to)


@handles("damage-and-discard")
def _damage_and_discard(r: Resolution, e: Effect) -> None:
    """Blightning: damage to the target, then "that player" (or, from dom-2018, "that
    planeswalker's controller") discards. A redirection before dom-2018 moves the damage,
    not the target: the targeted player still discards."""
    discarding = r.players("target")
    _damage(r, e)
    for player in discarding:
        discard_cards(r, player, int(e.get("discard", 0)))


@handles("damage-divided")
def _damage_divided(r: Resolution, e: Effect) -> None:
    for t, ok in zip(r.targets, r.legal, strict=True):
        if ok:
            r.state = hit(r.era, r.state, r.trace, r.source, t, r.amounts.get(t, 0),
                          r.redirect_to)


@handles("damage-each")
def _damage_each(r: Resolution, e: Effect) -> None:
    amount = r.amount(e)
    without = e.get("creatures_without")
    for obj in r.state.battlefield():
        if obj.is_creature and not (without and obj.has(without)):
            r.state = deal_damage(r.era, r.state, r.trace, r.source, obj.id, amount,
                                  combat=False)
    if e.get("players", False):
        for player in r.state.players:
            if not r.state.players[player].lost:
                r.state = hit(r.era, r.state, r.trace, r.source, player, amount,
                              r.redirect_to)


@handles("damage-player-and-creatures")
def _damage_player_and_creatures(r: Resolution, e: Effect) -> None:
    """Chandra Nalaar's −8: damage to the target and to each creature "that player" (or
    that planeswalker's controller) controls; only the damage to a player can be
    redirected."""
    amount = r.amount(e)
    for t in r.legal_targets():
        player = t if r.state.is_player(t) else r.state.obj(t).controller
        creatures = [o.id for o in r.state.battlefield()
                     if o.is_creature and o.controller == player and o.id != t]
        r.state = hit(r.era, r.state, r.trace, r.source, t, amount, r.redirect_to)
        r.state = deal_damage_all(r.era, r.state, r.trace,
                                  [(r.source, c, amount, False) for c in creatures])



@handles("prevent-damage")
def _prevent_damage(r: Resolution, e: Effect) -> None:
    """"Prevent the next N damage that would be dealt to target ... this turn" (Healing
    Salve): a shield for each legal target (615.7), its id the spell's."""
    for t in r.legal_targets():
        r.state = shield_from_effect(r.era, r.state, r.trace, r.source, t, r.amount(e))
