"""The machinery of resolving an effect: the players' choices an effect asks for
(``discard``, ``sacrifice``), one resolution (:class:`Resolution`), the registry of effect
kinds (``handles``), and the two helpers every handler module uses (``hit``,
``gain_life``). The handlers themselves are in ``damaging``, ``permanents`` and
``players`` (see the package's docstring)."""


from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from engine import rulebook
from engine.cards import Card, Effect, UnknownCard, Wording, find_card
from engine.damage import Source, damage_to_player, deal_damage
from engine.eras import Era
from engine.errors import DocumentError, ErrorItem, IllegalAction, Violation
from engine.kinds.base import listed, pairs_text, parse_pairs
from engine.state import GameState
from engine.targets import target_violation
from engine.trace import Trace

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
class Resolution:
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
        return rule_or_resolution(self.era, key)

    def illegal_choice(self, path: str, message: str) -> IllegalAction:
        """A player's choice (``discard``, ``sacrifice``) the effect can't take."""
        key = self.key("effect.discard") if ".discard." in path else "spell.resolve"
        return IllegalAction(path, Violation(key, self.era.rule(key), "effect.choice",
                                             message, {}), self.era.key)

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


Handler = Callable[[Resolution, Effect], None]
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
    r = Resolution(era, state, trace, path, source, what or describe(state, source, effect),
             wording.text, target_list, legal, x, redirect_to, choices,
             dict(targets) if isinstance(targets, dict) else {})
    perform(r, effect)
    return r.state


def perform(r: Resolution, effect: Effect) -> None:
    handler = HANDLERS.get(effect.kind)
    if handler is None:
        r.refuse()
        return
    handler(r, effect)
    gain = effect.get("gain_life")
    if gain and effect.kind != "gain-life":
        gain_life(r, r.you, int(gain))
    self_damage = effect.get("self_damage")
    if self_damage:
        r.state = hit(r.era, r.state, r.trace, r.source, r.you, int(self_damage), {})


def resolve_text_effect(era: type[Era], state: GameState, trace: Trace, path: str,
                        effect: Effect, source: Source, what: str, text: str) -> GameState:
    """An effect with no targets and no choices given (a plane's chaos ability, a
    phenomenon's encounter): "you" is ``source.controller``."""
    r = Resolution(era, state, trace, path, source, what, text, [], [], None, {}, NO_CHOICES)
    perform(r, effect)
    return r.state



def rule_or_resolution(era: type[Era], key: str) -> str:
    """``key`` if the era has that rule, else the resolution rule (608.2) itself."""
    return key if rulebook.exists(key, era.key) else "spell.resolve"


def hit(era: type[Era], state: GameState, trace: Trace, source: Source, recipient: str,
        amount: int, redirect_to: Mapping[str, str]) -> GameState:
    """Non-combat damage to a player (perhaps redirected) or to a permanent."""
    if state.is_player(recipient):
        state, _ = damage_to_player(era, state, trace, source, recipient, amount,
                                    redirect_to.get(recipient))
        return state
    return deal_damage(era, state, trace, source, recipient, amount, combat=False)



def gain_life(r: Resolution, player: str, amount: int) -> None:
    r.state = r.state.with_life_change(player, amount)
    r.trace.add("spell.resolve", "effect.gain-life", player=player, amount=amount)

