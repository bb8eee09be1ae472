from __future__ import annotations

from datetime import date
from typing import ClassVar

from engine.eras.xln import XLN


class DOM(XLN):
    """Dominaria, CR effective 2018-04-27: the redirection rule is removed.

    - 306.7 becomes a historical note: noncombat damage to a player can no longer be
      redirected to a planeswalker. Cards got errata ("any target", "target player or
      planeswalker"); untargeted damage (Earthquake) no longer reaches planeswalkers.
    - Two-Headed Giant: each creature attacks a player or a planeswalker, not the team.
    """

    key: ClassVar[str] = "dom-2018"
    name: ClassVar[str] = "Dominaria"
    set_code: ClassVar[str] = "DOM"
    effective: ClassVar[date] = date(2018, 4, 27)

    redirection_rule: ClassVar[bool] = False
    twohg_attack_team: ClassVar[bool] = False
