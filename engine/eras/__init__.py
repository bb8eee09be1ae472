"""The rules eras and their registry.

An era is the rules in force from one update to the next. ``ERAS`` lists them oldest
first; ``find_era`` finds one by id, ``era_on`` by date.
"""

from __future__ import annotations

from datetime import date

from engine.eras.base import Era
from engine.eras.dom import DOM
from engine.eras.fdn import FDN
from engine.eras.m10 import M10
from engine.eras.m11 import M11
from engine.eras.m14 import M14
from engine.eras.mh2 import MH2
from engine.eras.mom import MOM
from engine.eras.xln import XLN
from engine.errors import EngineError

ERAS: tuple[type[Era], ...] = (Era, M10, M11, M14, XLN, DOM, MH2, MOM, FDN)
ERA_KEYS: tuple[str, ...] = tuple(e.key for e in ERAS)
CURRENT: type[Era] = ERAS[-1]
_BY_KEY = {e.key: e for e in ERAS}


class UnknownEra(EngineError):
    pass


def find_era(key: str) -> type[Era]:
    """The era with id ``key`` (``lrw-2007`` ... ``fdn-2024``)."""
    try:
        return _BY_KEY[key]
    except (KeyError, TypeError):
        raise UnknownEra(
            f"unknown era {key!r}; known eras: {', '.join(ERA_KEYS)}"
        ) from None


def era_on(day: date) -> type[Era]:
    """The era whose rules were in force on ``day``."""
    if day < ERAS[0].effective:
        raise UnknownEra(
            f"no era before {ERAS[0].effective.isoformat()}: planeswalkers did not exist yet"
        )
    found = ERAS[0]
    for era in ERAS:
        if era.effective <= day:
            found = era
    return found


def era_index(key: str) -> int:
    return ERA_KEYS.index(find_era(key).key)


def era_end(era: type[Era]) -> date | None:
    """The first day this era's rules were no longer in force (None for the current)."""
    i = ERAS.index(era)
    return ERAS[i + 1].effective if i + 1 < len(ERAS) else None


__all__ = ["CURRENT", "ERAS", "ERA_KEYS", "Era", "UnknownEra", "era_end", "era_index",
           "era_on", "find_era"]
