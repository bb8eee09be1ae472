from __future__ import annotations

from datetime import date
from typing import ClassVar

from engine.eras.mh2 import MH2


class MOM(MH2):
    """March of the Machine, CR effective 2023-04-14: battles.

    - 310: battles have defense counters and a protector; they can be attacked by any
      player for whom the protector is a defending player; only the protector's creatures
      block creatures attacking it; damage removes defense counters (310.6); a battle
      with no defense goes to the graveyard (704.5v). "Any target" includes battles.
    - Planes are renumbered 311, phenomena 312; chaos abilities read "Whenever chaos
      ensues" (311.7).
    """

    key: ClassVar[str] = "mom-2023"
    name: ClassVar[str] = "March of the Machine"
    set_code: ClassVar[str] = "MOM"
    effective: ClassVar[date] = date(2023, 4, 14)

    battles: ClassVar[bool] = True
    chaos_ensues: ClassVar[bool] = True
