from __future__ import annotations

from datetime import date
from typing import ClassVar

from engine.eras.base import DamageDivision, DeathtouchRule, Era


class M10(Era):
    """Magic 2010, CR effective 2009-07-10: the rewrite and renumbering.

    - Renumbered: planeswalkers 306, loyalty abilities 606, state-based actions 704,
      combat damage 510, keywords 702 (trample 702.17).
    - Combat damage no longer uses the stack (510.2): it is dealt as soon as assigned.
    - Damage assignment order (509.2): a blocked creature orders its blockers and must
      assign lethal damage to one before it assigns any to the next (510.1c).
    - Deathtouch becomes a static ability; under this first version its controller may
      divide combat damage freely among the creatures blocking it, ignoring the order
      (trample still needs damage equal to toughness on each blocker).
    - Lifelink becomes a static ability: the life is gained as the damage is dealt, and
      several instances are redundant (702.13e).
    """

    key: ClassVar[str] = "m10-2009"
    name: ClassVar[str] = "Magic 2010"
    set_code: ClassVar[str] = "M10"
    effective: ClassVar[date] = date(2009, 7, 10)

    combat_damage_uses_stack: ClassVar[bool] = False
    blocker_division: ClassVar[DamageDivision] = "ordered"
    deathtouch: ClassVar[DeathtouchRule] = "m10"
    lifelink_trigger: ClassVar[bool] = False
