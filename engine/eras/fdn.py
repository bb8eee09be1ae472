from __future__ import annotations

from datetime import date
from typing import ClassVar

from engine.eras.base import DamageDivision
from engine.eras.mom import MOM


class FDN(MOM):
    """Foundations, CR effective 2024-11-08: damage assignment order removed.

    - 509.2 (the order) is gone; 510.1c: a creature blocked by several creatures divides
      its combat damage among them as its controller chooses, with no lethal-first
      requirement. Trample still needs lethal damage on every blocker (702.19b).
    """

    key: ClassVar[str] = "fdn-2024"
    name: ClassVar[str] = "Foundations"
    set_code: ClassVar[str] = "FDN"
    effective: ClassVar[date] = date(2024, 11, 8)

    blocker_division: ClassVar[DamageDivision] = "free"
