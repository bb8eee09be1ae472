"""Generator parameters (docs/scenario-format.md, "Generators"): a card drawn from a
catalog filter, and conditions (``when:``) that switch list items of the script on or off.

A parameter's values are fixed when the document is parsed (a card filter becomes the
tuple of the catalog's slugs that match it, in catalog order), so a variant is still
"one value per parameter" and a seed still draws one. Whether a drawn card exists in the
era asked is not the filter's business: the draw skips a variant with a card not yet
printed in that era (``engine.draws``).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from engine.cards import Card, catalog
from engine.errors import Errors

# A card filter may match at most this many cards (a `choice` has at most MAX_PARAM_VALUES).
MAX_CARD_POOL = 500

_RANGES = ("power", "toughness", "loyalty", "defense")
_LISTS = ("types", "subtypes", "keywords", "without", "exclude")
FILTER_FIELDS = (*_LISTS[:3], "legendary", *_LISTS[3:], *_RANGES)

# Where `when:` may stand: an item of a list of the script (a setup object, an action, a
# question). Anywhere else it is an unknown field, as before.
WHEN_LISTS = re.compile(r"^(?:actions|questions|setup\.(?:battlefield|hand|graveyard|exile|"
                        r"library|command))$")


class Pruned:
    """A list item whose `when:` is false in a variant: left in place, so that every other
    item keeps its index (and its path, ``actions[3]``), and skipped by the parsers."""

    _instance: Pruned | None = None

    def __new__(cls) -> Pruned:
        if cls._instance is None:
            cls._instance = super().__new__(cls)
        return cls._instance

    def __repr__(self) -> str:
        return "PRUNED"


PRUNED = Pruned()


# -- card filters -----------------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class CardFilter:
    """``{card: {types: [creature], keywords: [trample], power: [3, 8], ...}}``: every
    listed condition holds. ``types``, ``keywords``: all of them; ``subtypes``: any of
    them; ``without``: none of these keywords; ``exclude``: not these cards;
    ``legendary``: true or false; ``power`` .. ``defense``: ``[lo, hi]`` inclusive."""

    types: frozenset[str] = frozenset()
    subtypes: frozenset[str] = frozenset()
    keywords: frozenset[str] = frozenset()
    without: frozenset[str] = frozenset()
    exclude: frozenset[str] = frozenset()
    legendary: bool | None = None
    ranges: tuple[tuple[str, int, int], ...] = ()

    def matches(self, card: Card) -> bool:
        if not self.types <= card.types or not self.keywords <= card.keywords:
            return False
        if self.subtypes and not self.subtypes & set(card.subtypes):
            return False
        if self.without & card.keywords or card.slug in self.exclude:
            return False
        if self.legendary is not None and ("legendary" in card.supertypes) != self.legendary:
            return False
        for name, lo, hi in self.ranges:
            value = getattr(card, name)
            if value is None or not lo <= value <= hi:
                return False
        return True


def card_pool(spec: Any, path: str, err: Errors) -> tuple[str, ...]:
    """The slugs of the catalog cards a filter matches, in catalog order; errors at
    ``path`` (``params.blocker.card.power``) for a malformed filter or an empty pool."""
    if not isinstance(spec, dict) or not spec:
        err.add(path, "`card` is a filter: a mapping such as {types: [creature], "
                      "keywords: [trample], power: [3, 8]}")
        return ()
    known = _catalog_words()
    fields: dict[str, Any] = {}
    ranges: list[tuple[str, int, int]] = []
    for key, value in spec.items():
        at = f"{path}.{key}"
        if key in _LISTS:
            if not isinstance(value, list) or not value or not all(
                    isinstance(v, str) for v in value):
                err.add(at, f"`{key}` is a non-empty list of words")
                continue
            vocabulary = known["cards" if key == "exclude" else
                               "keywords" if key == "without" else key]
            for i, v in enumerate(value):
                if v not in vocabulary:
                    err.add(f"{at}[{i}]", f"no catalog card has {key} {v!r}"
                            if key != "exclude" else f"unknown card {v!r}")
            fields[key] = frozenset(value)
        elif key in _RANGES:
            if (not isinstance(value, list) or len(value) != 2
                    or not all(isinstance(v, int) and not isinstance(v, bool) for v in value)
                    or value[0] > value[1]):
                err.add(at, f"`{key}` is [lo, hi], two whole numbers, lo <= hi")
                continue
            ranges.append((key, value[0], value[1]))
        elif key == "legendary":
            if not isinstance(value, bool):
                err.add(at, "`legendary` is true or false")
                continue
            fields[key] = value
        else:
            err.add(at, f"unknown field {key!r}; a card filter has: {', '.join(FILTER_FIELDS)}")
    flt = CardFilter(**fields, ranges=tuple(ranges))
    pool = tuple(slug for slug, card in catalog().items()
                 if "plane" not in card.types and "phenomenon" not in card.types
                 and flt.matches(card))
    if not pool:
        err.add(path, "no catalog card matches this filter")
    elif len(pool) > MAX_CARD_POOL:
        err.add(path, f"this filter matches {len(pool)} cards; at most {MAX_CARD_POOL}")
    return pool


_words: dict[str, frozenset[str]] = {}


def _catalog_words() -> dict[str, frozenset[str]]:
    """Every type, subtype, keyword and slug the catalog has (the filter's vocabulary)."""
    if not _words:
        cards = catalog().values()
        _words["types"] = frozenset(t for c in cards for t in c.types)
        _words["subtypes"] = frozenset(t for c in cards for t in c.subtypes)
        from engine.state import KEYWORDS
        _words["keywords"] = frozenset(KEYWORDS)
        _words["cards"] = frozenset(c.slug for c in cards)
    return _words


# -- conditions ---------------------------------------------------------------------------------

Condition = tuple[tuple[str, frozenset[Any]], ...]
"""A parsed `when:`: every (parameter, allowed values) pair holds."""


def parse_condition(raw: Any, path: str, params: Mapping[str, tuple[Any, ...]],
                    err: Errors) -> Condition:
    """``when: {blocked: yes}`` or ``when: {blocker: [grizzly-bears, hill-giant]}``."""
    if not isinstance(raw, dict) or not raw:
        err.add(path, "`when` is a mapping parameter -> value (or list of values), e.g. "
                      "{blocked: yes}")
        return ()
    out = []
    for name, wanted in raw.items():
        at = f"{path}.{name}"
        if name not in params:
            err.add(at, f"unknown parameter {name!r}; `when` names a parameter of `params`")
            continue
        values = wanted if isinstance(wanted, list) else [wanted]
        if not values:
            err.add(at, "an empty list of values is never true")
            continue
        known = [v for v in values if any(_same(v, p) for p in params[name])]
        for v in values:
            if not any(v is k for k in known):
                err.add(at, f"{v!r} is not one of the values of {name}: "
                            f"{', '.join(map(_show, params[name][:12]))}"
                            f"{', ...' if len(params[name]) > 12 else ''}")
        if len(known) == len(values):  # (a value given as a list or a mapping is not one)
            out.append((name, frozenset(known)))
    return tuple(out)


def _same(a: Any, b: Any) -> bool:
    return a == b and type(a) is type(b)


def _show(v: Any) -> str:
    return str(v).lower() if isinstance(v, bool) else str(v)


def holds(condition: Condition, values: Mapping[str, Any]) -> bool:
    return all(values.get(name) in wanted for name, wanted in condition)


def setup_items(document: Mapping[str, Any]) -> Iterator[tuple[str, dict[str, Any]]]:
    """Every mapping in a list of the setup (objects of each zone, players, teams), with
    its path (``setup.battlefield[2]``), as written: before any variant prunes it."""
    setup = document.get("setup")
    for key, items in (setup.items() if isinstance(setup, dict) else ()):
        for i, item in enumerate(items if isinstance(items, list) else ()):
            if isinstance(item, dict):
                yield f"setup.{key}[{i}]", item


def conditions(document: Mapping[str, Any], params: Mapping[str, tuple[Any, ...]],
               err: Errors) -> dict[str, Condition]:
    """Every `when:` of the document, checked, by the path of its item (``actions[3]``).
    A `when:` outside the lists it may stand in is left to the parsers (an unknown field);
    in a document without parameters it is an error here."""
    out: dict[str, Condition] = {}
    items = [(f"{name}[{i}]", item) for name in ("actions", "questions")
             for i, item in enumerate(document.get(name) or ())
             if isinstance(document.get(name), list) and isinstance(item, dict)]
    items += [(path, item) for path, item in setup_items(document)
              if WHEN_LISTS.match(path.rpartition("[")[0])]
    for path, item in items:
        if "when" in item:
            if not params:
                err.add(f"{path}.when", "`when` needs parameters: it switches this item "
                                        "on or off by a parameter's value")
                continue
            out[path] = parse_condition(item["when"], f"{path}.when", params, err)
    return out


# -- which parameters a variant shows --------------------------------------------------------

@dataclass(frozen=True, slots=True)
class Reference:
    """A use of a parameter in the script (``$name``, or a `when:` naming it), with the
    conditions of the items it stands in (none: it is always used)."""

    name: str
    guard: Condition


def references(document: Mapping[str, Any], conds: Mapping[str, Condition],
               ref: re.Pattern[str]) -> tuple[Reference, ...]:
    """Every use of a parameter in the board, the actions and the questions' queries (not
    in texts: a value only a text shows draws no new board)."""
    out: set[Reference] = set()

    def visit(node: Any, path: str, guard: Condition) -> None:
        if isinstance(node, str):
            m = ref.match(node)
            if m:
                out.add(Reference(m.group(1), guard))
        elif isinstance(node, dict):
            own = conds.get(path)
            if own is not None:
                for name, _ in own:
                    out.add(Reference(name, guard))
                guard = (*guard, *own)
            for k, v in node.items():
                if k not in ("when", "ask", "text", "name"):
                    visit(v, f"{path}.{k}" if path else str(k), guard)
        elif isinstance(node, list):
            for i, v in enumerate(node):
                visit(v, f"{path}[{i}]", guard)

    for key in ("setup", "actions", "questions"):
        visit(document.get(key), key, ())
    return tuple(sorted(out, key=lambda r: (r.name, repr(r.guard))))


def shown(refs: Iterable[Reference], values: Mapping[str, Any]) -> frozenset[str]:
    """The parameters a variant with these values uses: a value of any other one changes
    nothing the candidate is shown, so two variants differing only there are one board."""
    return frozenset(r.name for r in refs if holds(r.guard, values))
