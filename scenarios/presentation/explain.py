"""The engine's trace as numbered steps in the reader's language.

The engine records event codes and data; the words live here, translated, and the rule
summaries come from the rule catalogue in the reader's language.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.utils.translation import get_language, ngettext_lazy
from django.utils.translation import gettext_lazy as _

from engine import GameState, TraceStep, rule_exists, rule_summary, rule_unsure
from scenarios.presentation.board import player_label
from scenarios.presentation.wording import euphonic

EVENTS: dict[str, Any] = {
    "combat.attacks": _("%(player)s declares attackers: %(attacks)s."),
    "combat.no-attackers": _("%(player)s declares no attackers."),
    "combat.no-blockers": _("No creature blocks."),
    "combat.enters-attacking": _("%(attacker)s enters the battlefield attacking %(target)s; "
                                 "it was never declared as an attacker."),
    "combat.enters-attacking-unblocked": _("%(attacker)s enters the battlefield attacking "
                                           "%(target)s after blockers were declared: it is "
                                           "unblocked."),
    "combat.enters-outside-combat": _("%(object)s enters the battlefield, but not attacking: "
                                      "it isn't the combat phase after attackers were "
                                      "declared."),
    "combat.enters-noncreature": _("%(object)s isn't a creature: it enters the battlefield "
                                   "but is never attacking."),
    "combat.enters-not-attacker": _("%(object)s is controlled by a player who isn't "
                                    "attacking: it enters the battlefield but is never "
                                    "attacking."),
    "combat.enters-target-gone": _("%(target)s can no longer be attacked: %(object)s enters "
                                   "the battlefield but is never attacking."),
    "combat.enters-target-invalid": _("%(target)s isn't a defending player, nor a "
                                      "planeswalker or battle of one: %(object)s enters the "
                                      "battlefield but is never attacking."),
    "copy.enters-as-copy": _("%(object)s enters the battlefield as a copy of %(original)s."),
    "copy.becomes-copy": _("%(object)s becomes a copy of %(original)s; it gets no counters "
                           "for entering."),
    "copy.not-legendary": _("The copy isn't legendary."),
    "copy.extra-counters": _("The copy gets its additional counters: %(counters)s."),
    "battle.siege-exiled": _("The last defense counter was removed from %(object)s: its "
                             "Siege trigger exiles it, and its controller may cast it "
                             "transformed (not modelled: it stays in exile)."),
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
    "damage.poison": ngettext_lazy(
        "%(source)s deals %(amount)s damage to %(player)s: with infect, that many poison "
        "counters (poison: %(poison)s).",
        "%(source)s deals %(amount)s damage to %(player)s: with infect, that many poison "
        "counters (poison: %(poison)s).", "amount"),
    "damage.counters": ngettext_lazy(
        "%(source)s deals %(amount)s damage to %(object)s: with wither or infect, that many "
        "-1/-1 counters (now %(counters)s).",
        "%(source)s deals %(amount)s damage to %(object)s: with wither or infect, that many "
        "-1/-1 counters (now %(counters)s).", "amount"),
    "damage.prevented": ngettext_lazy(
        "The shield %(shield)s prevents %(amount)s damage %(source)s would deal to "
        "%(recipient)s (%(left)s left).",
        "The shield %(shield)s prevents %(amount)s damage %(source)s would deal to "
        "%(recipient)s (%(left)s left).", "amount"),
    "damage.prevented-all": ngettext_lazy(
        "The shield %(shield)s prevents the %(amount)s damage %(source)s would deal to "
        "%(recipient)s.",
        "The shield %(shield)s prevents the %(amount)s damage %(source)s would deal to "
        "%(recipient)s.", "amount"),
    "damage.prevented-protection": ngettext_lazy(
        "Protection (%(quality)s): the %(amount)s damage %(source)s would deal to "
        "%(recipient)s is prevented.",
        "Protection (%(quality)s): the %(amount)s damage %(source)s would deal to "
        "%(recipient)s is prevented.", "amount"),
    "damage.redirected": ngettext_lazy(
        "The %(amount)s damage %(source)s would deal to %(player)s is dealt to %(to)s "
        "instead.",
        "The %(amount)s damage %(source)s would deal to %(player)s is dealt to %(to)s "
        "instead.", "amount"),
    "prevention.shield-created": ngettext_lazy(
        "A shield, %(shield)s, will prevent the next %(amount)s damage that would be dealt "
        "to %(to)s this turn.",
        "A shield, %(shield)s, will prevent the next %(amount)s damage that would be dealt "
        "to %(to)s this turn.", "amount"),
    "prevention.shield-all-created": _("A shield, %(shield)s, will prevent all damage that "
                                       "would be dealt to %(to)s this turn."),
    "replacement.chosen": _("%(player)s chooses which effect applies first: %(effect)s (of "
                            "%(among)s)."),
    "replacement.no-longer-applies": _("%(effect)s no longer applies: the damage would now be "
                                       "dealt to %(recipient)s."),
    "trigger.lifelink": ngettext_lazy(
        "Lifelink of %(source)s triggers.",
        "Lifelink of %(source)s triggers %(instances)s times, once for each instance.",
        "instances"),
    "trigger.deathtouch": ngettext_lazy(
        "Deathtouch of %(source)s triggers: destroy %(object)s.",
        "Deathtouch of %(source)s triggers %(instances)s times, once for each instance: "
        "destroy %(object)s.", "instances"),
    "trigger.deathtouch-destroys": _("The deathtouch trigger resolves: %(object)s is "
                                     "destroyed."),
    "trigger.deathtouch-nothing": _("The deathtouch trigger resolves: %(object)s is no longer "
                                    "that creature, so nothing happens."),
    "trigger.attack": _("%(attacker)s attacks: the ability of %(source)s triggers, aimed at "
                        "%(target)s."),
    "trigger.attack-damage": ngettext_lazy(
        "The ability of %(source)s resolves: %(amount)s damage to %(target)s.",
        "The ability of %(source)s resolves: %(amount)s damage to %(target)s.", "amount"),
    "trigger.attack-damage-nothing": _("%(attacker)s attacks %(target)s, neither a player nor "
                                       "a planeswalker: the ability of %(source)s deals no "
                                       "damage."),
    "trigger.target-gone": _("%(target)s is no longer there: the ability of %(source)s does "
                             "nothing."),
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
    "sba.player-loses-empty-library": _("%(player)s attempted to draw from an empty library "
                                        "and loses the game."),
    "sba.team-loses": _("Team %(team)s has 0 or less life and loses the game."),
    "sba.player-poisoned": _("%(player)s has %(poison)s poison counters and loses the game."),
    "sba.team-poisoned": _("Team %(team)s has %(poison)s poison counters and loses the "
                           "game."),
    "sba.counters-cancel": ngettext_lazy(
        "%(object)s has +1/+1 and -1/-1 counters: %(amount)s of each is removed.",
        "%(object)s has +1/+1 and -1/-1 counters: %(amount)s of each are removed.", "amount"),
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
    "effect.all-targets-illegal": _("Every target (%(targets)s) is illegal now: it doesn't "
                                    "resolve and does nothing."),
    "effect.untap-and-haste": _("%(object)s untaps and gains haste until end of turn."),
    "effect.counter-put": ngettext_lazy("%(object)s gets %(amount)s %(kind)s counter.",
                                        "%(object)s gets %(amount)s %(kind)s counters.",
                                        "amount"),
    "effect.pumped": _("%(object)s gets %(power)s/%(toughness)s until end of turn."),
    "effect.keyword-gained": _("%(object)s gains %(keyword)s until end of turn."),
    "effect.untapped": _("%(object)s untaps."),
    "effect.already-untapped": _("%(object)s is already untapped."),
    "effect.exiled": _("%(object)s is exiled."),
    "effect.returned-to-hand": _("%(object)s returns to its owner's hand."),
    "effect.sacrificed": _("%(player)s sacrifices %(object)s."),
    "effect.nothing-to-sacrifice": _("%(player)s has nothing to sacrifice."),
    "effect.token": _("%(player)s creates a token: %(object)s."),
    "effect.life-becomes": _("%(player)s's life total becomes %(life)s."),
    "effect.discarded": _("%(player)s discards %(object)s."),
    "effect.discard-empty-hand": _("%(player)s has no cards in hand to discard."),
    "effect.drawn": _("%(player)s draws %(object)s."),
    "effect.drawn-unknown": _("%(player)s draws a card from a library the scenario doesn't "
                              "list."),
    "effect.draw-empty-library": _("%(player)s has to draw from an empty library."),
    "effect.milled": _("%(object)s goes from %(player)s's library to the graveyard."),
    "effect.library-untracked": _("%(player)s's library isn't listed in the scenario: this "
                                  "changes nothing the engine tracks."),
    "effect.mana-untracked": _("%(player)s adds %(mana)s; the engine doesn't track mana."),
    "effect.turn-order-reversed": _("The order of turns is reversed: %(order)s."),
    "effect.no-legal-target": _("The ability has no legal target: it is removed from the "
                                "stack and does nothing."),
    "effect.characteristics": _("%(object)s now has types %(types)s."),
    "control.changed": _("%(controller)s gains control of %(object)s."),
    "control.unchanged": _("%(object)s's controller doesn't change."),
    "zone.moved": _("%(object)s is put into %(to)s: it is a new object."),
    "zone.enters": _("%(object)s enters the battlefield."),
    "game.concedes": _("%(player)s concedes the game: they lose it and leave it at once."),
    "game.player-leaves": _("%(player)s leaves the game; the game goes on for the others."),
    "game.object-leaves": _("%(object)s leaves the game with its owner."),
    "game.control-ends": _("The effect that gave %(player)s control of %(object)s ends: "
                           "it returns to %(controller)s's control."),
    "game.exiled-controller-left": _("%(object)s is exiled: %(player)s, who controlled it, "
                                     "left the game."),
    "game.abilities-cease": _("The abilities %(player)s controlled that were waiting to go "
                              "on the stack cease to exist."),
    "combat.defender-left": _("%(attacker)s stays attacking, but %(player)s has left the "
                              "game: no combat damage is assigned to them."),
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
    "planechase.team-you": _("%(plane)s's ability says “you”: in Two-Headed Giant that means "
                             "both players of the planar controller's team, so it is done for "
                             "each of them."),
    "planechase.new-controller": _("%(player)s becomes the planar controller."),
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
    # Loyalty exceptions, other activated abilities, catalog triggers (issue 14, loyalty).
    "loyalty.again-oath": _("%(source)s lets %(permanent)s's loyalty abilities be activated "
                            "twice this turn rather than once: this is the second time."),
    "loyalty.again-chain-veil": _("%(permanent)s's loyalty ability is activated as though "
                                  "none of its loyalty abilities had been activated this "
                                  "turn (activation %(times)s this turn)."),
    "loyalty.cost-combined": _("%(permanent)s's %(printed)s ability costs an additional "
                               "%(added)s (%(sources)s): the costs combine into one, "
                               "%(total)s."),
    "loyalty.extra-activation": _("%(source)s: %(player)s may activate one loyalty ability "
                                  "of each planeswalker they control once more this turn "
                                  "(extra activations: %(extra)s)."),
    "ability.activated": _("%(player)s activates ability %(ability)s of %(permanent)s "
                           "(%(cost)s); its mana, %(mana)s, is treated as paid."),
    "ability.tapped": _("%(permanent)s becomes tapped to pay {T}."),
    "trigger.triggers": _("The ability of %(source)s triggers."),
    "trigger.carth-look": _("%(source)s's ability: %(player)s looks at the top seven cards "
                            "of their library, reveals no planeswalker card (the engine "
                            "models this choice) and puts them on the bottom."),
    "trigger.no-target": _("%(source)s's ability has no legal target and is removed from "
                           "the stack."),
    "trigger.exiled": _("%(source)s's ability exiles %(object)s: it is a new object."),
    "trigger.delayed-created": _("%(object)s will return to the battlefield at the "
                                 "beginning of the next end step."),
    "trigger.delayed-returns": _("The end step begins: %(object)s returns to the battlefield "
                                 "under %(owner)s's control."),
    "trigger.delayed-nothing": _("%(object)s is no longer in exile: the delayed ability of "
                                 "%(source)s does nothing."),
    "trigger.delayed-token": _("%(object)s was a token: it ceased to exist in exile, and "
                               "the delayed ability of %(source)s returns nothing."),
    "trigger.condition-false": _("%(player)s activated a loyalty ability of a planeswalker "
                                 "this turn: the ability of %(source)s doesn't trigger."),
    "trigger.lose-life": ngettext_lazy(
        "%(player)s didn't activate a loyalty ability of a planeswalker this turn: the "
        "ability of %(source)s makes them lose %(amount)s life (life: %(life)s).",
        "%(player)s didn't activate a loyalty ability of a planeswalker this turn: the "
        "ability of %(source)s makes them lose %(amount)s life (life: %(life)s).", "amount"),
    "turn.step": _("The turn moves to %(step)s."),
    "turn.cleanup": _("Cleanup: damage wears off and \"until end of turn\" effects end."),
    "turn.begins": _("%(active)s's turn begins."),
}

# The steps and phases a turn moves to, as the trace's "turn.step" names them. Each
# language's catalogue may drop the article where its sentence holds it (Italian "Il turno
# passa alla %(step)s": every step and phase is feminine there).
STEP_WORDS = {
    "untap": _("the untap step"), "upkeep": _("the upkeep step"), "draw": _("the draw step"),
    "main1": _("the first main phase"),
    "beginning-of-combat": _("the beginning of combat step"),
    "declare-attackers": _("the declare attackers step"),
    "declare-blockers": _("the declare blockers step"),
    "combat-damage": _("the combat damage step"), "end-of-combat": _("the end of combat step"),
    "main2": _("the second main phase"), "end": _("the end step"),
    "cleanup": _("the cleanup step"),
}

ZONE_WORDS = {"graveyard": _("the graveyard"), "exile": _("exile"), "hand": _("a hand"),
              "library": _("a library"), "battlefield": _("the battlefield"),
              "command": _("the command zone"), "outside": _("outside the game")}
COUNTER_WORDS = {"loyalty": _("loyalty"), "defense": _("defense")}
KEYWORD_WORDS = {"trample": _("trample"), "flying": _("flying"), "haste": _("haste"),
                 "vigilance": _("vigilance")}
DIE_WORDS = {"blank": _("a blank face"), "chaos": _("the chaos symbol"),
             "planeswalk": _("the planeswalker symbol")}
QUALITY_WORDS = {"white": _("white"), "blue": _("blue"), "black": _("black"),
                 "red": _("red"), "green": _("green"), "everything": _("everything"),
                 "creatures": _("creatures"), "planeswalkers": _("planeswalkers"),
                 "artifacts": _("artifacts"), "enchantments": _("enchantments"),
                 "instants": _("instants"), "sorceries": _("sorceries"), "lands": _("lands"),
                 "battles": _("battles")}
"""Protection's qualities in words (a card's name is shown as the card's name)."""
CHAOS_WORDING = {"ensues": _("worded “whenever chaos ensues”"),
                 "roll": _("worded “whenever you roll {CHAOS}”")}


@dataclass(frozen=True, slots=True)
class Step:
    number: int
    rule: str | None
    summary: str
    text: str
    event: str
    key: str | None = None  # the rule's catalogue key: its pill links to the rule page
    unsure: bool = False  # the number was not verified for that era (rules.yaml)


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
        if key == "attacks" and isinstance(value, dict):
            out[key] = ", ".join(f"{_name(state, a, language)} → {_name(state, t, language)}"
                                 for a, t in value.items())
        elif key == "counters" and isinstance(value, dict):
            out[key] = ", ".join(f"{n} {COUNTER_WORDS.get(kind, kind)}"
                                 for kind, n in value.items())
        elif key in ("assignment",) and isinstance(value, dict):
            out[key] = ", ".join(f"{n} → {_name(state, r, language)}" for r, n in value.items())
        elif isinstance(value, list):
            out[key] = ", ".join(_name(state, v, language) for v in value) or "—"
        elif key == "to":
            out[key] = str(ZONE_WORDS.get(value, value))
        elif key == "step" and value in STEP_WORDS:
            out[key] = str(STEP_WORDS[value])
        elif key == "keyword":
            out[key] = str(KEYWORD_WORDS.get(value, value))
        elif key == "result":
            out[key] = str(DIE_WORDS.get(value, value))
        elif key == "quality" and value in QUALITY_WORDS:
            out[key] = str(QUALITY_WORDS[value])
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
    language = language or get_language() or "en"  # a site language: "pt-br" as it is
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
        unsure = False
        if step.rule_key and rule_exists(step.rule_key, era):
            summary = rule_summary(step.rule_key, era, language)
            unsure = rule_unsure(step.rule_key, era)
        out.append(Step(len(out) + 1, step.rule, summary, text, step.event, step.rule_key,
                        unsure))
    return out
