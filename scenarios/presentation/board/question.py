"""What the question page shows of a scenario's board: the picture in its two
arrangements, the board in words, the story with its cards named as buttons, and the text
of every card the board or the story names (once each, as of the question's era).

Pages get it through ``scenarios.presentation.present`` (``Presented.question_board``);
the question page keeps its HTML per variant, era and language. Nothing here comes from
the answer key: the board is the setup plus the leading declarations, the texts are the
catalog's.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.utils.safestring import SafeString

from engine import GameState, Obj, find_era, play_declarations, variant_eras
from scenarios.presentation.board.render import render_board
from scenarios.presentation.cardtext import (
    CardText,
    Ref,
    build_text,
    segments_html,
    text_key,
    text_segments,
    variant_objects,
)
from scenarios.presentation.wording import euphonic_pieces
from scenarios.untranslated import in_english, lacks

DOM_PREFIX = "card-text-"


@dataclass(frozen=True, slots=True)
class QuestionBoard:
    svg: str
    """The wide picture (``{{ board.svg|safe }}``, as ``render_board`` gives it)."""
    narrow_svg: str
    """The same board arranged for a phone."""
    description: list[str]
    cards: tuple[CardText, ...]
    """Every card the board or the story names, in the order met: the page holds each
    one's text once, and the buttons open it by ``dom_id``."""
    story: SafeString


def _named_on_board(state: GameState) -> list[Obj]:
    """The objects the board shows or names: everything but the planar decks' face-down
    cards (only the face-up planes are in view)."""
    face_up = set(state.planechase.face_up) if state.planechase is not None else set()
    return [o for o in state.objects.values() if o.zone != "command" or o.id in face_up]


def question_board(scenario: Any, seed: int, era_key: str, language: str,
                   every_era: bool = False) -> QuestionBoard:
    """The board of the variant ``seed`` of ``scenario`` under ``era_key``.

    ``every_era``: the question asks "in which eras", so each card shows its wording in
    each of the scenario's eras (consecutive eras with one wording shown together), and
    the board names no era."""
    variant = scenario.variant(seed)
    state = play_declarations(find_era(era_key), variant)
    eras = variant_eras(scenario, variant) if every_era else (era_key,)
    # a story the language lacks is the English one, shown marked "not yet translated"
    told = scenario.story_for(variant.values)
    untranslated = lacks(told, language)
    story = euphonic_pieces(text_segments(told, language, variant),
                            "en" if untranslated else language) if told else []
    keys: dict[str, str] = {}
    card_ids: dict[str, str] = {}
    for o in _named_on_board(state):
        key = text_key(o)
        keys.setdefault(key, f"{DOM_PREFIX}{len(keys) + 1}")
        card_ids[o.id] = keys[key]
    for piece in story:
        if isinstance(piece, Ref):
            keys.setdefault(piece.key, f"{DOM_PREFIX}{len(keys) + 1}")
    objects = variant_objects(variant)
    objects.update(state.objects)
    cards = tuple(build_text(key, objects, eras, language, dom_id)
                  for key, dom_id in keys.items())
    wide = render_board(state, era_key=era_key, language=language, card_ids=card_ids,
                        show_era=not every_era)
    narrow = render_board(state, era_key=era_key, language=language, card_ids=card_ids,
                          narrow=True, show_era=not every_era)
    story_html = segments_html(story, keys)
    return QuestionBoard(svg=wide.svg, narrow_svg=narrow.svg, description=wide.description,
                         cards=cards,
                         story=in_english(story_html) if untranslated else story_html)
