"""The command line contract: python -m engine run|check|eras."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from engine.__main__ import main

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
