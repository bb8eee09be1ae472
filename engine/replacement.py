"""The replacement and prevention effects that apply to one damage event, in the order
the affected player chooses (616.1; 419.9 in Lorwyn).

As damage would be dealt, each applicable effect modifies the event once (614.5): the
planeswalker redirection rule (a redirection effect, before Dominaria), a permanent's
static redirection (Empyrial Archangel: "all damage that would be dealt to you is dealt
to Empyrial Archangel instead"), prevention shields (615.7) and protection (702.16e).
When two or more apply, the affected player (or the affected permanent's controller)
chooses one, applies it, and the process repeats with the effects that still apply to
the modified event (616.1e; 616.1d in 2011, 616.1f from 2022): after Empyrial
Archangel's redirection the damage would no longer be dealt to a player, so the
planeswalker redirection rule no longer applies.

The document gives that choice as ``replacement_order`` on the action that deals the
damage; the engine asks for it only where the order changes the result (who is dealt
the damage, how much, what is left of a shield), and otherwise applies the effects in
a fixed order.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from contextvars import ContextVar, Token
from dataclasses import dataclass
from dataclasses import replace as _with
from typing import Any

from engine.eras import Era
from engine.errors import DocumentError, ErrorItem
from engine.prevention import applies, shield_rule
from engine.protection import card_statics, has_statics, protected_from
from engine.state import GameState, Shield, Source
from engine.trace import Trace


@dataclass(frozen=True, slots=True)
class Order:
    """The order an action's ``replacement_order`` gives, and where it is written."""

    effects: tuple[str, ...] | None
    path: str


_ORDER: ContextVar[Order | None] = ContextVar("replacement_order", default=None)


def set_order(effects: tuple[str, ...] | None, path: str) -> Token[Order | None]:
    """As an action begins: the replacement order it gives (or None), until
    ``reset_order`` with the token returned."""
    return _ORDER.set(Order(effects, path))


def reset_order(token: Token[Order | None]) -> None:
    _ORDER.reset(token)


def current_order() -> Order | None:
    return _ORDER.get()


@dataclass(frozen=True, slots=True)
class Event:
    """Damage as it would be dealt."""

    source: Source
    recipient: str
    amount: int
    combat: bool


@dataclass(frozen=True, slots=True)
class Replacer:
    """One effect that may modify a damage event. ``id`` is how ``replacement_order``
    names it: ``redirect``, a shield's id, the permanent whose static ability it is (or
    the protected permanent), the player whose own protection it is."""

    id: str
    kind: str
    """``redirect`` (212.9g / 306.7), ``self-redirect`` (a permanent's static
    redirection), ``shield`` or ``protection``."""
    to: str = ""
    quality: str = ""


Note = tuple[str | None, str, dict[str, Any]]


@dataclass(frozen=True, slots=True)
class Redirect:
    """The planeswalker redirection chosen by the source's controller: damage to
    ``player`` goes to ``planeswalker`` (before Dominaria)."""

    player: str
    planeswalker: str


def _applicable(era: type[Era], state: GameState, shields: tuple[Shield, ...],
                event: Event, redirect: Redirect | None) -> list[Replacer]:
    if event.amount <= 0:
        return []
    out: list[Replacer] = []
    recipient = event.recipient
    is_player = recipient in state.players
    if (redirect is not None and is_player and redirect.player == recipient
            and not event.combat and era.redirection_rule):
        out.append(Replacer("redirect", "redirect", redirect.planeswalker))
    if is_player:
        for obj, _effect in card_statics(state, "damage-to-controller-dealt-to-self"):
            if obj.controller == recipient:
                out.append(Replacer(obj.id, "self-redirect", obj.id))
    for shield in shields:
        if applies(shield, state, recipient, event.source, event.combat):
            out.append(Replacer(shield.id, "shield"))
    for grantor, quality in protected_from(state, recipient, event.source):
        out.append(Replacer(grantor, "protection", quality=quality))
    return out


def _apply(state: GameState, shields: tuple[Shield, ...], event: Event, r: Replacer,
           ) -> tuple[Event, tuple[Shield, ...], Note]:
    """One effect applied to the event: the new event, the shields, a trace note."""
    src = event.source.id
    if r.kind == "redirect":
        pw = state.objects.get(r.to)
        if (pw is None or not pw.on_battlefield or not pw.is_planeswalker
                or pw.controller != event.recipient):
            return event, shields, ("replacement.redirection-gone", "redirect.target-gone",
                                    {"player": event.recipient, "planeswalker": r.to})
        return (_with(event, recipient=r.to), shields,
                ("pw.redirection", "redirect.applied",
                 {"source": src, "player": event.recipient, "planeswalker": r.to,
                  "amount": event.amount, "chosen_by": event.source.controller}))
    if r.kind == "self-redirect":
        obj = state.objects.get(r.to)
        if obj is None or not obj.on_battlefield or not obj.is_creature:
            return event, shields, ("replacement.redirection-gone", "redirect.target-gone",
                                    {"player": event.recipient, "planeswalker": r.to})
        return (_with(event, recipient=r.to), shields,
                ("replacement.redirection", "damage.redirected",
                 {"source": src, "player": event.recipient, "to": r.to,
                  "amount": event.amount}))
    if r.kind == "shield":
        i = next(i for i, s in enumerate(shields) if s.id == r.id)
        shield = shields[i]
        prevented = event.amount if shield.amount is None else min(shield.amount,
                                                                   event.amount)
        if shield.amount is not None:
            shields = (*shields[:i], _with(shield, amount=shield.amount - prevented),
                       *shields[i + 1:])
        data: dict[str, Any] = {"source": src, "recipient": event.recipient,
                                "amount": prevented, "shield": shield.id}
        if shield.amount is None:
            note: Note = (shield_rule(shield), "damage.prevented-all", data)
        else:
            note = (shield_rule(shield), "damage.prevented",
                    {**data, "left": shield.amount - prevented})
        return _with(event, amount=event.amount - prevented), shields, note
    # protection: all of it is prevented (702.16e)
    return (_with(event, amount=0), shields,
            ("protection.damage", "damage.prevented-protection",
             {"source": src, "recipient": event.recipient, "amount": event.amount,
              "quality": r.quality}))


def _key(r: Replacer) -> tuple[str, str]:
    return (r.kind, r.id)


def _outcomes(era: type[Era], state: GameState, shields: tuple[Shield, ...], event: Event,
              redirect: Redirect | None, used: frozenset[tuple[str, str]],
              ) -> set[tuple[str, int, tuple[Shield, ...]]]:
    """Every result the remaining choices can lead to."""
    cands = [r for r in _applicable(era, state, shields, event, redirect)
             if _key(r) not in used]
    if not cands:
        return {(event.recipient, event.amount, shields)}
    out: set[tuple[str, int, tuple[Shield, ...]]] = set()
    for r in cands:
        new_event, new_shields, _note = _apply(state, shields, event, r)
        out |= _outcomes(era, state, new_shields, new_event, redirect, used | {_key(r)})
    return out


def _affected(state: GameState, recipient: str) -> str:
    if recipient in state.players:
        return recipient
    return state.obj(recipient).controller


def replace(era: type[Era], state: GameState, trace: Trace, event: Event,
            redirect: Redirect | None = None) -> tuple[Event, tuple[Shield, ...]]:
    """The damage event as modified by every replacement and prevention effect that
    applies to it, and the shields afterwards; each applied effect is traced."""
    shields = state.shields
    if not shields and redirect is None and not _may_apply(state, event):
        return event, shields
    used: frozenset[tuple[str, str]] = frozenset()
    earlier: list[Replacer] = []
    while True:
        cands = [r for r in _applicable(era, state, shields, event, redirect)
                 if _key(r) not in used]
        for r in earlier:  # 616.1e: what no longer applies to the modified event
            if _key(r) not in used and r not in cands and event.amount > 0:
                trace.add("replacement.reapply", "replacement.no-longer-applies",
                          effect=r.id, recipient=event.recipient)
        earlier = cands
        if not cands:
            return event, shields
        chosen = cands[0] if len(cands) == 1 else _choose(
            era, state, trace, shields, event, redirect, used, cands)
        event, shields, (key, code, data) = _apply(state, shields, event, chosen)
        trace.add(key, code, **data)
        used |= {_key(chosen)}


def _may_apply(state: GameState, event: Event) -> bool:
    """A quick look for effects other than shields and the redirection rule: protection,
    a permanent's static redirection."""
    if event.amount <= 0:
        return False
    recipient = event.recipient
    if recipient in state.players:
        return bool(state.players[recipient].protection) or has_statics(
            state, ("damage-to-controller-dealt-to-self", "protection-from-chosen-name"))
    obj = state.objects.get(recipient)
    return obj is not None and bool(obj.protection)


def may_apply_any(state: GameState, events: Iterable[tuple[Source, str, int, bool]],
                  ) -> bool:
    """``_may_apply`` for damage events dealt at the same time, in one pass (the common
    case: nothing but the damage itself)."""
    players = state.players
    objects = state.objects
    statics: bool | None = None
    for _source, recipient, amount, _combat in events:
        if amount <= 0:
            continue
        if recipient in players:
            if players[recipient].protection:
                return True
            if statics is None:
                statics = has_statics(state, ("damage-to-controller-dealt-to-self",
                                              "protection-from-chosen-name"))
            if statics:
                return True
        else:
            obj = objects.get(recipient)
            if obj is not None and obj.protection:
                return True
    return False


def _choose(era: type[Era], state: GameState, trace: Trace, shields: tuple[Shield, ...],
            event: Event, redirect: Redirect | None, used: frozenset[tuple[str, str]],
            cands: list[Replacer]) -> Replacer:
    """616.1: the affected player chooses which effect applies first."""
    order = current_order()
    player = _affected(state, event.recipient)
    ids = list(dict.fromkeys(r.id for r in cands))
    effects = order.effects if order is not None else None
    if effects:
        listed = [r for r in cands if r.id in effects]
        if listed:
            chosen = min(listed, key=lambda r: effects.index(r.id))
            trace.add("replacement.order", "replacement.chosen", player=player,
                      effect=chosen.id, among=ids)
            return chosen
    results = set()
    for r in cands:
        new_event, new_shields, _note = _apply(state, shields, event, r)
        results |= _outcomes(era, state, new_shields, new_event, redirect,
                             used | {_key(r)})
        if len(results) > 1:
            break
    if len(results) <= 1:
        return cands[0]
    path = order.path if order is not None else ""
    raise DocumentError(ErrorItem(
        path,
        f"{player} chooses the order of the replacement and prevention effects that apply "
        f"to the {event.amount} damage {event.source.id} would deal to {event.recipient} "
        f"({', '.join(ids)}), and the order changes the result: give it as "
        f"`replacement_order: [...]` on this action",
        era.rule("replacement.order"), era.key))


def parse_order(add: Callable[[str, str], None], raw: Any, path: str,
                ) -> tuple[str, ...] | None:
    """An action's ``replacement_order``: a list of effects (shield ids, permanent ids,
    player ids, ``redirect``), the first to apply first."""
    if raw is None:
        return None
    if (not isinstance(raw, list) or not raw
            or not all(isinstance(e, str) and e for e in raw)):
        add(path, "`replacement_order` is a list of effects, first applied first: shield "
                  "ids, ids of permanents whose ability replaces the damage, `redirect`")
        return None
    if len(set(raw)) != len(raw):
        add(path, "`replacement_order` names an effect twice")
        return None
    return tuple(raw)


def check_order(state: GameState, order: tuple[str, ...], path: str) -> None:
    """Each effect the order names exists as the action begins: ``redirect``, a shield, a
    permanent or a player."""
    shields = {s.id for s in state.shields}
    for i, effect in enumerate(order):
        if (effect != "redirect" and effect not in shields and effect not in state.objects
                and effect not in state.players):
            raise DocumentError.at(f"{path}[{i}]", f"{effect!r} names no prevention shield, "
                                                   f"permanent or player of this game (nor "
                                                   f"`redirect`)")


def order_schema() -> dict[str, Any]:
    return {"description": "The affected player's order for the replacement and prevention "
                           "effects that apply to the same damage (616.1): shield ids, ids "
                           "of permanents whose ability replaces the damage, `redirect`.",
            "type": "array", "items": {"type": "string", "minLength": 1}, "minItems": 1}
