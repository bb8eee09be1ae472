"""The board picture (scenarios.presentation.board): layout facts, escaping, words, valid
markup, nothing cut short, the narrow arrangement for phones, and cards that open their
texts."""

import dataclasses
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
import yaml
from django.conf import settings
from django.utils import translation

from engine import find_era, parse, play
from engine.state import Combat, GameState, Obj, Player, Team, Turn
from scenarios.presentation.board import Board, render_board

LIBRARY = Path(settings.BASE_DIR) / "scenarios" / "library"
SVG = "{http://www.w3.org/2000/svg}"


def scenario_state(path: str, era: str = "m10-2009", *, lead_only: bool = True) -> GameState:
    """The board of a library scenario after its leading attack and block declarations
    (or after every action)."""
    doc = yaml.safe_load((LIBRARY / path).read_text(encoding="utf-8"))
    variant = parse(doc).variant(0)
    actions = variant.actions
    if lead_only:
        n = 0
        while n < len(actions) and actions[n].kind in ("attack", "block"):
            n += 1
        actions = actions[:n]
    state, _trace = play(find_era(era), dataclasses.replace(variant, actions=actions))
    return state


def obj(oid: str, name: str | dict[str, str], types: tuple[str, ...], controller: str,
        **fields) -> Obj:
    return Obj(id=oid, name=name if isinstance(name, dict) else {"en": name},
               types=frozenset(types), controller=controller, owner=controller, **fields)


def two_player(*objects: Obj, combat: Combat | None = None, **players) -> GameState:
    return GameState(
        players={"alice": Player("alice", **players.get("alice", {})),
                 "bob": Player("bob", **players.get("bob", {}))},
        objects={o.id: o for o in objects},
        turn=Turn("alice", "declare-blockers", 4),
        combat=combat,
    )


def tree(board: Board) -> ET.Element:
    return ET.fromstring(board.svg)


def classes(el: ET.Element) -> set[str]:
    return set(el.get("class", "").split())


def by_class(root: ET.Element, cls: str) -> list[ET.Element]:
    return [el for el in root.iter() if cls in classes(el)]


def texts(el: ET.Element) -> list[str]:
    return ["".join(t.itertext()) for t in el.iter(f"{SVG}text")]


@pytest.fixture
def firecat_board() -> GameState:
    # Alice's Blistering Firecat attacks Garruk; Grizzly Bears and Hill Giant block it.
    return scenario_state("trample-into-planeswalkers/firecat-double-block-garruk.yaml")


# -- markup -----------------------------------------------------------------------------------

def test_output_is_one_svg_element_that_parses_as_xml(firecat_board):
    board = render_board(firecat_board, era_key="m10-2009", language="en")
    root = tree(board)
    assert root.tag == f"{SVG}svg"
    assert board.svg.startswith("<svg ") and board.svg.endswith("</svg>")
    assert root.get("width") == "100%"
    assert re.fullmatch(r"0 0 [\d.]+ [\d.]+", root.get("viewBox"))
    assert root.get("role") == "img"
    assert "board-svg" in classes(root)


def test_no_inline_styles_anywhere(firecat_board):
    """The CSP forbids inline styles: classes only."""
    for language in ("en", "it", "es"):
        root = tree(render_board(firecat_board, era_key="m10-2009", language=language))
        assert all("style" not in el.attrib for el in root.iter())
        assert not list(root.iter(f"{SVG}style"))
    assert "style=" not in render_board(firecat_board, era_key="m10-2009", language="en").svg


def test_ids_are_unique_and_markers_are_defined(firecat_board):
    root = tree(render_board(firecat_board, era_key="m10-2009", language="en"))
    ids = [el.get("id") for el in root.iter() if el.get("id")]
    assert len(ids) == len(set(ids))
    markers = {m.get("id") for m in root.iter(f"{SVG}marker")}
    assert markers and all(m in ids for m in markers)
    for el in root.iter():
        ref = el.get("marker-end")
        if ref:
            assert ref[5:-1] in markers  # url(#...)
    # The marker ids sit in the <defs>, before anything refers to them.
    assert root.find(f"{SVG}defs/{SVG}marker") is not None


def test_the_same_board_renders_the_same_markup(firecat_board):
    one = render_board(firecat_board, era_key="m10-2009", language="en")
    two = render_board(firecat_board, era_key="m10-2009", language="en")
    assert one == two


# -- escaping ---------------------------------------------------------------------------------

def test_names_are_escaped_never_raw():
    evil = obj("evil", "<script>alert(1)</script>", ("creature",), "bob", power=1,
               toughness=1)
    quote = obj("quote", 'Tom "&" Jerry\'s <b>', ("planeswalker",), "alice", loyalty=3,
                counters={"loyalty": 3})
    board = render_board(two_player(evil, quote), era_key="m10-2009", language="en")
    assert "<script>" not in board.svg and "<b>" not in board.svg
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in board.svg
    root = tree(board)  # still well-formed
    assert "<script>alert(1)</script>" in " ".join("".join(t.itertext()) for t in root.iter())
    assert not list(root.iter(f"{SVG}script"))
    # The description is plain text: the template escapes it.
    assert any("<script>alert(1)</script>" in line for line in board.description)


def test_characters_xml_cannot_hold_are_dropped():
    odd = obj("odd", "Bell\x07 and \x00null", ("creature",), "bob", power=1, toughness=1)
    board = render_board(two_player(odd), era_key="m10-2009", language="en")
    root = tree(board)
    assert "Bell and null" in " ".join(texts(root))


def test_an_object_id_in_an_attribute_is_escaped():
    weird = obj('a"b', "Bear", ("creature",), "bob", power=2, toughness=2)
    root = tree(render_board(two_player(weird), era_key="m10-2009", language="en"))
    assert [el.get("data-object") for el in by_class(root, "board-card")] == ['a"b']


# -- words ------------------------------------------------------------------------------------

@pytest.mark.parametrize(("language", "garruk", "bears"), [
    ("en", "Garruk Wildspeaker", "Grizzly Bears"),
    ("it", "Garruk Lingua Selvaggia", "Orso Grizzly"),
    ("es", "Garruk Portavoz Salvaje", "Osos pardos"),
])
def test_card_names_are_localized(firecat_board, language, garruk, bears):
    names = firecat_board.objects
    assert names["garruk"].display_name(language) == garruk
    assert names["bears"].display_name(language) == bears
    board = render_board(firecat_board, era_key="m10-2009", language=language)
    cards = {el.get("data-object"): el for el in by_class(tree(board), "board-card")}
    # The full name is always in the card's <title>, even when the face cuts it short.
    assert cards["garruk"].find(f"{SVG}title").text.startswith(garruk)
    assert cards["bears"].find(f"{SVG}title").text.startswith(bears)
    assert any(garruk in line for line in board.description)


def test_a_long_name_takes_more_lines_and_stays_whole_in_the_title():
    long = obj("wall", "Wall of Extraordinarily Long Names", ("creature",), "bob", power=0,
               toughness=7)
    root = tree(render_board(two_player(long), era_key="m10-2009", language="en"))
    card = by_class(root, "board-card")[0]
    lines = ["".join(t.itertext()) for t in by_class(card, "board-card-name")]
    assert len(lines) > 1 and " ".join(lines) == "Wall of Extraordinarily Long Names"
    assert card.find(f"{SVG}title").text.startswith("Wall of Extraordinarily Long Names (")


def test_only_a_name_longer_than_three_lines_is_cut():
    long = obj("wall", "Wall of Extraordinarily Long Names and of Many Many Stones Stacked",
               ("creature",), "bob", power=0, toughness=7)
    root = tree(render_board(two_player(long), era_key="m10-2009", language="en"))
    card = by_class(root, "board-card")[0]
    lines = ["".join(t.itertext()) for t in by_class(card, "board-card-name")]
    assert len(lines) == 3 and lines[-1].endswith("…")


def test_the_active_language_is_restored():
    translation.activate("es")
    render_board(two_player(), era_key="m10-2009", language="it")
    assert translation.get_language() == "es"


def test_unknown_era_is_an_error():
    with pytest.raises(Exception, match="unknown era"):
        render_board(two_player(), era_key="nope", language="en")


# -- what is drawn ----------------------------------------------------------------------------

def test_players_life_and_sides(firecat_board):
    root = tree(render_board(firecat_board, era_key="m10-2009", language="en"))
    panels = {el.get("data-player"): el for el in by_class(root, "board-panel")}
    assert set(panels) == {"alice", "bob"}
    assert "Bob" in texts(panels["bob"]) and "20" in texts(panels["bob"])
    assert "board-panel--active" in classes(panels["alice"])
    # The non-active player is drawn above the active one.
    y = {pid: float(p.find(f"{SVG}rect").get("y")) for pid, p in panels.items()}
    assert y["bob"] < y["alice"]


def test_cards_show_type_stats_loyalty_and_keywords(firecat_board):
    root = tree(render_board(firecat_board, era_key="m10-2009", language="en"))
    cards = {el.get("data-object"): el for el in by_class(root, "board-card")}
    assert set(cards) == {"firecat", "garruk", "bears", "blocker2"}
    assert "board-card--planeswalker" in classes(cards["garruk"])
    assert "Planeswalker" in texts(cards["garruk"])
    assert "3" in texts(by_class(cards["garruk"], "board-badge--loyalty")[0])
    assert "board-card--creature" in classes(cards["firecat"])
    assert "7/1" in texts(by_class(cards["firecat"], "board-badge--pt")[0])
    assert "trample, haste" in texts(cards["firecat"])


def test_damage_battle_defense_and_sickness():
    bear = obj("bear", "Bear", ("creature",), "bob", power=2, toughness=2, damage=1,
               sick=True)
    battle = obj("inv", "Invasion of Tarkir", ("battle",), "bob", defense=5,
                 counters={"defense": 4}, protector="alice")
    board = render_board(two_player(bear, battle), era_key="mom-2023", language="en")
    root = tree(board)
    cards = {el.get("data-object"): el for el in by_class(root, "board-card")}
    assert "1 damage" in texts(by_class(cards["bear"], "board-card-damage")[0])
    assert by_class(cards["bear"], "board-pill--sick")
    assert "summoning sick" in " ".join(texts(cards["bear"]))
    assert "4" in texts(by_class(cards["inv"], "board-badge--defense")[0])
    assert "Bob controls Bear (creature 2/2, 1 damage, summoning sick)." in board.description
    assert ("Bob controls Invasion of Tarkir (battle, 4 defense, protected by Alice)."
            in board.description)


def test_tapped_cards_are_turned_and_labelled(firecat_board):
    root = tree(render_board(firecat_board, era_key="m10-2009", language="en"))
    cards = {el.get("data-object"): el for el in by_class(root, "board-card")}
    assert firecat_board.objects["firecat"].tapped  # attacking tapped it
    firecat = cards["firecat"]
    assert "board-card--tapped" in classes(firecat)
    assert firecat.get("transform", "").startswith("rotate(")
    assert "tapped" in texts(firecat)
    assert "board-card--tapped" not in classes(cards["bears"])
    assert "tapped" not in texts(cards["bears"])


def test_hexproof_badge():
    state = two_player(bob={"hexproof": True})
    board = render_board(state, era_key="m11-2010", language="en")
    panels = {el.get("data-player"): el for el in by_class(tree(board), "board-panel")}
    assert "hexproof" in texts(panels["bob"])
    assert "hexproof" not in texts(panels["alice"])
    assert "Bob has hexproof." in board.description


def test_highlight():
    bear = obj("bear", "Bear", ("creature",), "bob", power=2, toughness=2)
    root = tree(render_board(two_player(bear), era_key="m10-2009", language="en",
                             highlight=["bear", "alice"]))
    assert "board-card--highlight" in classes(by_class(root, "board-card")[0])
    panels = {el.get("data-player"): el for el in by_class(root, "board-panel")}
    assert "board-panel--highlight" in classes(panels["alice"])
    assert "board-panel--highlight" not in classes(panels["bob"])


def test_era_name_and_date_in_a_corner(firecat_board):
    board = render_board(firecat_board, era_key="m10-2009", language="en")
    era = by_class(tree(board), "board-era")
    assert texts(era[0]) == ["Magic 2010 rules, 2009-07-10"]
    assert board.description[-1] == "Magic 2010 rules, 2009-07-10."


# -- combat -----------------------------------------------------------------------------------

def test_an_arrow_from_each_attacker_and_a_line_from_each_blocker(firecat_board):
    board = render_board(firecat_board, era_key="m10-2009", language="en")
    root = tree(board)
    attacks = by_class(root, "board-arrow--attack")
    blocks = by_class(root, "board-arrow--block")
    assert len(attacks) == 1 and len(blocks) == 2
    assert all(a.get("marker-end") for a in attacks + blocks)
    cards = {el.get("data-object"): el for el in by_class(root, "board-card")}
    assert "board-card--attacking" in classes(cards["firecat"])
    assert "board-card--blocking" in classes(cards["bears"])
    assert "board-card--blocking" in classes(cards["blocker2"])


def test_the_arrow_ends_at_the_planeswalker_it_attacks(firecat_board):
    root = tree(render_board(firecat_board, era_key="m10-2009", language="en"))
    garruk = next(el for el in by_class(root, "board-card") if el.get("data-object") == "garruk")
    frame = by_class(garruk, "board-card-frame")[0]
    x, y, w, h = (float(frame.get(k)) for k in ("x", "y", "width", "height"))
    d = by_class(root, "board-arrow--attack")[0].get("d")
    end_x, end_y = (float(v) for v in d.split()[-1].split(","))
    assert x <= end_x <= x + w and end_y == pytest.approx(y + h)


def test_attacking_a_player_points_at_their_life():
    bear = obj("bear", "Bear", ("creature",), "alice", power=2, toughness=2, tapped=True)
    state = two_player(bear, combat=Combat(attackers={"bear": "bob"}, defending={"bear": "bob"}))
    board = render_board(state, era_key="m10-2009", language="en")
    root = tree(board)
    life = next(el for el in by_class(root, "board-panel") if el.get("data-player") == "bob")
    box = by_class(life, "board-life")[0]
    x, y, w, h = (float(box.get(k)) for k in ("x", "y", "width", "height"))
    d = by_class(root, "board-arrow--attack")[0].get("d")
    end_x, end_y = (float(v) for v in d.split()[-1].split(","))
    assert x <= end_x <= x + w and end_y == pytest.approx(y + h)
    assert "Alice controls Bear (creature 2/2, tapped), attacking Bob." in board.description


def test_attacking_nothing_is_a_labelled_dashed_stub():
    # Ajani, attacked by Blistering Firecat, leaves the battlefield after blockers.
    state = scenario_state("removed-attack-target/rat-trample-nowhere.yaml", "m10-2009",
                           lead_only=False)
    assert state.combat.attackers["firecat"] is None
    board = render_board(state, era_key="m10-2009", language="en")
    root = tree(board)
    stub = by_class(root, "board-link--nothing")
    assert len(stub) == 1
    assert texts(stub[0]) == ["attacking nothing"]
    assert by_class(stub[0], "board-arrow--nothing")
    assert not by_class(root, "board-arrow--attack")
    assert any(line.endswith(", attacking nothing.") for line in board.description)
    # Ajani is in the graveyard now: not drawn, but told.
    assert "ajani" not in {el.get("data-object") for el in by_class(root, "board-card")}
    assert "Bob's graveyard: Ajani Vengeant." in board.description


def test_blocked_attacker_without_blockers_is_marked():
    bear = obj("bear", "Bear", ("creature",), "alice", power=2, toughness=2, tapped=True)
    state = two_player(bear, combat=Combat(attackers={"bear": "bob"}, defending={"bear": "bob"},
                                           blockers={"bear": ()}, blocked=frozenset({"bear"})))
    board = render_board(state, era_key="m10-2009", language="en")
    assert "blocked" in " ".join(texts(tree(board)))
    assert "Bear is blocked, but no creature is blocking it." in board.description


# -- Two-Headed Giant -------------------------------------------------------------------------

def test_two_headed_giant_shows_teams_side_by_side_with_team_life():
    state = scenario_state("two-headed-giant/thg-block-for-teammate.yaml", "dom-2018")
    board = render_board(state, era_key="dom-2018", language="en")
    root = tree(board)
    panels = {el.get("data-player"): el for el in by_class(root, "board-panel")}
    assert set(panels) == {"ac", "bd"}
    assert "Bob & Dave" in texts(panels["bd"]) and "30" in texts(panels["bd"])
    assert "Team life" in texts(panels["bd"])
    tags = {el.get("data-player"): el for el in by_class(root, "board-tag")}
    assert set(tags) == {"alice", "bob", "carol", "dave"}
    # Teammates side by side: same height, different columns; opponents above.
    y = {pid: float(t.find(f"{SVG}rect").get("y")) for pid, t in tags.items()}
    x = {pid: float(t.find(f"{SVG}rect").get("x")) for pid, t in tags.items()}
    assert y["bob"] == y["dave"] and x["bob"] < x["dave"]
    assert y["alice"] == y["carol"] and x["alice"] < x["carol"]
    assert y["bob"] < y["alice"]
    assert len(by_class(root, "board-arrow--attack")) == 2  # the Ogre at Bob, Bears at Jace
    assert len(by_class(root, "board-arrow--block")) == 1
    assert board.description[0] == "Team Bob & Dave: 30 life."
    assert "Team Alice & Carol: 30 life." in board.description
    assert "Alice controls Ogre Brawler (creature 4/4, tapped), attacking Bob." in (
        board.description)
    assert "Giant Spider blocks Grizzly Bears." in board.description


def test_two_headed_giant_attacking_a_team_points_at_the_team_life():
    state = GameState(
        players={p: Player(p, life=30, team="ac" if p in ("alice", "carol") else "bd")
                 for p in ("alice", "bob", "carol", "dave")},
        teams={"ac": Team("ac", ("alice", "carol")), "bd": Team("bd", ("bob", "dave"), 27)},
        objects={"giant": obj("giant", "Hill Giant", ("creature",), "alice", power=3,
                              toughness=3, tapped=True)},
        turn=Turn("alice", "declare-attackers", 3),
        combat=Combat(attackers={"giant": "bd"}, defending={"giant": "bob"}),
    )
    board = render_board(state, era_key="lrw-2007", language="en")
    root = tree(board)
    assert len(by_class(root, "board-arrow--attack")) == 1
    panel = next(el for el in by_class(root, "board-panel") if el.get("data-player") == "bd")
    assert "27" in texts(panel)
    assert "Alice controls Hill Giant (creature 3/3, tapped), attacking Bob & Dave." in (
        board.description)


# -- description ------------------------------------------------------------------------------

def test_description_sentences(firecat_board):
    board = render_board(firecat_board, era_key="m10-2009", language="en")
    assert board.description == [
        "Bob: 20 life.",
        "Bob controls Grizzly Bears (creature 2/2).",
        "Bob controls Hill Giant (creature 3/3).",
        "Bob controls Garruk Wildspeaker (planeswalker, 3 loyalty).",
        "Alice: 20 life.",
        "Alice controls Blistering Firecat (creature 7/1, trample, haste, tapped), "
        "attacking Garruk Wildspeaker.",
        "Grizzly Bears blocks Blistering Firecat.",
        "Hill Giant blocks Blistering Firecat.",
        "Turn 6, active player: Alice.",
        "Magic 2010 rules, 2009-07-10.",
    ]
    assert all(isinstance(line, str) and "\n" not in line for line in board.description)


def test_planeswalker_heavy_board_in_italian():
    state = scenario_state("loyalty/chandra-ajani-pay-all-loyalty.yaml")
    board = render_board(state, era_key="m10-2009", language="it")
    walkers = [o for o in state.objects.values() if o.is_planeswalker and o.on_battlefield]
    assert len(walkers) >= 3
    root = tree(board)
    assert len(by_class(root, "board-badge--loyalty")) == len(walkers)
    for w in walkers:
        assert any(w.display_name("it") in line for line in board.description)


def test_a_crowded_board_is_well_formed_with_unique_ids():
    objects = [obj(f"c{i}", f"Creature {i}", ("creature",), "alice" if i < 3 else "bob",
                   power=3, toughness=3, keywords=frozenset({"trample", "deathtouch"}),
                   damage=1, tapped=i < 2) for i in range(6)]
    objects += [obj(f"p{i}", f"Walker {i}", ("planeswalker",), "bob", loyalty=3,
                    counters={"loyalty": 3}) for i in range(4)]
    state = two_player(*objects, combat=Combat(
        attackers={"c0": "p0", "c1": "bob", "c2": None}, blockers={"c0": ("c3", "c4")}))
    for narrow in (False, True):
        root = tree(render_board(state, era_key="m10-2009", language="it", narrow=narrow))
        ids = [el.get("id") for el in root.iter() if el.get("id")]
        assert len(ids) == len(set(ids))
        assert len(by_class(root, "board-card")) == 10


def test_a_planechase_board_shows_the_face_up_plane_and_the_planar_controller() -> None:
    from engine import parse
    from scenarios.library import LIBRARY, read_document

    doc = read_document(LIBRARY / "planechase/pc-chaos-on-opponents-plane.yaml")
    state = parse(doc).variant(0).state
    board = render_board(state, era_key="mom-2023", language="it")
    assert "Prateria Dorata" in board.svg and "Piano — Lorwyn" in board.svg
    assert any("Prateria Dorata" in line for line in board.description)
    assert "board-command" in board.svg


@pytest.mark.parametrize("language", ["en", "it", "es"])
def test_every_library_board_draws_in_every_era(language):
    """The question page's board for every library scenario, in every era it is asked in:
    well-formed SVG, a description in words, and each card by its name in this language."""
    from engine import find_card, play_declarations, scenario_eras

    drawn = 0
    with translation.override(language):
        for path in sorted(LIBRARY.glob("*/*.yaml")):
            scenario = parse(yaml.safe_load(path.read_text(encoding="utf-8")))
            variant = scenario.variant(0)
            for era in scenario_eras(scenario, variant):
                state = play_declarations(find_era(era), variant)
                board = render_board(state, era_key=era, language=language)
                tree(board)  # parses
                words = " ".join(board.description)
                assert words, (path.stem, era)
                for o in state.objects.values():
                    if o.card and o.zone == "battlefield":
                        name = find_card(o.card).name
                        assert (name.get(language) or name["en"]) in words, (path.stem, era, o.id)
                drawn += 1
    assert drawn > 500


def test_a_face_up_hippodrome_shows_in_every_creatures_power():
    doc = {"format": 1, "id": "hippo-board", "topic": "planechase", "difficulty": 1,
           "title": {"en": "t"}, "setup": {
               "turn": {"active": "alice", "step": "main1"},
               "players": [{"id": "alice", "life": 20}, {"id": "bob", "life": 20}],
               "battlefield": [{"id": "wurm", "card": "craw-wurm", "controller": "alice"}],
               "command": [{"id": "hippo", "card": "the-hippodrome", "owner": "alice"}],
               "planechase": {"decks": {"alice": []}, "face_up": "hippo"}},
           "actions": [], "questions": [{"id": "q", "kind": "number", "ask": {"en": "q"},
                                         "answer": {"life": "bob"}}]}
    state = parse(doc).variant(0).state
    board = render_board(state, era_key="fdn-2024", language="en")
    assert ">1/4<" in board.svg  # Craw Wurm is 6/4; The Hippodrome: all creatures get -5/-0
    assert "1/4" in " ".join(board.description)


# -- nothing cut short ------------------------------------------------------------------------

def test_every_keyword_is_written_out_in_full_on_its_card():
    every = frozenset({"flying", "first-strike", "vigilance", "trample", "haste", "lifelink",
                       "deathtouch", "menace", "reach", "indestructible"})
    angel = obj("angel", "Akroma, Angel of Wrath", ("creature",), "alice", power=6,
                toughness=6, keywords=every)
    for language in ("en", "it", "es"):
        for narrow in (False, True):
            board = render_board(two_player(angel), era_key="mh2-2021", language=language,
                                 narrow=narrow)
            card = by_class(tree(board), "board-card")[0]
            written = " ".join("".join(t.itertext())
                               for t in by_class(card, "board-card-keywords"))
            assert "…" not in written
            with translation.override(language):
                from scenarios.presentation.board.words import keyword_word, object_keywords

                for k in object_keywords(angel):
                    assert keyword_word(k) in written, (language, k)


def _cut_texts(root: ET.Element) -> list[str]:
    return [t for t in texts(root) if "…" in t]


@pytest.mark.parametrize("language", ["en", "it", "es"])
def test_no_library_board_cuts_a_word_short(language):
    """Every library board, in every era it is asked in, wide and narrow: no text ends in
    an ellipsis, and each card's keywords are all written out."""
    from engine import play_declarations, scenario_eras
    from scenarios.presentation.board.words import keyword_word, object_keywords

    checked = 0
    with translation.override(language):
        for path in sorted(LIBRARY.glob("*/*.yaml")):
            scenario = parse(yaml.safe_load(path.read_text(encoding="utf-8")))
            variant = scenario.variant(0)
            for era in scenario_eras(scenario, variant):
                state = play_declarations(find_era(era), variant)
                for narrow in (False, True):
                    root = tree(render_board(state, era_key=era, language=language,
                                             narrow=narrow))
                    assert _cut_texts(root) == [], (path.stem, era, narrow)
                    cards = {el.get("data-object"): el for el in by_class(root, "board-card")}
                    for oid, card in cards.items():
                        written = " ".join("".join(t.itertext())
                                           for t in by_class(card, "board-card-keywords"))
                        for k in object_keywords(state.objects[oid]):
                            assert keyword_word(k) in written, (path.stem, era, oid, k)
                    checked += 1
    assert checked > 1000


# -- zones: damage, hands, the stack ----------------------------------------------------------

def test_hand_and_graveyard_sizes_are_counted_in_the_players_panel():
    bolt = obj("bolt", "Lightning Bolt", ("instant",), "alice", zone="hand", card="lightning-bolt")
    shock = obj("shock", "Shock", ("instant",), "alice", zone="hand", card="shock")
    dead = obj("dead", "Bear", ("creature",), "bob", zone="graveyard", power=2, toughness=2)
    state = two_player(bolt, shock, dead)
    for narrow in (False, True):
        board = render_board(state, era_key="dom-2018", language="en", narrow=narrow)
        panels = {el.get("data-player"): el for el in by_class(tree(board), "board-panel")}
        assert "Hand: 2" in texts(panels["alice"])
        assert "Graveyard: 1" in texts(panels["bob"])
        assert not any("Hand" in t for t in texts(panels["bob"]))
    assert "Alice's hand: Lightning Bolt, Shock." in board.description


def test_a_spell_on_the_stack_is_drawn_as_a_card_in_a_stack_band():
    bolt = obj("bolt", "Lightning Bolt", ("instant",), "alice", zone="stack",
               card="lightning-bolt")
    for narrow in (False, True):
        board = render_board(two_player(bolt), era_key="dom-2018", language="en",
                             narrow=narrow, card_ids={"bolt": "card-text-1"})
        root = tree(board)
        assert by_class(root, "board-stack")
        cards = by_class(root, "board-card")
        assert [c.get("data-object") for c in cards] == ["bolt"]
        assert cards[0].get("data-card-text") == "card-text-1"
    assert "On the stack, owned by Alice: Lightning Bolt." in board.description


def test_marked_damage_is_written_even_beside_two_badges():
    gideon = obj("gideon", "Gideon Jura", ("creature", "planeswalker"), "bob", power=6,
                 toughness=6, damage=3, loyalty=6, counters={"loyalty": 6})
    for language in ("en", "it", "es"):
        board = render_board(two_player(gideon), era_key="dom-2018", language=language)
        card = by_class(tree(board), "board-card")[0]
        damage = texts(by_class(card, "board-card-damage")[0])
        assert damage and "3" in damage[0] and "…" not in damage[0]


# -- the narrow arrangement -------------------------------------------------------------------

PHONE_BOARD_PX = 390 - 24
"""The board's width on a 390 px phone: the page's side padding taken off."""


@pytest.mark.parametrize("language", ["en", "it", "es"])
def test_the_narrow_board_draws_names_and_numbers_at_11_px_or_more_on_a_phone(language):
    """At 390 px the narrow board is drawn at (at least) its viewBox width's scale: the
    smallest name and number sizes, times that scale, reach 11 px."""
    from scenarios.presentation.board.layout import NARROW_W
    from scenarios.presentation.board.pieces import FONT_NAME_SMALL, FONT_ZONES

    scale = PHONE_BOARD_PX / NARROW_W
    assert min(FONT_NAME_SMALL, FONT_ZONES, 13) * scale >= 11
    state = scenario_state("trample-into-planeswalkers/firecat-double-block-garruk.yaml")
    root = tree(render_board(state, era_key="m10-2009", language=language, narrow=True))
    assert root.get("viewBox").split()[2] == str(NARROW_W)
    assert "board-svg--narrow" in classes(root)
    sizes = {"board-card-name": 12.5, "board-card-name--s": 11.0}
    for el in by_class(root, "board-card-name"):
        size = min(v for k, v in sizes.items() if k in classes(el))
        assert size * scale >= 11


def test_the_narrow_board_has_two_cards_a_row_and_teammates_side_by_side():
    state = scenario_state("two-headed-giant/thg-block-for-teammate.yaml", "dom-2018")
    root = tree(render_board(state, era_key="dom-2018", language="en", narrow=True))
    tags = {el.get("data-player"): el for el in by_class(root, "board-tag")}
    y = {pid: float(t.find(f"{SVG}rect").get("y")) for pid, t in tags.items()}
    x = {pid: float(t.find(f"{SVG}rect").get("x")) for pid, t in tags.items()}
    assert y["bob"] == y["dave"] and x["bob"] < x["dave"]
    assert y["bob"] < y["alice"]
    frames = [el for el in by_class(root, "board-card-frame")]
    assert len({f.get("x") for f in frames}) <= 2


def test_in_the_narrow_board_an_attack_on_a_player_is_a_labelled_arrow():
    bear = obj("bear", "Bear", ("creature",), "alice", power=2, toughness=2, tapped=True)
    state = two_player(bear, combat=Combat(attackers={"bear": "bob"}, defending={"bear": "bob"}))
    root = tree(render_board(state, era_key="m10-2009", language="en", narrow=True))
    stub = by_class(root, "board-link--player")
    assert len(stub) == 1 and texts(stub[0]) == ["attacking Bob"]
    assert by_class(stub[0], "board-arrow--attack")


# -- cards that open their texts --------------------------------------------------------------

def test_cards_with_a_text_are_focusable_buttons_described_by_it(firecat_board):
    ids = {"garruk": "card-text-1", "firecat": "card-text-2"}
    root = tree(render_board(firecat_board, era_key="m10-2009", language="en", card_ids=ids))
    assert root.get("role") == "group"
    cards = {el.get("data-object"): el for el in by_class(root, "board-card")}
    garruk = cards["garruk"]
    assert garruk.get("tabindex") == "0" and garruk.get("role") == "button"
    assert garruk.get("aria-describedby") == "card-text-1"
    assert garruk.get("data-card-text") == "card-text-1"
    assert garruk.get("aria-label") is None  # named by its words, as drawn
    assert garruk.find(f"{SVG}title") is None
    # a card without a text keeps its tooltip and is not a tab stop
    assert cards["bears"].get("tabindex") is None
    assert cards["bears"].find(f"{SVG}title") is not None


def test_without_card_texts_the_board_is_a_plain_image(firecat_board):
    root = tree(render_board(firecat_board, era_key="m10-2009", language="en"))
    assert root.get("role") == "img"
    assert not [el for el in root.iter() if el.get("tabindex")]


def test_in_the_narrow_board_an_arrow_goes_round_the_cards_in_its_way(firecat_board):
    """Garruk is behind Bob's two blockers (two cards a row): the attack arrow runs along
    the board's edge into Garruk's side instead of over a blocker's name."""
    root = tree(render_board(firecat_board, era_key="m10-2009", language="en", narrow=True))
    frames = {el.get("data-object"): by_class(el, "board-card-frame")[0]
              for el in by_class(root, "board-card")}

    def inside(x: float, y: float, oid: str) -> bool:
        f = frames[oid]
        fx, fy, fw, fh = (float(f.get(k)) for k in ("x", "y", "width", "height"))
        return fx + 4 < x < fx + fw - 4 and fy + 4 < y < fy + fh - 4

    attack = by_class(root, "board-arrow--attack")[0].get("d")
    points = [tuple(map(float, pair.split(","))) for pair in re.findall(r"-?[\d.]+,-?[\d.]+",
                                                                         attack)]
    assert len(points) > 4  # a path with corners, not one curve
    for x, y in points:
        assert not inside(x, y, "bears") and not inside(x, y, "blocker2")
