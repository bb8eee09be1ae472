"""The explanation trace: every step the engine takes, with the rule that justified it.

A step stores a stable event code and small structured data, never prose: the web
layer renders each event through translated templates, and the rule catalogue gives the
rule's summary in the reader's language.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, NamedTuple

from engine.errors import CapExceeded, ErrorItem

if TYPE_CHECKING:
    from engine.eras import Era

MAX_STEPS = 2000


class TraceStep(NamedTuple):
    rule: str | None
    rule_key: str | None
    era: str
    event: str
    data: dict[str, Any]
    action: int | None = None

    def as_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"rule": self.rule, "rule_key": self.rule_key,
                               "event": self.event, "era": self.era}
        if self.action is not None:
            out["action"] = self.action
        out.update(self.data)
        return out


_NUMBERS: dict[str, dict[str, str]] = {}
"""era id -> rule key -> number: the catalogue's numbers, looked up once per process."""
_new_step = tuple.__new__


class Trace:
    """Collects steps for one run; refuses to grow past ``MAX_STEPS``."""

    __slots__ = ("_numbers", "action", "era", "seen", "steps")

    def __init__(self, era: type[Era]) -> None:
        self.era = era
        self.steps: list[TraceStep] = []
        self.action: int | None = None
        # How many steps the catalog cards' triggered abilities have looked at: the trace
        # is the game's record of events (engine/triggers.py).
        self.seen = 0
        self._numbers = _NUMBERS.setdefault(era.key, {})

    def add(self, rule_key: str | None, event: str, **data: Any) -> None:
        steps = self.steps
        if len(steps) >= MAX_STEPS:
            raise CapExceeded(ErrorItem("", f"the scenario takes more than {MAX_STEPS} steps"))
        number = None
        if rule_key:
            number = self._numbers.get(rule_key)
            if number is None:
                number = self._numbers[rule_key] = self.era.rule(rule_key)
        steps.append(_new_step(TraceStep, (number, rule_key, self.era.key, event, data,
                                           self.action)))

    def add_first(self, rule_keys: tuple[str, ...], event: str, **data: Any) -> None:
        """Cite the first of ``rule_keys`` that exists in this era (e.g. indestructible
        was not yet a keyword with a rule of its own in Lorwyn)."""
        from engine import rulebook

        key = next((k for k in rule_keys if rulebook.exists(k, self.era.key)), None)
        self.add(key, event, **data)

    def as_list(self) -> list[dict[str, Any]]:
        return [s.as_dict() for s in self.steps]
