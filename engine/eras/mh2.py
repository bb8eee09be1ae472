from __future__ import annotations

from datetime import date
from typing import ClassVar

from engine.eras.dom import DOM


class MH2(DOM):
    """Modern Horizons 2, CR effective 2021-06-18: trample over planeswalkers.

    - 702.19c-e: a creature with trample over planeswalkers attacking a planeswalker may,
      once its blockers have lethal damage and the planeswalker damage equal to its
      loyalty, assign the rest to that planeswalker's controller; if the planeswalker left
      combat, to the defending player.
    - Loyalty costs may be modified (606.4-606.6); a negative cost larger than the
      loyalty still can't be paid (606.6).
    """

    key: ClassVar[str] = "mh2-2021"
    name: ClassVar[str] = "Modern Horizons 2"
    set_code: ClassVar[str] = "MH2"
    effective: ClassVar[date] = date(2021, 6, 18)

    trample_over_planeswalkers: ClassVar[bool] = True
