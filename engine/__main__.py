"""Command line: ``python -m engine run|check|eras|rule`` (see docs/scenario-format.md)."""

from __future__ import annotations

import argparse
import json
import sys
import textwrap

from engine.check import check_document
from engine.document import languages
from engine.eras import CURRENT, ERAS, find_era
from engine.errors import DocumentError, EngineError
from engine.notation import parse
from engine.reader import load_document
from engine.rulebook import lookup
from engine.runner import run_variant


def _print_errors(err: DocumentError | EngineError) -> None:
    if isinstance(err, DocumentError):
        for item in err.items:
            line = f"error: {item.path}: {item.message}" if item.path else f"error: {item.message}"
            if item.rule:
                line += f" (rule {item.rule})"
            if item.era:
                line += f" [{item.era}]"
            print(line, file=sys.stderr)
    else:
        print(f"error: {err}", file=sys.stderr)


def cmd_run(args: argparse.Namespace) -> int:
    doc = load_document(args.file)
    scenario = parse(doc)
    era = find_era(args.era) if args.era else CURRENT
    variant = scenario.variant(args.seed)
    outcome = run_variant(era, variant)
    from engine.runner import answer_eras, scenario_eras

    if any(q.kind == "eras" for q in variant.questions):
        from engine.runner import play

        eras = scenario_eras(scenario, variant)
        states = {e: play(find_era(e), variant)[0] for e in eras}
        outcome.answers.update(answer_eras(scenario, variant, eras, states))
    if args.json:
        print(json.dumps(outcome.as_json(), ensure_ascii=False, indent=2))
        return 0
    print(f"{scenario.id} under {era.key} ({era.name}, {era.effective.isoformat()})")
    for step in outcome.trace.steps:
        data = ", ".join(f"{k}={v}" for k, v in step.data.items())
        rule = f"[{step.rule}] " if step.rule else ""
        print(f"  {rule}{step.event}: {data}")
    for pid in outcome.state.players:
        print(f"  {pid}: life {outcome.state.life(pid)}")
    for qid, value in outcome.answers.items():
        print(f"  answer {qid}: {json.dumps(value)}")
    return 0


def cmd_check(args: argparse.Namespace) -> int:
    doc = load_document(args.file)
    result = check_document(doc, seed=args.seed)
    if args.json:
        print(json.dumps(result.as_json(), ensure_ascii=False, indent=2))
        return 0 if result.ok else 1
    for item in result.errors:
        _print_errors(DocumentError(item))
    for w in result.warnings:
        print(f"warning: {w.path}: {w.message}", file=sys.stderr)
    for era, answers in result.answers.items():
        for qid, value in answers.items():
            print(f"{era}  {qid} = {json.dumps(value, ensure_ascii=False)}")
    for d in result.disagreements:
        print(f"disagreement: {d['question']} in {d['era']}: expect {json.dumps(d['expected'])}"
              f", engine {json.dumps(d['engine'])}", file=sys.stderr)
    if result.ok:
        print(f"ok: {result.id}")
    return 0 if result.ok else 1


def cmd_eras(args: argparse.Namespace) -> int:
    if args.json:
        print(json.dumps([e.describe() for e in ERAS], indent=2))
        return 0
    for era in ERAS:
        print(f"{era.key:10}  {era.effective.isoformat()}  {era.name}")
    return 0


def cmd_rule(args: argparse.Namespace) -> int:
    for i, found in enumerate(lookup(args.rule, args.language)):
        if i:
            print()
        print(found.key)
        for era_range in found.ranges:
            print(f"  {era_range}")
        print(textwrap.fill(found.summary, 100, initial_indent="  ", subsequent_indent="  "))
        print("  cited in:" if found.citations else "  cited nowhere in the engine's code")
        for path, line in found.citations:
            print(f"    engine/{path}:{line}")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m engine",
                                     description="Planeswalker rules engine")
    sub = parser.add_subparsers(dest="command", required=True)
    run = sub.add_parser("run", help="run a scenario and print the outcome")
    run.add_argument("file")
    run.add_argument("--era", help="era id (default: the current era)")
    run.add_argument("--seed", type=int, default=0, help="variant seed (default 0)")
    run.add_argument("--json", action="store_true")
    check = sub.add_parser("check", help="validate a scenario in every era")
    check.add_argument("file")
    check.add_argument("--seed", type=int, default=0)
    check.add_argument("--json", action="store_true")
    eras = sub.add_parser("eras", help="list the rules eras")
    eras.add_argument("--json", action="store_true")
    rule = sub.add_parser("rule", help="a rule's keys, numbers by era, summary and citing code")
    rule.add_argument("rule", help="a rule number (306.7, 702.19c) or catalogue key")
    rule.add_argument("--language", choices=languages(), default="en",
                      help="language of the summary (default en)")
    args = parser.parse_args(argv)
    handlers = {"run": cmd_run, "check": cmd_check, "eras": cmd_eras, "rule": cmd_rule}
    try:
        return handlers[args.command](args)
    except EngineError as err:
        _print_errors(err)
        return 1


if __name__ == "__main__":
    sys.exit(main())
