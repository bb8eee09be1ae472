from __future__ import annotations

from datetime import date
from typing import ClassVar

from engine.eras.base import UniqueRule
from engine.eras.m14 import M14


class XLN(M14):
    """Ixalan, CR effective 2017-09-29: the uniqueness rule is removed.

    - 306.4 becomes a historical note; every planeswalker is legendary (Oracle errata),
      so the legend rule (now 704.5j) governs them: by name, per controller.
    """

    key: ClassVar[str] = "xln-2017"
    name: ClassVar[str] = "Ixalan"
    set_code: ClassVar[str] = "XLN"
    effective: ClassVar[date] = date(2017, 9, 29)

    uniqueness_rule: ClassVar[UniqueRule | None] = None
    planeswalkers_legendary: ClassVar[bool] = True
