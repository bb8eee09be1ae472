"""Effects on players: life, hands and libraries (discard, draw, mill), mana, turn
order, and the refusals."""

from __future__ import annotations

from engine.cards import Effect
from engine.effects.resolution import (
    UNKNOWN_CARD_NAME,
    Resolution,
    ResolutionError,
    gain_life,
    handles,
    perform,
    rule_or_resolution,
)
from engine.eras import Era
from engine.state import GameState, Obj, evolve
from engine.trace import Trace
from engine.zones import move_object


@handles("gain-life")
def _gain(r: Resolution, e: Effect) -> None:
    """``who`` (you, target) gains ``amount`` life (Healing Salve's first mode: target
    player), or ``amount`` for each permanent you control of subtype ``per`` (Nissa
    Revane: 2 for each Elf), or one for each card in your hand (``per: hand``)."""
    amount = r.amount(e)
    per = e.get("per")
    if per == "hand":
        amount *= sum(1 for o in r.state.objects.values()
                      if o.zone == "hand" and o.owner == r.you)
    elif per:
        amount *= sum(1 for o in r.state.battlefield() if o.controller == r.you
                      and str(per).casefold() in (s.casefold() for s in o.subtypes))
    for player in r.players(str(e.get("who", "you"))):
        gain_life(r, player, amount)


@handles("lose-life")
def _lose(r: Resolution, e: Effect) -> None:
    """``who`` (each-opponent, target, each) loses ``amount`` life (Siege Rhino's enters
    ability; in Two-Headed Giant each player's loss comes off the team's total, 810.9)."""
    for player in r.players(str(e.get("who", "each-opponent"))):
        r.state = r.state.with_life_change(player, -r.amount(e))
        r.trace.add("spell.resolve", "effect.lose-life", player=player, amount=r.amount(e))


@handles("life-becomes")
def _life_becomes(r: Resolution, e: Effect) -> None:
    """Target player's life total becomes N: they gain or lose the difference (119.5)."""
    for player in r.players("target"):
        if r.state.team_of(player) is not None:
            r.refuse("setting one player's life total in Two-Headed Giant")
        delta = r.amount(e) - r.state.life(player)
        r.state = r.state.with_life_change(player, delta)
        r.trace.add("spell.resolve", "effect.life-becomes", player=player,
                    life=r.state.life(player))


# -- hands and libraries ----------------------------------------------------------------------

def _hand(state: GameState, player: str) -> list[Obj]:
    return [o for o in state.objects.values() if o.zone == "hand" and o.owner == player]


def _is_unknown(obj: Obj) -> bool:
    return obj.card is None and not obj.types and obj.name == UNKNOWN_CARD_NAME


def discard_cards(r: Resolution, player: str, amount: int | None) -> None:
    """``player`` discards ``amount`` cards (None: the whole hand). The player chooses
    (701.8b); the document says which only when it matters."""
    hand = _hand(r.state, player)
    ids = [o.id for o in hand]
    chosen = r.choices.discard.get(player)
    at = f"{r.path}.discard.{player}"
    key = r.key("effect.discard")
    if not hand:
        r.trace.add(key, "effect.discard-empty-hand", player=player)
        return
    if chosen is not None and not set(chosen) <= set(ids):
        raise r.illegal_choice(at, f"{player}'s hand is {', '.join(ids)}: "
                                     f"{', '.join(sorted(set(chosen) - set(ids)))} "
                                     f"is not in it")
    if amount is None or len(hand) <= amount:
        cards = ids
    elif chosen is not None:
        if len(chosen) != amount:
            raise r.illegal_choice(at, f"{player} discards {amount} of "
                                         f"{', '.join(ids)}: choose exactly {amount}")
        cards = list(chosen)
    elif all(_is_unknown(o) for o in hand):
        cards = ids[:amount]  # unknown cards, all alike: the choice changes nothing known
    else:
        raise ResolutionError(r.era, r.path, f"{player} discards {amount} of the "
                              f"{len(hand)} cards in their hand ({', '.join(ids)}) and "
                              f"chooses which: say it with `discard: {{{player}: [ID, ...]}}`")
    for c in cards:
        r.state = move_object(r.state, c, "graveyard", r.trace, rule_key=key,
                              event="effect.discarded", player=player)


@handles("discard")
def _discard(r: Resolution, e: Effect) -> None:
    """``who`` (target, each, you, each-opponent) discards ``amount`` cards, or their
    hand (``amount: hand``)."""
    raw = e.get("amount", 1)
    for player in r.players(str(e.get("who", "target"))):
        discard_cards(r, player, None if raw == "hand" else int(raw))


@handles("draw")
def _draw(r: Resolution, e: Effect) -> None:
    """``who`` (target, each, you) draws ``amount`` cards, one at a time (121.2)."""
    for player in r.players(str(e.get("who", "target"))):
        for _ in range(r.amount(e)):
            r.state = draw_card(r.era, r.state, r.trace, player)


def draw_card(era: type[Era], state: GameState, trace: Trace, player: str) -> GameState:
    """One draw (121.1; 423.1 in Lorwyn): the top card of the library, an unknown card
    from a library the document doesn't list, or nothing from an empty listed library
    (the player then loses at the next state-based check)."""
    key = rule_or_resolution(era, "effect.draw")
    known = state.libraries.get(player, ())
    if known:
        return move_object(state, known[0], "hand", trace, rule_key=key,
                           event="effect.drawn", player=player)
    if player in state.listed_libraries:
        trace.add(key, "effect.draw-empty-library", player=player)
        return state.with_player(evolve(state.players[player], drew_from_empty=True))
    n = 1
    while f"{player}-card-{n}" in state.objects:
        n += 1
    oid = f"{player}-card-{n}"
    trace.add(key, "effect.drawn-unknown", player=player, object=oid)
    return state.with_object(Obj(id=oid, name=UNKNOWN_CARD_NAME, types=frozenset(),
                                 controller=player, owner=player, zone="hand"))


@handles("sequence")
def _sequence(r: Resolution, e: Effect) -> None:
    """Several instructions in order (608.2c): Chandra Ablaze's −2."""
    for raw in e.get("steps") or ():
        step = Effect(str(raw["kind"]), {k: v for k, v in raw.items() if k != "kind"})
        perform(r, step)


@handles("mill")
def _mill(r: Resolution, e: Effect) -> None:
    """Target player puts the top N cards of their library into their graveyard
    (as many as there are)."""
    for player in r.players(str(e.get("who", "target"))):
        if player not in r.state.listed_libraries:
            r.refuse(f"{player}'s library is not listed in the document, so the cards "
                     f"this puts into the graveyard are unknown: list it in `setup.library`")
        for c in r.state.libraries.get(player, ())[:r.amount(e)]:
            r.state = move_object(r.state, c, "graveyard", r.trace, rule_key="spell.resolve",
                                  event="effect.milled", player=player)


@handles("library-unknown")
def _library_unknown(r: Resolution, e: Effect) -> None:
    """An effect that only searches or reorders a library (Liliana Vess's −2, Jace, the
    Mind Sculptor's +2): when the engine knows nothing of that library, it changes
    nothing the engine tracks, and the trace says so. When the document lists the library
    (or knows its top cards), the choices it asks for can't be stated: refused."""
    for player in r.players(str(e.get("who", "you"))):
        if r.state.libraries.get(player) or player in r.state.listed_libraries:
            r.refuse(f"it searches or reorders {player}'s library, which the document "
                     f"lists, and the format can't state the choices")
        r.trace.add("spell.resolve", "effect.library-untracked", player=player)


@handles("add-mana")
def _add_mana(r: Resolution, e: Effect) -> None:
    """The engine doesn't track mana (costs are taken as paid): adding mana changes
    nothing it models, and the trace says so."""
    r.trace.add("spell.resolve", "effect.mana-untracked", player=r.you,
                mana=str(e.get("mana", "")))


@handles("reverse-turn-order")
def _reverse_turn_order(r: Resolution, e: Effect) -> None:
    """Time Distortion: the turn order is reversed (the players' order is the turn
    order)."""
    players = dict(reversed(list(r.state.players.items())))
    r.state = evolve(r.state, players=players)
    r.trace.add("spell.resolve", "effect.turn-order-reversed", order=list(players))


@handles("none")
def _none(r: Resolution, e: Effect) -> None:
    """An effect the catalog marks as not modelled: refused, never skipped."""
    r.refuse(str(e.get("why", "")))


@handles("no-target-or-refuse")
def _no_target_or_refuse(r: Resolution, e: Effect) -> None:
    """A plane's targeted chaos ability (the format can't name its target): with no legal
    target for it the ability is removed from the stack (603.3d) and does nothing;
    otherwise refused."""
    zone = str(e.get("zone", "battlefield"))
    types = frozenset(e.get("types") or ())
    mine = bool(e.get("yours"))
    if any(o.zone == zone and (not types or o.types & types)
           and (not mine or o.owner == r.you) for o in r.state.objects.values()):
        r.refuse("its target can't be stated in the format")
    r.trace.add("spell.resolve", "effect.no-legal-target")
