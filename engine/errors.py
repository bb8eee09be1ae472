"""The engine's documented errors.

Every error the engine raises is an :class:`EngineError`. A document error names the
path of the offending field (``actions[2].block.bears``) and, for an illegal action, the
rule it breaks as numbered in the era being simulated.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from engine.eras import Era


@dataclass(frozen=True, slots=True)
class Violation:
    """Why something is illegal: a rule (catalogue key and number), a code and data."""

    rule_key: str
    rule: str
    code: str
    message: str
    data: dict[str, Any] = field(default_factory=dict)


class EngineError(Exception):
    """Base class of every error the engine raises on purpose."""


@dataclass(frozen=True, slots=True)
class ErrorItem:
    path: str
    message: str
    rule: str | None = None
    era: str | None = None

    def as_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"path": self.path, "message": self.message, "rule": self.rule}
        if self.era is not None:
            out["era"] = self.era
        return out


class DocumentError(EngineError):
    """A scenario document is malformed or its actions break the rules.

    Carries one or more :class:`ErrorItem`; ``str()`` gives a readable summary.
    """

    def __init__(self, items: list[ErrorItem] | ErrorItem) -> None:
        self.items: list[ErrorItem] = [items] if isinstance(items, ErrorItem) else list(items)
        super().__init__("; ".join(_describe(i) for i in self.items))

    @classmethod
    def at(cls, path: str, message: str, rule: str | None = None) -> DocumentError:
        return cls(ErrorItem(path, message, rule))

    def locate(self, path: str) -> None:
        """Give the items raised without a path (deep in the engine, where the action is
        not known) the path of the action that raised them."""
        if all(i.path for i in self.items):
            return
        self.items[:] = [i if i.path else replace(i, path=path) for i in self.items]
        self.args = ("; ".join(_describe(i) for i in self.items),)

    def in_era(self, era: str) -> DocumentError:
        """The same error with every item that names no era naming ``era``."""
        if all(item.era for item in self.items):
            return self
        return DocumentError([replace(i, era=i.era or era) for i in self.items])


class IllegalAction(DocumentError):
    """An action breaks a rule of the era being simulated."""

    def __init__(self, path: str, violation: Violation, era: str) -> None:
        self.violation = violation
        super().__init__(ErrorItem(path, violation.message, violation.rule, era))


class RestlessBoard(DocumentError):
    """A setup board that is not at rest in the era simulated: a state-based action would
    apply at once (704.3). A generator's draw skips such a variant."""


class CapExceeded(DocumentError):
    """A document is larger or longer-running than the engine accepts."""


class Errors:
    """The errors found while reading a document, collected to be raised together."""

    def __init__(self) -> None:
        self.items: list[ErrorItem] = []

    def add(self, path: str, message: str, rule: str | None = None) -> None:
        self.items.append(ErrorItem(path, message, rule))

    def raise_if_any(self) -> None:
        if self.items:
            raise DocumentError(self.items)


def illegal(path: str, era: type[Era], key: str, code: str, message: str,
            **data: Any) -> IllegalAction:
    """An action at ``path`` breaks rule ``key`` as ``era`` numbers it."""
    return IllegalAction(path, Violation(key, era.rule(key), code, message, data), era.key)


def raise_violation(path: str, era: type[Era], why: Violation | None) -> None:
    """Raise ``why`` as an illegal action at ``path``, if there is one."""
    if why is not None:
        raise IllegalAction(path, why, era.key)


def _describe(item: ErrorItem) -> str:
    text = f"{item.path}: {item.message}" if item.path else item.message
    if item.rule:
        text += f" (rule {item.rule})"
    if item.era:
        text += f" [{item.era}]"
    return text
