from __future__ import annotations

from datetime import date
from typing import ClassVar

from engine.eras.base import UniqueRule
from engine.eras.m11 import M11


class M14(M11):
    """Magic 2014, CR effective 2013-07-13: legend rule and uniqueness rule per player.

    - Legend rule (704.5k): if a player controls two or more legendary permanents with
      the same name, that player chooses one and the rest go to the graveyard.
    - Uniqueness rule (306.4, 704.5j): the same for planeswalkers that one player
      controls sharing a planeswalker type. Other players' permanents no longer matter.
    """

    key: ClassVar[str] = "m14-2013"
    name: ClassVar[str] = "Magic 2014"
    set_code: ClassVar[str] = "M14"
    effective: ClassVar[date] = date(2013, 7, 13)

    uniqueness_rule: ClassVar[UniqueRule | None] = "per-controller"
    legend_rule: ClassVar[UniqueRule] = "per-controller"
