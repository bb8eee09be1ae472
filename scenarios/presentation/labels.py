"""Words for engine values: an era's label, an author's text with its names put in, the
names of a variant's objects and players."""

from __future__ import annotations

from typing import Any

from engine import find_era
from engine import render_text as engine_render_text
from scenarios.presentation.board import player_label
from scenarios.presentation.wording import euphonic
from scenarios.untranslated import Untranslated, lacks


def era_label(key: str) -> str:
    era = find_era(key)
    return f"{era.name} ({era.effective:%Y-%m-%d})"


def render_text(text: Any, language: str, variant: Any) -> str:
    """An author's text in ``language`` with its names put in (the engine's
    ``render_text``), and Italian's "ad" before a name that starts with "a". A text the
    language lacks is the English one, as :class:`Untranslated`."""
    if lacks(text, language):
        return Untranslated(engine_render_text(text, language, variant))
    return euphonic(engine_render_text(text, language, variant), language)


def object_names(variant: Any, language: str) -> dict[str, str]:
    """Object and player ids of a variant -> their names in ``language``."""
    names = {oid: o.display_name(language) for oid, o in variant.state.objects.items()}
    names.update({o.id: o.display_name(language) for o in variant.new_objects.values()})
    state = variant.state
    names.update({p: player_label(state, p) for p in (*state.players, *state.teams)})
    return names
