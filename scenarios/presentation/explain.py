"""The engine's trace as numbered steps in the reader's language.

The engine records event codes and data; the words live here, translated, and the rule
summaries come from the rule catalogue in the reader's language.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.utils.translation import get_language, ngettext_lazy
from django.utils.translation import gettext_lazy as _

from engine import GameState, TraceStep, rule_exists, rule_summary
from scenarios.presentation.board import player_label
from scenarios.presentation.wording import euphonic

EVENTS: dict[str, Any] = {
    "combat.attacks": _("%(attacker)s attacks %(target)s."),
    "combat.blocks": _("%(blocker)s blocks %(attacker)s."),
    "combat.order": _("%(attacker)s's damage assignment order: %(order)s."),
    "combat.assign": _("%(attacker)s assigns its combat damage: %(assignment)s."),
    "combat.assigns-nothing": _("%(attacker)s assigns no combat damage."),
    "combat.damage-step": _("Combat damage step (first strike: %(first_strike)s)."),
    "combat.damage-on-stack": _("The combat damage assignments go on the stack."),
    "combat.damage-resolves": _("The combat damage on the stack resolves."),
    "combat.damage-not-dealt": _("%(amount)s damage assigned to %(recipient)s is not dealt: "
                                 "it has left the battlefield."),
    "combat.removed": _("%(object)s is removed from combat."),
    "combat.target-removed": _("%(target)s left combat: %(attacker)s is still attacking, "
                               "attacking nothing."),
    "combat.ends": _("Combat ends: every creature is removed from combat."),
    # Where a number meets a noun, plural forms chosen by ``amount`` ("1 danno", "4 danni");
    # English reads the same either way, so its singular and plural are one text.
    "damage.player": ngettext_lazy(
        "%(source)s deals %(amount)s damage to %(player)s (life: %(life)s).",
        "%(source)s deals %(amount)s damage to %(player)s (life: %(life)s).", "amount"),
    "damage.planeswalker": ngettext_lazy(
        "%(source)s deals %(amount)s damage to %(object)s, removing that many loyalty "
        "counters (loyalty: %(loyalty)s).",
        "%(source)s deals %(amount)s damage to %(object)s, removing that many loyalty "
        "counters (loyalty: %(loyalty)s).", "amount"),
    "damage.creature": ngettext_lazy(
        "%(source)s deals %(amount)s damage to %(object)s (damage marked: %(marked)s).",
        "%(source)s deals %(amount)s damage to %(object)s (damage marked: %(marked)s).",
        "amount"),
    "damage.battle": ngettext_lazy(
        "%(source)s deals %(amount)s damage to %(object)s (defense: %(defense)s).",
        "%(source)s deals %(amount)s damage to %(object)s (defense: %(defense)s).", "amount"),
    "damage.lifelink": ngettext_lazy(
        "Lifelink: %(player)s gains %(amount)s life (life: %(life)s).",
        "Lifelink: %(player)s gains %(amount)s life (life: %(life)s).", "amount"),
    "damage.recipient-gone": _("%(object)s is gone: the damage is not dealt."),
    "redirect.applied": _("%(chosen_by)s redirects the %(amount)s damage from %(player)s to "
                          "%(planeswalker)s."),
    "redirect.target-gone": _("%(planeswalker)s is no longer there: the redirection does "
                              "nothing and %(player)s is dealt the damage."),
    "redirect.no-rule": _("There is no redirection rule in these rules: the damage goes to "
                          "%(player)s."),
    "sba.zero-toughness": _("%(object)s has 0 toughness and is put into the graveyard."),
    "sba.lethal-damage": _("%(object)s has lethal damage and is destroyed."),
    "sba.deathtouch": _("%(object)s was dealt damage by a source with deathtouch and is "
                        "destroyed."),
    "sba.zero-loyalty": _("%(object)s has 0 loyalty and is put into its owner's graveyard."),
    "sba.uniqueness": _("The planeswalker uniqueness rule puts %(object)s into the "
                        "graveyard."),
    "sba.legend": _("The legend rule puts %(object)s into the graveyard."),
    "sba.battle-zero-defense": _("%(object)s has no defense counters and is put into the "
                                 "graveyard."),
    "sba.choice": _("%(player)s keeps %(keep)s."),
    "sba.indestructible": _("%(object)s is indestructible and isn't destroyed."),
    "sba.player-loses": _("%(player)s has 0 or less life and loses the game."),
    "sba.team-loses": _("Team %(team)s has 0 or less life and loses the game."),
    "loyalty.enters": _("%(object)s enters with %(loyalty)s loyalty counters."),
    "loyalty.activated": _("%(permanent)s activates loyalty ability %(ability)s, paying "
                           "%(cost)s (loyalty: %(loyalty)s)."),
    "battle.enters": _("%(object)s enters with %(defense)s defense counters."),
    "spell.cast": _("%(by)s casts %(card)s."),
    "spell.to-graveyard": _("%(object)s goes to the graveyard."),
    "effect.destroyed": _("%(object)s is destroyed."),
    "effect.indestructible": _("%(object)s is indestructible and isn't destroyed."),
    "effect.target-illegal": _("%(target)s is no longer a legal target and is not "
                               "affected."),
    "effect.gain-life": ngettext_lazy("%(player)s gains %(amount)s life.",
                                      "%(player)s gains %(amount)s life.", "amount"),
    "effect.lose-life": ngettext_lazy("%(player)s loses %(amount)s life.",
                                      "%(player)s loses %(amount)s life.", "amount"),
    "effect.draw": ngettext_lazy("%(player)s draws %(amount)s card.",
                                 "%(player)s draws %(amount)s cards.", "amount"),
    "effect.tokens": _("%(player)s creates tokens: %(tokens)s."),
    "effect.untap": _("%(player)s untaps the creatures they control."),
    "effect.discard": ngettext_lazy("The player discards %(amount)s card.",
                                    "The player discards %(amount)s cards.", "amount"),
    "effect.not-modelled": _("The rest of this effect is not modelled."),
    "effect.characteristics": _("%(object)s now has types %(types)s."),
    "control.changed": _("%(controller)s gains control of %(object)s."),
    "control.unchanged": _("%(object)s's controller doesn't change."),
    "zone.moved": _("%(object)s is put into %(to)s: it is a new object."),
    "zone.enters": _("%(object)s enters the battlefield."),
    "counters.changed": _("%(object)s: %(delta)s %(kind)s counters (now %(now)s)."),
    "choose.not-asked": _("No choice is asked for in these rules."),
    "choose.applied": _("The choice was made as the rules asked."),
    "order.no-rule": _("There is no damage assignment order in these rules."),
    "planechase.roll": _("%(player)s rolls the planar die, paying %(cost)s mana: "
                         "%(result)s."),
    "planechase.roll-by-effect": _("An effect makes %(player)s roll the planar die (no "
                                   "cost, and it doesn't count as a roll): %(result)s."),
    "planechase.planeswalking-ability": _("The planeswalker symbol: the planar controller "
                                          "planeswalks."),
    "planechase.chaos": _("Chaos: the chaos ability of %(plane)s triggers (%(wording)s); "
                          "%(controller)s, the planar controller, controls it."),
    "planechase.planeswalk": _("%(player)s planeswalks. To the bottom of their owners' "
                               "planar decks, face down, each a new object: %(leaving)s."),
    "planechase.turned-up": _("%(player)s turns %(card)s face up."),
    "planechase.encounter": _("%(controller)s encounters %(phenomenon)s: its encounter "
                              "ability triggers."),
    "planechase.phenomenon-leaves": _("State-based action: the planar controller "
                                      "planeswalks away from %(phenomenon)s."),
    "planechase.planeswalk-away": _("%(controller)s planeswalked away from %(plane)s: its "
                                    "\"planeswalk away\" ability triggers and resolves."),
    "planechase.damage-by-toughness": _("%(plane)s is face up: each creature assigns combat "
                                        "damage equal to its toughness rather than its "
                                        "power."),
    "planechase.creatures-get-power": _("%(plane)s is face up: every creature's power "
                                        "changes by %(amount)s, and a creature with power 0 "
                                        "or less assigns no combat damage."),
    "planechase.untap-skipped": _("%(plane)s is face up: %(player)s skips the untap step; "
                                  "tapped permanents stay tapped."),
    "turn.step": _("The turn moves to the %(step)s step."),
    "turn.cleanup": _("Cleanup: damage wears off and \"until end of turn\" effects end."),
    "turn.begins": _("%(active)s's turn begins."),
}

ZONE_WORDS = {"graveyard": _("the graveyard"), "exile": _("exile"), "hand": _("a hand"),
              "library": _("a library"), "battlefield": _("the battlefield")}
DIE_WORDS = {"blank": _("a blank face"), "chaos": _("the chaos symbol"),
             "planeswalk": _("the planeswalker symbol")}
CHAOS_WORDING = {"ensues": _("worded “whenever chaos ensues”"),
                 "roll": _("worded “when you roll {CHAOS}”")}


@dataclass(frozen=True, slots=True)
class Step:
    number: int
    rule: str | None
    summary: str
    text: str
    event: str
    key: str | None = None  # the rule's catalogue key: its pill links to the rule page


def _name(state: GameState, value: Any, language: str) -> str:
    if isinstance(value, str):
        if value in state.objects:
            return state.objects[value].display_name(language)
        if value in state.players or value in state.teams:
            return player_label(state, value)
        try:
            from engine import find_card

            card = find_card(value)
            return card.name.get(language) or card.name["en"]
        except Exception:  # noqa: BLE001 - any other word stays as it is
            return value
    return str(value)


def _format_data(state: GameState, data: dict[str, Any], language: str) -> dict[str, Any]:
    """The data of a step as sentence slots: names in ``language``, words for codes; whole
    numbers stay numbers, so that a plural sentence can agree with them."""
    out: dict[str, Any] = {}
    for key, value in data.items():
        if key in ("assignment",) and isinstance(value, dict):
            out[key] = ", ".join(f"{n} → {_name(state, r, language)}" for r, n in value.items())
        elif isinstance(value, list):
            out[key] = ", ".join(_name(state, v, language) for v in value) or "—"
        elif key == "to":
            out[key] = str(ZONE_WORDS.get(value, value))
        elif key == "result":
            out[key] = str(DIE_WORDS.get(value, value))
        elif key == "wording":
            out[key] = str(CHAOS_WORDING.get(value, value))
        elif isinstance(value, bool):
            out[key] = str(_("yes") if value else _("no"))
        elif isinstance(value, int):
            out[key] = value
        else:
            out[key] = _name(state, value, language)
    return out


def explain_trace(steps: list[TraceStep], state: GameState, era: str,
                  language: str | None = None) -> list[Step]:
    """Numbered steps: the rule as numbered in ``era``, its summary and what happened."""
    language = (language or get_language() or "en")[:2]
    out: list[Step] = []
    for step in steps:
        template = EVENTS.get(step.event)
        data = _format_data(state, step.data, language)
        if template is None:
            text = step.event
        else:
            try:
                text = euphonic(str(template % data), language)
            except (KeyError, ValueError, TypeError):
                text = step.event
        summary = ""
        if step.rule_key and rule_exists(step.rule_key, era):
            summary = rule_summary(step.rule_key, era, language)
        out.append(Step(len(out) + 1, step.rule, summary, text, step.event, step.rule_key))
    return out
