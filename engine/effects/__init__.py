"""Resolving the effects of catalog cards: spells, loyalty and other activated abilities,
and (through ``engine.planechase``) the chaos, encounter and planeswalk-away abilities of
planes and phenomena.

A resolving spell or ability does everything it says, in order (608.2c; 413.2 in the
Lorwyn numbering). Every effect of the catalog is either performed here, each step traced
with its rule, or refused: resolving it raises :class:`ResolutionError`, naming the card,
the ability and its text (`spell.resolve`). A target that became illegal is not affected
(608.2b); if every target is illegal the spell or ability does nothing at all. Damage to a
player may be redirected to a planeswalker in the eras of the redirection rule (before
dom-2018): that changes where the damage goes, never whom the spell targets ("that player
discards" still means the targeted player).

Choices an effect asks of a player (which cards to discard, which creature to sacrifice)
come from the action's ``discard`` and ``sacrifice`` fields (:class:`Choices`); they are
required only where the choice changes the outcome.

Libraries (``GameState.libraries``): a player's library is exactly the cards the document
lists in `setup.library` (top first) when it lists any; otherwise it is unknown and never
empty, and a card drawn from it is a new unknown card in the hand (``PLAYER-card-N``, named
"a card"). Drawing from a listed library that is empty makes the player lose at the next
state-based check (704.5b; 420.5g in Lorwyn).

The package: ``resolution`` (choices, one resolution, the registry of effect kinds) and
one module of handlers per family: ``damaging``, ``permanents``, ``players``. Importing the
package registers every handler.
"""

from engine.effects import damaging, permanents, players  # noqa: F401  (registration)
from engine.effects.resolution import (
    CHOICE_FIELDS,
    NO_CHOICES,
    Choices,
    Resolution,
    ResolutionError,
    ability_label,
    choice_pairs,
    choice_text,
    choices_schema,
    handles,
    parse_choices,
    resolve_effect,
    resolve_text_effect,
)

__all__ = ["CHOICE_FIELDS", "NO_CHOICES", "Choices", "Resolution", "ResolutionError",
           "ability_label", "choice_pairs", "choice_text", "choices_schema", "handles",
           "parse_choices", "resolve_effect", "resolve_text_effect"]
