from __future__ import annotations

from datetime import date
from typing import ClassVar

from engine.eras.base import DeathtouchRule
from engine.eras.m10 import M10


class M11(M10):
    """Magic 2011, rules effective 2010-07-16: deathtouch and damage assignment.

    - Any nonzero combat damage from a source with deathtouch counts as lethal damage for
      assigning combat damage (702.2): the damage assignment order still applies, and a
      trampler with deathtouch assigns 1 to each blocker and the rest on.
    - Infect arrives within this era with Scars of Mirrodin (2010-10-01): damage from a
      source with infect gives players poison counters and creatures -1/-1 counters.
    """

    key: ClassVar[str] = "m11-2010"
    name: ClassVar[str] = "Magic 2011"
    set_code: ClassVar[str] = "M11"
    effective: ClassVar[date] = date(2010, 7, 16)

    deathtouch: ClassVar[DeathtouchRule] = "m11"
    infect: ClassVar[bool] = True
