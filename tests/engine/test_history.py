"""Rule history in the engine: moved rules and where two eras' traces part ways."""

from __future__ import annotations

from engine.eras import find_era
from engine.history import changes, first_divergence, moved_rules
from engine.notation import parse
from engine.runner import play

LAVA_SPIKE = {
    "format": 1, "id": "spike", "topic": "redirection-era", "difficulty": 1,
    "title": {"en": "Lava Spike"},
    "setup": {"turn": {"active": "alice", "step": "main1"},
              "players": [{"id": "alice"}, {"id": "bob"}],
              "battlefield": [{"id": "garruk", "card": "garruk-wildspeaker",
                               "controller": "bob", "counters": {"loyalty": 3}}]},
    "actions": [{"cast": {"card": "lava-spike", "by": "alice", "targets": ["bob"],
                          "redirect_to": {"bob": "garruk"}}}],
    "questions": [{"id": "q", "kind": "number", "ask": {"en": "?"}, "answer": {"life": "bob"}}],
}


def traces(doc: dict, *eras: str):
    variant = parse(doc).variant(0)
    return [play(find_era(e), variant)[1].steps for e in eras]


def test_lava_spike_diverges_at_the_redirection_after_dominaria() -> None:
    before, after = traces(LAVA_SPIKE, "xln-2017", "dom-2018")
    i = first_divergence(before, after)
    assert i is not None
    assert before[i].event == "redirect.applied" and before[i].rule == "306.7"
    assert after[i].event == "redirect.no-rule"
    assert before[:i] and before[0].event == after[0].event == "spell.cast"


def test_renumbering_alone_is_not_a_divergence() -> None:
    lrw, m10 = traces(LAVA_SPIKE, "lrw-2007", "m10-2009")
    assert lrw[1].rule == "212.9g" and m10[1].rule == "306.7"
    assert first_divergence(lrw, m10) is None


def test_moved_rules_show_the_renumbering_and_the_removals() -> None:
    m10 = {m.key: m for m in moved_rules("m10-2009")}
    assert (m10["pw.redirection"].before, m10["pw.redirection"].after) == ("212.9g", "306.7")
    dom = {m.key: m for m in moved_rules("dom-2018")}
    assert dom["pw.redirection"].before == "306.7" and dom["pw.redirection"].after is None
    xln = {m.key: m for m in moved_rules("xln-2017")}
    assert (xln["sba.legend"].before, xln["sba.legend"].after) == ("704.5k", "704.5j")


def test_every_era_says_what_changed_in_three_languages() -> None:
    for era in ("lrw-2007", "m10-2009", "fdn-2024"):
        for lang in ("en", "it", "es"):
            assert changes(era, lang)
    assert "redirezione" not in " ".join(changes("dom-2018", "it"))
