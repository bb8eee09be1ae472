"""The command line contract: python -m engine run|check|eras|rule."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

import engine
from engine.__main__ import main
from engine.rulebook import lookup

GOOD = {
    "format": 1, "id": "cli-trample", "topic": "trample-into-planeswalkers", "difficulty": 2,
    "title": {"en": "Trample", "it": "Travolgere", "es": "Arrollar"},
    "setup": {
        "turn": {"active": "alice", "step": "main1"},
        "players": [{"id": "alice", "life": 20}, {"id": "bob", "life": 20}],
        "battlefield": [
            {"id": "wurm", "controller": "alice", "types": ["creature"], "power": 6,
             "toughness": 6, "keywords": ["trample"]},
            {"id": "garruk", "card": "garruk-wildspeaker", "controller": "bob",
             "counters": {"loyalty": 3}},
            {"id": "bears", "card": "grizzly-bears", "controller": "bob"},
        ],
    },
    "actions": [{"attack": {"wurm": "garruk"}}, {"block": {"bears": "wurm"}},
                {"combat_damage": {}}],
    "questions": [
        {"id": "q1", "kind": "number", "ask": {"en": "Bob's life?", "it": "Vita di Bob?",
                                                "es": "¿Vidas de Bob?"},
         "answer": {"life": "bob"}, "expect": 20},
        {"id": "q2", "kind": "eras",
         "ask": {"en": "When is Garruk gone?", "it": "Quando?", "es": "¿Cuándo?"},
         "claim": {"query": {"zone": "garruk"}, "is": "graveyard"},
         "expect": ["lrw-2007", "m10-2009", "m11-2010", "m14-2013", "xln-2017", "dom-2018",
                    "mh2-2021", "mom-2023", "fdn-2024"]},
    ],
}


def write(tmp_path: Path, doc: object, name: str = "s.yaml") -> str:
    path = tmp_path / name
    path.write_text(yaml.safe_dump(doc, allow_unicode=True) if not isinstance(doc, str)
                    else doc, encoding="utf-8")
    return str(path)


def test_run_json_has_the_contract_fields(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                          ) -> None:
    assert main(["run", write(tmp_path, GOOD), "--era", "m10-2009", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["era"] == "m10-2009"
    assert out["players"]["bob"] == {"life": 20}
    assert out["objects"]["garruk"]["zone"] == "graveyard"
    assert out["objects"]["wurm"]["attacking"] == "nothing"  # garruk died: 506.4c
    assert out["answers"]["q1"] == 20
    assert all({"rule", "event"} <= step.keys() for step in out["trace"])
    assert "702.17" in {step["rule"] for step in out["trace"]}


def test_run_defaults_to_the_current_era(tmp_path: Path,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["run", write(tmp_path, GOOD), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["era"] == "fdn-2024"


def test_check_json_ok(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", write(tmp_path, GOOD), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["ok"] is True and out["errors"] == [] and out["disagreements"] == []
    assert set(out["answers"]) == {"lrw-2007", "m10-2009", "m11-2010", "m14-2013", "xln-2017",
                                   "dom-2018", "mh2-2021", "mom-2023", "fdn-2024"}


def test_check_reports_a_disagreement_and_exits_1(tmp_path: Path,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    doc = json.loads(json.dumps(GOOD))
    doc["questions"][0]["expect"] = 14
    assert main(["check", write(tmp_path, doc), "--json"]) == 1
    out = json.loads(capsys.readouterr().out)
    assert out["ok"] is False
    assert {"era": "fdn-2024", "question": "q1", "expected": 14, "engine": 20} in \
        out["disagreements"]


def test_eras_lists_ids_names_and_dates(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["eras"]) == 0
    out = capsys.readouterr().out
    assert "lrw-2007" in out and "2007-10-01" in out and "Foundations" in out


@pytest.mark.parametrize(("mutate", "needle"), [
    (lambda d: d["setup"]["battlefield"][1].update(card="garruk-wildspeakr"),
     "setup.battlefield[1].card: unknown card 'garruk-wildspeakr'"),
    (lambda d: d.update(colour="red"), "colour: unknown field 'colour'"),
    (lambda d: d["actions"].__setitem__(1, {"block": {"bears": "wurmm"}}),
     "actions[1].block.bears: unknown object 'wurmm'"),
    (lambda d: d["actions"].__setitem__(1, {"block": {"garruk": "wurm"}}),
     "actions[1].block.garruk: garruk is not a creature on the battlefield (rule 509.1a)"),
    (lambda d: d["setup"]["players"][0].update(life="twenty"), "setup.players[0].life"),
    (lambda d: d.update(eras=["m12-2011"]), "eras[0]: unknown era 'm12-2011'"),
])
def test_bad_documents_exit_1_with_a_precise_message(tmp_path: Path, mutate, needle: str,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    doc = json.loads(json.dumps(GOOD))
    mutate(doc)
    assert main(["run", write(tmp_path, doc), "--era", "m10-2009"]) == 1
    err = capsys.readouterr().err
    assert needle in err
    assert "Traceback" not in err


def test_unknown_era_on_the_command_line(tmp_path: Path,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["run", write(tmp_path, GOOD), "--era", "war-2019"]) == 1
    assert "unknown era 'war-2019'" in capsys.readouterr().err


def test_bad_yaml_and_missing_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", write(tmp_path, "format: 1\nid: [unclosed\n")]) == 1
    assert "not valid YAML: line" in capsys.readouterr().err
    assert main(["check", str(tmp_path / "nope.yaml")]) == 1
    assert "can't read the file" in capsys.readouterr().err


def test_the_module_runs_as_a_program(tmp_path: Path) -> None:
    result = subprocess.run([sys.executable, "-m", "engine", "check", write(tmp_path, GOOD)],
                            capture_output=True, text=True, check=False)
    assert result.returncode == 0, result.stderr
    assert "ok: cli-trample" in result.stdout


def cited_lines(out: str) -> list[str]:
    """The engine source lines the ``cited in:`` paths of a ``rule`` output point at."""
    package = Path(engine.__file__).parent
    lines = []
    for path, _, number in (row.strip().rpartition(":") for row in out.splitlines()
                            if row.startswith("    engine/")):
        text = (package / path.removeprefix("engine/")).read_text(encoding="utf-8")
        lines.append(text.splitlines()[int(number) - 1])
    return lines


def test_rule_by_number_prints_its_key_eras_summary_and_citing_code(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rule", "306.7"]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[0] == "pw.redirection"
    assert "  m10-2009..xln-2017: 306.7\n" in out
    assert "212.9g" not in out  # only the eras in which it was numbered 306.7
    assert "may be redirected" in out
    cited = cited_lines(out)
    assert cited and all("pw.redirection" in line for line in cited)


def test_rule_by_key_prints_every_era_range(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rule", "pw.redirection"]) == 0
    out = capsys.readouterr().out
    assert ["  lrw-2007: 212.9g", "  m10-2009..xln-2017: 306.7",
            "  dom-2018..fdn-2024: not in the rules"] == out.splitlines()[1:4]
    assert main(["rule", "combat.declare-attackers"]) == 0
    out = capsys.readouterr().out
    assert "  lrw-2007: 308.1\n  m10-2009..fdn-2024: 508.1\n" in out
    assert "    engine/combat/declare.py:" in out
    assert all("combat.declare-attackers" in line for line in cited_lines(out))


def test_one_number_can_name_several_keys_in_different_eras() -> None:
    found = {f.key: [str(r) for r in f.ranges] for f in lookup("702.19c")}
    assert found == {"trample.no-blockers": ["m14-2013..dom-2018: 702.19c"],
                     "trample.over-planeswalkers": ["mh2-2021..fdn-2024: 702.19c"]}


def test_rule_summary_in_another_language(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rule", "306.7", "--language", "it"]) == 0
    assert "reindirizzato" in capsys.readouterr().out


def test_unknown_rule_number_or_key_exits_1_with_close_matches(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rule", "999.9"]) == 1
    assert "error: no rule numbered 999.9 in any era\n" == capsys.readouterr().err
    assert main(["rule", "306"]) == 1
    assert "did you mean 306.1 (pw.cast-timing)" in capsys.readouterr().err
    assert main(["rule", "combat.declare-attacker"]) == 1
    err = capsys.readouterr().err
    assert "no rule key 'combat.declare-attacker' in the catalogue" in err
    assert "did you mean combat.declare-attackers?" in err
