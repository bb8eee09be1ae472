"""Resolving the effects of catalog cards: spells, loyalty and other activated abilities,
and (through ``engine.planechase``) the chaos, encounter and planeswalk-away abilities of
planes and phenomena.

A resolving spell or ability does everything it says, in order (608.2c; 413.2 in the
Lorwyn numbering). Every effect of the catalog is either performed here, each step traced
with its rule, or refused: resolving it raises :class:`ResolutionError`, naming the card,
the ability and its text (`spell.resolve`). A target that became illegal is not affected
(608.2b); if every target is illegal the spell or ability does nothing at all. Damage to a
player may be redirected to a planeswalker in the eras of the redirection rule (before
dom-2018): that changes where the damage goes, never whom the spell targets ("that player
discards" still means the targeted player).

Choices an effect asks of a player (which cards to discard, which creature to sacrifice)
come from the action's ``discard`` and ``sacrifice`` fields (:class:`Choices`); they are
required only where the choice changes the outcome.

Libraries (``GameState.libraries``): a player's library is exactly the cards the document
lists in `setup.library` (top first) when it lists any; otherwise it is unknown and never
empty, and a card drawn from it is a new unknown card in the hand (``PLAYER-card-N``, named
"a card"). Drawing from a listed library that is empty makes the player lose at the next
state-based check (704.5b; 420.5g in Lorwyn).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from engine import rulebook
from engine.cards import Card, Effect, UnknownCard, Wording, find_card
from engine.damage import Source, damage_to_player, deal_damage, deal_damage_all
from engine.eras import Era
from engine.errors import DocumentError, ErrorItem, IllegalAction, Violation
from engine.kinds.base import listed, pairs_text, parse_pairs
from engine.state import GameState, Obj, evolve, with_counters
from engine.targets import target_violation
from engine.trace import Trace
from engine.zones import change_control, enter_battlefield, move_object

UNKNOWN_CARD_NAME: Mapping[str, str] = {"en": "a card", "it": "una carta", "es": "una carta"}
"""The name of a card drawn from a library the document doesn't list."""

CHOICE_FIELDS = ("discard", "sacrifice")
"""The fields of `cast` and `activate` that state players' choices for the effect."""


class ResolutionError(DocumentError):
    """The engine can't resolve an effect as the document states it: the engine does not
    model the effect, or the document lacks a choice the effect asks for. The action
    itself may be legal: a `legal` query about it answers true."""

    def __init__(self, era: type[Era], path: str, message: str) -> None:
        super().__init__(ErrorItem(path, message, era.rule("spell.resolve"), era.key))


@dataclass(frozen=True, slots=True)
class Choices:
    """Players' choices for a resolving effect: player -> the ids they choose."""

    discard: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    """The cards each player discards (701.8b: the discarding player chooses)."""
    sacrifice: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    """The permanents each player sacrifices (701.17a: the player who sacrifices)."""


NO_CHOICES = Choices()


def parse_choices(add: Callable[[str, str], None], players: Mapping[str, Any],
                  args: Mapping[str, Any], path: str) -> Choices:
    """The ``discard`` and ``sacrifice`` fields: ``{PLAYER: [ID, ...]}`` (one id may be
    written alone). The ids are checked when the effect resolves (a drawn card's id is
    only known then)."""
    out: dict[str, dict[str, tuple[str, ...]]] = {}
    for name in CHOICE_FIELDS:
        raw = args.get(name)
        out[name] = {}
        if raw is None:
            continue
        at = f"{path}.{name}"
        if not isinstance(raw, dict):
            add(at, f"`{name}` is a mapping player -> the ids that player chooses")
            continue
        for player, ids in raw.items():
            if player not in players:
                add(f"{at}.{player}", f"{player!r} is not a player")
                continue
            items = [ids] if isinstance(ids, str) else ids
            if not isinstance(items, list) or not all(isinstance(i, str) for i in items):
                add(f"{at}.{player}", "a list of ids")
                continue
            if len(set(items)) != len(items):
                add(f"{at}.{player}", "an id is listed twice")
                continue
            out[name][str(player)] = tuple(items)
    return Choices(out["discard"], out["sacrifice"])


def choices_schema() -> dict[str, Any]:
    """The JSON-Schema fragments of the choice fields."""
    ids = {"anyOf": [{"type": "string"}, {"type": "array", "items": {"type": "string"}}]}
    return {
        "discard": {"description": "Player -> the cards that player discards, where an "
                                   "effect makes them discard fewer cards than they hold.",
                    "type": "object", "additionalProperties": ids},
        "sacrifice": {"description": "Player -> the permanent that player sacrifices, "
                                     "where they have a choice.",
                      "type": "object", "additionalProperties": ids},
    }


def choice_pairs(data: Mapping[str, Any], name: str) -> dict[str, list[str]] | None:
    """The form editor's "player: id, id" lines of a choice field as {player: [id, ...]}."""
    pairs = parse_pairs(data.get(name) or "")
    return {str(k): listed(str(v)) for k, v in pairs.items()} or None


def choice_text(args: Mapping[str, Any], name: str) -> str:
    """A choice field as the form editor's "player: id, id" lines."""
    raw = args.get(name) or {}
    return pairs_text({k: ", ".join(v) if isinstance(v, list) else v
                       for k, v in raw.items()})


# -- the resolution ---------------------------------------------------------------------------

@dataclass(slots=True)
class _Res:
    """One effect resolving: the state as it changes, and what the effect was given."""

    era: type[Era]
    state: GameState
    trace: Trace
    path: str
    source: Source
    what: str
    """"Garruk Wildspeaker's −1": how an error names the ability."""
    text: str
    targets: list[str]
    legal: list[bool]
    x: int | None
    redirect_to: Mapping[str, str]
    choices: Choices
    amounts: Mapping[str, int] = field(default_factory=dict)
    """For a spell that divides damage: target -> amount."""

    @property
    def you(self) -> str:
        return self.source.controller

    def refuse(self, why: str = "") -> None:
        raise ResolutionError(self.era, self.path,
                              f"{self.what} (“{self.text}”) is not modelled by the engine"
                              + (f": {why}" if why else ""))

    def key(self, key: str) -> str:
        """``key`` if the era has that rule, else the resolution rule (608.2) itself."""
        return key if rulebook.exists(key, self.era.key) else "spell.resolve"

    def legal_targets(self) -> list[str]:
        return [t for t, ok in zip(self.targets, self.legal, strict=True) if ok]

    def amount(self, effect: Effect, name: str = "amount") -> int:
        raw = effect.get(name, 0)
        return (self.x or 0) if raw == "X" else int(raw or 0)

    def players(self, who: str) -> list[str]:
        """The players an instruction names, in APNAP order (101.4)."""
        state = self.state
        if who == "you":
            return [self.you]
        if who == "target":
            out = []
            for t in self.legal_targets():
                if state.is_player(t):
                    out.append(t)
                elif t in state.objects:  # "that planeswalker's controller"
                    out.append(state.obj(t).controller)
            return out
        order = list(state.players)
        start = order.index(state.turn.active)
        apnap = [p for p in order[start:] + order[:start] if not state.players[p].lost]
        if who == "each":
            return apnap
        if who == "each-opponent":
            return [p for p in apnap if state.are_opponents(self.you, p)]
        raise ValueError(who)


Handler = Callable[[_Res, Effect], None]
HANDLERS: dict[str, Handler] = {}
"""Effect kind -> how it is performed. Another module may add its own kinds here."""


def handles(*kinds: str) -> Callable[[Handler], Handler]:
    def register(fn: Handler) -> Handler:
        for kind in kinds:
            HANDLERS[kind] = fn
        return fn
    return register


def describe(state: GameState, source: Source, effect: Effect) -> str:
    """How an error names the effect's ability ("Garruk Wildspeaker's −1"), from the
    catalog card the source is."""
    obj = state.objects.get(source.id)
    slug = obj.card if obj is not None else source.id
    try:
        card = find_card(slug or "")
    except UnknownCard:  # an inline object: no catalog card
        return obj.display_name() if obj is not None else source.id
    return ability_label(card, effect)


def ability_label(card: Card, effect: Effect) -> str:
    name = card.name["en"]
    for ability in card.abilities:
        if ability.effect is effect:
            return f"{name}'s {ability.cost.replace('-', '−')}"
    if card.chaos is effect:
        return f"{name}'s chaos ability"
    if card.encounter is effect:
        return f"{name}'s encounter ability"
    if card.planeswalk_away is effect:
        return f"{name}'s planeswalk-away ability"
    return name


def resolve_effect(era: type[Era], state: GameState, trace: Trace, path: str, effect: Effect,
                   source: Source, wording: Wording, targets: list[str] | dict[str, int],
                   x: int | None, redirect_to: Mapping[str, str], *,
                   choices: Choices = NO_CHOICES, what: str | None = None) -> GameState:
    """Resolve a spell's or ability's effect (608.2): a target that became illegal is not
    affected (608.2b); when every target is illegal, nothing happens."""
    target_list = list(targets)
    legal = []
    for i, t in enumerate(target_list):
        spec = wording.targets[min(i, len(wording.targets) - 1)] if wording.targets else None
        ok = spec is None or target_violation(era, state, source.controller, spec, t,
                                              source=source) is None
        if not ok:
            trace.add("spell.targets", "effect.target-illegal", target=t)
        legal.append(ok)
    if target_list and not any(legal):
        trace.add("spell.resolve", "effect.all-targets-illegal", targets=target_list)
        return state
    r = _Res(era, state, trace, path, source, what or describe(state, source, effect),
             wording.text, target_list, legal, x, redirect_to, choices,
             dict(targets) if isinstance(targets, dict) else {})
    perform(r, effect)
    return r.state


def perform(r: _Res, effect: Effect) -> None:
    handler = HANDLERS.get(effect.kind)
    if handler is None:
        r.refuse()
        return
    handler(r, effect)
    gain = effect.get("gain_life")
    if gain and effect.kind != "gain-life":
        _gain_life(r, r.you, int(gain))
    self_damage = effect.get("self_damage")
    if self_damage:
        r.state = hit(r.era, r.state, r.trace, r.source, r.you, int(self_damage), {})


def resolve_text_effect(era: type[Era], state: GameState, trace: Trace, path: str,
                        effect: Effect, source: Source, what: str, text: str) -> GameState:
    """An effect with no targets and no choices given (a plane's chaos ability, a
    phenomenon's encounter): "you" is ``source.controller``."""
    r = _Res(era, state, trace, path, source, what, text, [], [], None, {}, NO_CHOICES)
    perform(r, effect)
    return r.state


# -- damage -----------------------------------------------------------------------------------

def hit(era: type[Era], state: GameState, trace: Trace, source: Source, recipient: str,
        amount: int, redirect_to: Mapping[str, str]) -> GameState:
    """Non-combat damage to a player (perhaps redirected) or to a permanent."""
    if state.is_player(recipient):
        state, _ = damage_to_player(era, state, trace, source, recipient, amount,
                                    redirect_to.get(recipient))
        return state
    return deal_damage(era, state, trace, source, recipient, amount, combat=False)


@handles("damage")
def _damage(r: _Res, e: Effect) -> None:
    for t in r.legal_targets():
        r.state = hit(r.era, r.state, r.trace, r.source, t, r.amount(e), r.redirect_to)


@handles("damage-and-discard")
def _damage_and_discard(r: _Res, e: Effect) -> None:
    """Blightning: damage to the target, then "that player" (or, from dom-2018, "that
    planeswalker's controller") discards. A redirection before dom-2018 moves the damage,
    not the target: the targeted player still discards."""
    discarding = r.players("target")
    _damage(r, e)
    for player in discarding:
        _discard_cards(r, player, int(e.get("discard", 0)))


@handles("damage-divided")
def _damage_divided(r: _Res, e: Effect) -> None:
    for t, ok in zip(r.targets, r.legal, strict=True):
        if ok:
            r.state = hit(r.era, r.state, r.trace, r.source, t, r.amounts.get(t, 0),
                          r.redirect_to)


@handles("damage-each")
def _damage_each(r: _Res, e: Effect) -> None:
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
def _damage_player_and_creatures(r: _Res, e: Effect) -> None:
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


# -- permanents -------------------------------------------------------------------------------

def _destroy(r: _Res, oid: str) -> None:
    if r.state.obj(oid).has("indestructible"):
        r.trace.add_first(("keyword.indestructible", "spell.resolve"),
                          "effect.indestructible", object=oid)
        return
    r.state = move_object(r.state, oid, "graveyard", r.trace, rule_key="spell.resolve",
                          event="effect.destroyed")


@handles("destroy")
def _destroy_targets(r: _Res, e: Effect) -> None:
    for t in r.legal_targets():
        _destroy(r, t)


@handles("destroy-all")
def _destroy_all(r: _Res, e: Effect) -> None:
    """Destroy all permanents of ``types`` (all but ``except_types``), of the target
    player's (``whose: target``) or of everyone's. Planes are never permanents."""
    types = frozenset(e.get("types") or ())
    spared = frozenset(e.get("except_types") or ())
    owners = r.players("target") if e.get("whose") == "target" else None
    for o in r.state.battlefield():
        if types and not o.types & types or o.types & spared:
            continue
        if owners is not None and o.controller not in owners:
            continue
        _destroy(r, o.id)


@handles("exile")
def _exile(r: _Res, e: Effect) -> None:
    for t in r.legal_targets():
        r.state = move_object(r.state, t, "exile", r.trace, rule_key="spell.resolve",
                              event="effect.exiled")


@handles("return-to-hand")
def _return_to_hand(r: _Res, e: Effect) -> None:
    for t in r.legal_targets():
        r.state = move_object(r.state, t, "hand", r.trace, rule_key="spell.resolve",
                              event="effect.returned-to-hand")


@handles("gain-control")
def _gain_control(r: _Res, e: Effect) -> None:
    for t in r.legal_targets():
        before = r.state.obj(t).controller
        r.state = change_control(r.state, t, r.you, r.trace)
        obj = r.state.obj(t)
        keywords, eot = obj.keywords, obj.eot_keywords
        if e.get("haste") and "haste" not in keywords:
            keywords, eot = keywords | {"haste"}, eot | {"haste"}
        r.state = r.state.with_object(evolve(
            obj, tapped=False if e.get("untap") else obj.tapped,
            keywords=keywords, eot_keywords=eot,
            eot_controller=obj.eot_controller or before))
        if e.get("untap") and e.get("haste"):
            r.trace.add("spell.resolve", "effect.untap-and-haste", object=t)


def _pump(r: _Res, oid: str, e: Effect) -> None:
    """+X/+Y and keywords until end of turn (611.2: only the creatures there as it
    resolves), and counters."""
    obj = r.state.obj(oid)
    for kind, n in (e.get("counters") or {}).items():
        obj = with_counters(obj, str(kind), int(n))
        r.trace.add("spell.resolve", "effect.counter-put", object=oid, kind=str(kind),
                    amount=int(n))
    dp, dt = (e.get("pt") or (0, 0))
    if dp or dt:
        obj = evolve(obj, power=None if obj.power is None else obj.power + dp,
                     toughness=None if obj.toughness is None else obj.toughness + dt,
                     eot_pt=(obj.eot_pt[0] + dp, obj.eot_pt[1] + dt))
        r.trace.add("spell.resolve", "effect.pumped", object=oid, power=f"{dp:+d}",
                    toughness=f"{dt:+d}")
    for keyword in e.get("keywords") or ():
        r.trace.add("spell.resolve", "effect.keyword-gained", object=oid, keyword=keyword)
    new_keywords = frozenset(e.get("keywords") or ()) - obj.keywords
    obj = evolve(obj, keywords=obj.keywords | new_keywords,
                 eot_keywords=obj.eot_keywords | new_keywords)
    r.state = r.state.with_object(obj)


@handles("pump-each")
def _pump_each(r: _Res, e: Effect) -> None:
    """Each creature you control (Garruk's −4, Ajani Goldmane's −1, The Great Forest)."""
    for o in r.state.battlefield():
        if o.is_creature and o.controller == r.you:
            _pump(r, o.id, e)


@handles("pump-target")
def _pump_target(r: _Res, e: Effect) -> None:
    for t in r.legal_targets():
        _pump(r, t, e)


@handles("untap")
def _untap_targets(r: _Res, e: Effect) -> None:
    for t in r.legal_targets():
        _untap(r, t)


@handles("untap-all")
def _untap_all(r: _Res, e: Effect) -> None:
    """Untap all permanents you control (The Eon Fog's chaos ability)."""
    for o in r.state.battlefield():
        if o.controller == r.you:
            _untap(r, o.id)


def _untap(r: _Res, oid: str) -> None:
    obj = r.state.obj(oid)
    if obj.tapped:
        r.state = r.state.with_object(evolve(obj, tapped=False))
        r.trace.add("spell.resolve", "effect.untapped", object=oid)
    else:
        r.trace.add("spell.resolve", "effect.already-untapped", object=oid)


@handles("sacrifice")
def _sacrifice(r: _Res, e: Effect) -> None:
    """Target player sacrifices a creature (701.17a): that player chooses which."""
    types = frozenset(e.get("types") or ("creature",))
    for player in r.players("target"):
        own = [o.id for o in r.state.battlefield() if o.controller == player and o.types & types]
        chosen = r.choices.sacrifice.get(player)
        at = f"{r.path}.sacrifice.{player}"
        if not own:
            r.trace.add("spell.resolve", "effect.nothing-to-sacrifice", player=player)
            continue
        if chosen is None and len(own) > 1:
            raise ResolutionError(r.era, r.path, f"{player} sacrifices one of "
                                  f"{', '.join(own)}: say which with "
                                  f"`sacrifice: {{{player}: [ID]}}`")
        pick = list(chosen) if chosen is not None else own
        if len(pick) != 1 or pick[0] not in own:
            raise _illegal_choice(r, at, f"{player} sacrifices exactly one of "
                                         f"{', '.join(own)}")
        r.state = move_object(r.state, pick[0], "graveyard", r.trace,
                              rule_key="spell.resolve", event="effect.sacrificed",
                              player=player)


@handles("return-all-from-graveyards")
def _return_all(r: _Res, e: Effect) -> None:
    """Liliana Vess's −8: every creature card in every graveyard onto the battlefield
    under your control."""
    types = frozenset(e.get("types") or ("creature",))
    for o in list(r.state.objects.values()):
        if o.zone == "graveyard" and o.types & types:
            r.state = enter_battlefield(r.era, r.state, r.trace, o.id, controller=r.you,
                                        counters=None)


@handles("create-tokens")
def _create_tokens(r: _Res, e: Effect) -> None:
    create_tokens(r.era, r.state, r.trace, r.source.id, r.you, e, r)


def create_tokens(era: type[Era], state: GameState, trace: Trace, source_id: str,
                  player: str, e: Effect, r: _Res | None = None) -> GameState:
    """Tokens (111.1, 701.6a; 110.5 before), with the ids `SOURCE-token-1`, `-2`, …
    counted per source over the whole game."""
    spec: Mapping[str, Any] = e.get("token") or {}
    name = dict(spec.get("name") or {"en": "Token"})
    key = "effect.create-token" if rulebook.exists("effect.create-token", era.key) \
        else "spell.resolve"
    amount = int(e.get("amount", 1) or 0)
    for _ in range(amount):
        n = 1
        while f"{source_id}-token-{n}" in state.objects:
            n += 1
        oid = f"{source_id}-token-{n}"
        state = state.with_object(Obj(
            id=oid, name=name, types=frozenset(spec.get("types") or ("creature",)),
            controller=player, owner=player, subtypes=tuple(spec.get("subtypes") or ()),
            power=spec.get("power"), toughness=spec.get("toughness"),
            keywords=frozenset(spec.get("keywords") or ()),
            colors=frozenset(spec.get("colors") or ()), sick=True))
        trace.add(key, "effect.token", object=oid, player=player)
    if r is not None:
        r.state = state
    return state


# -- life -------------------------------------------------------------------------------------

def _gain_life(r: _Res, player: str, amount: int) -> None:
    r.state = r.state.with_life_change(player, amount)
    r.trace.add("spell.resolve", "effect.gain-life", player=player, amount=amount)


@handles("gain-life")
def _gain(r: _Res, e: Effect) -> None:
    """``amount`` life, or ``amount`` for each permanent you control of subtype ``per``
    (Nissa Revane: 2 for each Elf), or one for each card in your hand (``per: hand``)."""
    amount = r.amount(e)
    per = e.get("per")
    if per == "hand":
        amount *= sum(1 for o in r.state.objects.values()
                      if o.zone == "hand" and o.owner == r.you)
    elif per:
        amount *= sum(1 for o in r.state.battlefield() if o.controller == r.you
                      and str(per).casefold() in (s.casefold() for s in o.subtypes))
    _gain_life(r, r.you, amount)


@handles("lose-life")
def _lose(r: _Res, e: Effect) -> None:
    """``who`` (each-opponent, target, each) loses ``amount`` life (Siege Rhino's enters
    ability; in Two-Headed Giant each player's loss comes off the team's total, 810.9)."""
    for player in r.players(str(e.get("who", "each-opponent"))):
        r.state = r.state.with_life_change(player, -r.amount(e))
        r.trace.add("spell.resolve", "effect.lose-life", player=player, amount=r.amount(e))


@handles("life-becomes")
def _life_becomes(r: _Res, e: Effect) -> None:
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


def _illegal_choice(r: _Res, path: str, message: str) -> IllegalAction:
    key = r.key("effect.discard") if ".discard." in path else "spell.resolve"
    return IllegalAction(path, Violation(key, r.era.rule(key), "effect.choice", message, {}),
                         r.era.key)


def _discard_cards(r: _Res, player: str, amount: int | None) -> None:
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
        raise _illegal_choice(r, at, f"{player}'s hand is {', '.join(ids)}: "
                                     f"{', '.join(sorted(set(chosen) - set(ids)))} "
                                     f"is not in it")
    if amount is None or len(hand) <= amount:
        cards = ids
    elif chosen is not None:
        if len(chosen) != amount:
            raise _illegal_choice(r, at, f"{player} discards {amount} of "
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
def _discard(r: _Res, e: Effect) -> None:
    """``who`` (target, each, you, each-opponent) discards ``amount`` cards, or their
    hand (``amount: hand``)."""
    raw = e.get("amount", 1)
    for player in r.players(str(e.get("who", "target"))):
        _discard_cards(r, player, None if raw == "hand" else int(raw))


@handles("draw")
def _draw(r: _Res, e: Effect) -> None:
    """``who`` (target, each, you) draws ``amount`` cards, one at a time (121.2)."""
    for player in r.players(str(e.get("who", "target"))):
        for _ in range(r.amount(e)):
            r.state = draw_card(r.era, r.state, r.trace, player)


def draw_card(era: type[Era], state: GameState, trace: Trace, player: str) -> GameState:
    """One draw (121.1; 423.1 in Lorwyn): the top card of the library, an unknown card
    from a library the document doesn't list, or nothing from an empty listed library
    (the player then loses at the next state-based check)."""
    key = "effect.draw" if rulebook.exists("effect.draw", era.key) else "spell.resolve"
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
def _sequence(r: _Res, e: Effect) -> None:
    """Several instructions in order (608.2c): Chandra Ablaze's −2."""
    for raw in e.get("steps") or ():
        step = Effect(str(raw["kind"]), {k: v for k, v in raw.items() if k != "kind"})
        perform(r, step)


@handles("mill")
def _mill(r: _Res, e: Effect) -> None:
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
def _library_unknown(r: _Res, e: Effect) -> None:
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
def _add_mana(r: _Res, e: Effect) -> None:
    """The engine doesn't track mana (costs are taken as paid): adding mana changes
    nothing it models, and the trace says so."""
    r.trace.add("spell.resolve", "effect.mana-untracked", player=r.you,
                mana=str(e.get("mana", "")))


@handles("reverse-turn-order")
def _reverse_turn_order(r: _Res, e: Effect) -> None:
    """Time Distortion: the turn order is reversed (the players' order is the turn
    order)."""
    players = dict(reversed(list(r.state.players.items())))
    r.state = evolve(r.state, players=players)
    r.trace.add("spell.resolve", "effect.turn-order-reversed", order=list(players))


@handles("none")
def _none(r: _Res, e: Effect) -> None:
    """An effect the catalog marks as not modelled: refused, never skipped."""
    r.refuse(str(e.get("why", "")))


@handles("no-target-or-refuse")
def _no_target_or_refuse(r: _Res, e: Effect) -> None:
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
