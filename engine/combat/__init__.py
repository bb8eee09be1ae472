"""Combat: declaring attackers and blockers, and assigning and dealing combat damage.

Rules come in pairs, as in python-chess: a generator of the legal options
(``attack_targets``, ``max_damage_to``, ``legal_assignments``) and a checker that says
why something is illegal (``attack_violation``, ``block_violations``,
``assignment_violation``), built on the same small predicates.

The three regimes of dividing damage among blockers are the era's
``blocker_division``: free (Lorwyn's 310.2c, and 510.1c again from Foundations) or
ordered (the damage assignment order, 509.2 and 510.1c, Magic 2010 to March of the
Machine). Lorwyn's combat damage also waits on the stack (310.1).

The modules, each importing only those above it:
``declare`` (attackers, blockers, the damage assignment order), ``timing`` (who assigns
in which combat damage step), ``options`` (what an attacker may assign to, the default),
``assignment`` (checking and listing assignments), ``steps`` (assigning and dealing the
damage of a step). The rest of the engine imports the names below from ``engine.combat``.
"""

from engine.combat.assignment import (
    MAX_ENUMERATED,
    assignment_most_to,
    assignment_violation,
    legal_assignments,
    max_damage_to,
)
from engine.combat.assignment import _compositions as _compositions  # used by the tests
from engine.combat.declare import (
    attack_targets,
    attack_violation,
    attacker_violation,
    block_violations,
    blocker_violation,
    declare_attackers,
    declare_blockers,
    defending_players,
    legal_targets,
    order_violation,
)
from engine.combat.options import Options, StepContext, default_assignment, options, step_context
from engine.combat.steps import (
    Assigned,
    AssignmentError,
    assign_step,
    deal_assigned,
    mark_step_done,
    resolve_pending,
    to_pending,
)
from engine.combat.timing import first_strike_step_needed

__all__ = [
    "MAX_ENUMERATED",
    "Assigned", "AssignmentError", "Options", "StepContext",
    "assign_step", "assignment_most_to", "assignment_violation", "attack_targets",
    "attack_violation", "attacker_violation", "block_violations", "blocker_violation",
    "deal_assigned", "declare_attackers", "declare_blockers", "default_assignment",
    "defending_players", "first_strike_step_needed", "legal_assignments", "legal_targets",
    "mark_step_done", "max_damage_to", "options", "order_violation", "resolve_pending",
    "step_context", "to_pending",
]
