"""Authors' pages about the engine's static data: the JSON Schema of the scenario document
(public: authors' editors fetch it) and the card catalog (instructors).

Both are fixed for the life of a process. The schema is the committed file
(``engine/data/scenario.schema.json``, built by ``engine.schema``), read once and served
with a validator and a cache header. The catalog is presented once per language into a
tuple of plain entries (at most one tuple per configured language); a search filters that
tuple in Python, so a request costs the same whatever it asks and touches no database.
"""

from __future__ import annotations

import hashlib
import unicodedata
from dataclasses import dataclass, replace

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.cache import patch_cache_control
from django.utils.text import capfirst
from django.utils.translation import get_language, gettext_noop, override
from django.utils.translation import gettext as _
from django.views.decorators.http import condition, require_safe

from engine import ERAS, SCHEMA_FILE, Card, Era, catalog, era_end
from scenarios.caches import memo
from scenarios.http import AuthenticatedHttpRequest
from scenarios.presentation.board.words import KEYWORD_ORDER, TYPE_WORDS, keyword_word
from scenarios.presentation.cardtext import TYPE_ORDER, card_text, oracle_lines
from scenarios.roles import instructor_required

SCHEMA_MAX_AGE = 60 * 60  # an hour: editors refetch rarely, and a deploy shows within it
MAX_QUERY = 80
PLANAR_TYPE_WORDS = {"plane": gettext_noop("plane"), "phenomenon": gettext_noop("phenomenon")}


# -- the JSON Schema -------------------------------------------------------------------------

@memo(maxsize=1)
def _schema() -> tuple[bytes, str]:
    """The committed schema and its ETag (one file, read once per process)."""
    body = SCHEMA_FILE.read_bytes()
    return body, hashlib.sha256(body).hexdigest()[:32]


@require_safe
@condition(etag_func=lambda request: _schema()[1])
def schema_json(request: HttpRequest) -> HttpResponse:
    """The scenario document's JSON Schema, for authors' editors: public (it holds no
    answer, only the format and the catalog's slugs), cacheable, and readable from a web
    editor on another origin (no cookies are sent or needed)."""
    response = HttpResponse(_schema()[0], content_type="application/schema+json")
    patch_cache_control(response, public=True, max_age=SCHEMA_MAX_AGE)
    response["Access-Control-Allow-Origin"] = "*"
    return response


# -- the card catalog ------------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class EraSpan:
    """The eras (first to last, consecutive) in which one wording held: keys and names
    (strings, not era classes, which a template would try to call)."""

    first: str
    first_name: str
    last: str
    last_name: str
    type_line: str
    """The English Oracle type line (planeswalkers became legendary in Ixalan)."""
    lines: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class CardEntry:
    """One card of the catalog as the page shows it in one language."""

    slug: str
    name: str
    english: str
    """The English name when it differs from ``name``, else ""."""
    names: tuple[tuple[str, str], ...]
    """(language code, printed name) for each language of the site."""
    mana_cost: str
    type_line: str
    """The English Oracle type line in the current era."""
    type_line_varies: bool
    """Whether the type line changed over the eras (each wording then shows its own)."""
    types: tuple[str, ...]
    type_note: str
    """The card types in the reader's language, when they read otherwise than in English."""
    stats: str
    keywords: tuple[tuple[str, str], ...]
    """(slug as a document writes it, name in the reader's language) of each keyword."""
    wordings: tuple[EraSpan, ...]
    haystack: str
    """Every word the search looks in, folded (lowercase, no accents)."""


def fold(text: str) -> str:
    """Lowercase without accents, so that "relampago" finds "Relámpago"."""
    decomposed = unicodedata.normalize("NFKD", text.casefold())
    return "".join(c for c in decomposed if not unicodedata.combining(c))


def card_eras(card: Card) -> tuple[type[Era], ...]:
    """The eras in which the card exists: those that ended after it was first printed
    (the test ``engine.runner.scenario_eras`` applies to a scenario's cards)."""
    return tuple(e for e in ERAS if (end := era_end(e)) is None or card.released < end)


def _wordings(card: Card, eras: tuple[type[Era], ...], language: str,
              ) -> tuple[EraSpan, ...]:
    """The card's Oracle type line and wording era by era, consecutive eras with the same
    ones merged."""
    spans: list[EraSpan] = []
    for era in eras:
        type_line = card_text(card, [era.key], language, "").type_line
        lines = oracle_lines(card, era)
        if spans and (spans[-1].type_line, spans[-1].lines) == (type_line, lines):
            spans[-1] = replace(spans[-1], last=era.key, last_name=era.name)
        else:
            spans.append(EraSpan(era.key, era.name, era.key, era.name, type_line, lines))
    return tuple(spans)


def _type_word(t: str) -> str:
    if t in PLANAR_TYPE_WORDS:
        return _(PLANAR_TYPE_WORDS[t])
    return _(TYPE_WORDS[t]) if t in TYPE_WORDS else t


def _stats(card: Card) -> str:
    if card.power is not None and card.toughness is not None:
        return f"{card.power}/{card.toughness}"
    if card.loyalty is not None:
        return _("%(n)d loyalty") % {"n": card.loyalty}
    if card.defense is not None:
        return _("%(n)d defense") % {"n": card.defense}
    return ""


def _entry(card: Card, language: str) -> CardEntry:
    eras = card_eras(card) or (ERAS[-1],)
    text = card_text(card, [eras[-1].key], language, "")
    types = tuple(t for t in TYPE_ORDER if t in card.types) + tuple(
        sorted(card.types - set(TYPE_ORDER)))
    keywords = tuple(k for k in KEYWORD_ORDER if k in card.keywords) + tuple(
        sorted(card.keywords - set(KEYWORD_ORDER)))
    type_words = tuple(capfirst(_type_word(t)) for t in types)
    type_note = ", ".join(type_words)
    wordings = _wordings(card, eras, language)
    keyword_words = tuple(capfirst(keyword_word(k)) for k in keywords)
    names = tuple((code, card.name.get(code) or card.name["en"])
                  for code, _label in settings.LANGUAGES)
    words = [card.slug, *card.name.values(), text.type_line, *types, *type_words,
             *card.subtypes, *keywords, *(k.replace("-", " ") for k in keywords),
             *keyword_words]
    return CardEntry(
        slug=card.slug, name=text.name, english=text.english, names=names,
        mana_cost=card.mana_cost, type_line=text.type_line,
        type_line_varies=len({w.type_line for w in wordings}) > 1, types=types,
        type_note="" if type_note == ", ".join(t.capitalize() for t in types) else type_note,
        stats=_stats(card), keywords=tuple(zip(keywords, keyword_words, strict=True)),
        wordings=wordings,
        haystack=fold(" ".join(words)))


@memo(maxsize=16)  # one entry per language of the site (six, room for more)
def catalogue_entries(language: str) -> tuple[CardEntry, ...]:
    """Every card of the catalog in ``language``, by name (kept: one tuple per language
    of the site, built on first use)."""
    with override(language):
        entries = [_entry(card, language) for card in catalog().values()]
    return tuple(sorted(entries, key=lambda e: fold(e.name)))


@memo(maxsize=16)  # one entry per language of the site (six, room for more)
def type_choices(language: str) -> tuple[tuple[str, str], ...]:
    """The card types the catalog has, as (value, label) for the type filter."""
    present = {t for card in catalog().values() for t in card.types}
    ordered = [t for t in TYPE_ORDER if t in present] + sorted(present - set(TYPE_ORDER))
    with override(language):
        return tuple((t, capfirst(_type_word(t))) for t in ordered)


def search(entries: tuple[CardEntry, ...], query: str, card_type: str,
           ) -> list[CardEntry]:
    """The entries whose words contain every word of ``query`` and that have
    ``card_type`` (when given)."""
    words = fold(query).split()
    return [e for e in entries
            if (not card_type or card_type in e.types)
            and all(w in e.haystack for w in words)]


@require_safe
@instructor_required
def cards(request: AuthenticatedHttpRequest) -> HttpResponse:
    """The card catalog for authors: slug, names, types, stats, keywords and Oracle
    wording per era, searchable (a GET form; htmx swaps only the list)."""
    language = get_language()
    if language not in dict(settings.LANGUAGES):  # keep the kept entries bounded
        language = settings.LANGUAGE_CODE
    query = request.GET.get("q", "").strip()[:MAX_QUERY]
    choices = type_choices(language)
    card_type = request.GET.get("type", "")
    if card_type not in dict(choices):
        card_type = ""
    entries = catalogue_entries(language)
    context = {
        "cards": search(entries, query, card_type), "total": len(entries),
        "query": query, "card_type": card_type, "type_choices": choices,
        "max_query": MAX_QUERY,
    }
    template = "scenarios/cards.html"
    if request.htmx:
        template += "#card-list"
    return render(request, template, context)
