"""The questions of a document, their options and claims.

A `number` or `yesno` question asks a query (``answer``), `choice` and `multi` list
options whose claims hold or not, `assign` asks for a combat damage assignment, `eras`
asks in which eras a claim holds (docs/scenario-format.md, "Question kinds").
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from engine.document import MAX_OPTIONS, QUESTION_KINDS, SLUG, SLUG_RULE, IdDict, is_int
from engine.errors import Errors
from engine.kinds.base import Query
from engine.kinds.queries import QUERY_KINDS, parse_query
from engine.params import PRUNED
from engine.state import GameState
from engine.texts import parse_text


@dataclass(frozen=True, slots=True)
class Claim:
    query: Query
    value: Any


@dataclass(frozen=True, slots=True)
class Option:
    id: str
    text: Mapping[str, str]
    claim: Claim


@dataclass(frozen=True, slots=True)
class Question:
    id: str
    kind: str
    ask: Mapping[str, str]
    path: str
    query: Query | None = None
    options: tuple[Option, ...] = ()
    attacker: str | None = None
    goal: str | None = None
    claim: Claim | None = None
    expect: Any = None
    has_expect: bool = False



def parse_questions(raw: Any, state: GameState, known: set[str], err: Errors,
                    ) -> list[Question]:
    """The questions of a document, each checked; a wrong one is left out (with errors)."""
    out: list[Question] = []
    seen: set[str] = set()
    if not isinstance(raw, list):
        return out
    for i, q in enumerate(raw):
        path = f"questions[{i}]"
        if q is PRUNED:  # not asked in this variant (its `when:`)
            continue
        if not isinstance(q, dict):
            err.add(path, "a question is a mapping {id, kind, ask, ...}")
            continue
        allowed = ("id", "kind", "ask", "answer", "options", "attacker", "goal", "claim",
                   "expect")
        for k in q:
            if k not in allowed:
                err.add(f"{path}.{k}", f"unknown field {k!r}; expected: {', '.join(allowed)}")
        qid = q.get("id")
        if not isinstance(qid, str) or not SLUG.match(qid):
            # The question's other fields are still checked: an id error hides nothing.
            err.add(f"{path}.id", f"a question id is a slug: {SLUG_RULE}")
            qid = f"?{i}"
        elif qid in seen:
            err.add(f"{path}.id", f"duplicate question id {qid!r}")
        seen.add(qid)
        kind = q.get("kind")
        if kind not in QUESTION_KINDS:
            err.add(f"{path}.kind", f"unknown kind {kind!r}; expected one of: "
                                    f"{', '.join(QUESTION_KINDS)}")
            continue
        ask = parse_text(q.get("ask"), f"{path}.ask", err, required=True)
        expect = q.get("expect")
        question = Question(qid, kind, ask, path, expect=expect, has_expect="expect" in q)
        if kind in ("number", "yesno"):
            query = parse_query(q.get("answer"), f"{path}.answer", state, known, err)
            want = "int" if kind == "number" else "bool"
            if query is not None and QUERY_KINDS[query.kind] != want:
                err.add(f"{path}.answer", f"a {kind} question needs a query with a "
                                          f"{'number' if want == 'int' else 'yes/no'} answer")
            question = replace(question, query=query)
        elif kind in ("choice", "multi"):
            options = q.get("options")
            if not isinstance(options, list) or len(options) < 2:
                err.add(f"{path}.options", "a choice needs at least two options")
                continue
            if len(options) > MAX_OPTIONS:
                err.add(f"{path}.options", f"at most {MAX_OPTIONS} options")
            opts: list[Option] = []
            ids: set[str] = set()
            for j, o in enumerate(options):
                op = f"{path}.options[{j}]"
                if not isinstance(o, dict):
                    err.add(op, "an option is {id, text, claim}")
                    continue
                for k in o:
                    if k not in ("id", "text", "claim"):
                        err.add(f"{op}.{k}", f"unknown field {k!r}; expected id, text, claim")
                oid = o.get("id")
                if not isinstance(oid, str) or not SLUG.match(oid):
                    err.add(f"{op}.id", f"an option id is a slug: {SLUG_RULE}")
                    oid = f"?{j}"
                elif oid in ids:
                    err.add(f"{op}.id", f"duplicate option id {oid!r}")
                ids.add(oid)
                text = parse_text(o.get("text"), f"{op}.text", err, required=True)
                claim = parse_claim(o.get("claim"), f"{op}.claim", state, known, err)
                if claim is not None:
                    opts.append(Option(oid, text, claim))
            question = replace(question, options=tuple(opts))
        elif kind == "assign":
            attacker = q.get("attacker")
            if attacker not in known:
                err.add(f"{path}.attacker", f"unknown object {attacker!r}")
            goal = q.get("goal")
            most_to = None
            if goal is not None:
                if not isinstance(goal, dict) or set(goal) != {"most_to"}:
                    err.add(f"{path}.goal", "`goal` is {most_to: RECIPIENT}")
                else:
                    most_to = goal["most_to"]
                    if most_to not in known and most_to not in IdDict(state.players):
                        err.add(f"{path}.goal.most_to", f"unknown player or object {most_to!r}")
            question = replace(question, attacker=attacker, goal=most_to)
        elif kind == "eras":
            claim = parse_claim(q.get("claim"), f"{path}.claim", state, known, err)
            question = replace(question, claim=claim)
        out.append(question)
    return out


def parse_claim(raw: Any, path: str, state: GameState, known: set[str], err: Errors,
                ) -> Claim | None:
    if not isinstance(raw, dict) or set(raw) != {"query", "is"}:
        err.add(path, "a claim is {query: QUERY, is: VALUE}")
        return None
    query = parse_query(raw["query"], f"{path}.query", state, known, err)
    if query is None:
        return None
    value = raw["is"]
    ok = {
        "int": is_int(value), "bool": isinstance(value, bool),
        "str": value is None or isinstance(value, str),
        "list": isinstance(value, list) and all(isinstance(v, str) for v in value),
    }[QUERY_KINDS[query.kind]]
    if not ok:
        kind_name = {"int": "number", "bool": "true/false", "str": "name",
                     "list": "list"}[QUERY_KINDS[query.kind]]
        err.add(f"{path}.is", f"the query {query.kind!r} answers a {kind_name}")
        return None
    return Claim(query, value)
