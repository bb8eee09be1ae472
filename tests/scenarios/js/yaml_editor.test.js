// Unit tests of the YAML editor's completion logic (static/src), run by `node --test` from
// tests/scenarios/test_code_editor.py. "§" in a document marks the cursor.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";

import { ChangeSet, Text } from "@codemirror/state";

import { diagnosticsFor } from "../../../static/src/preview-diagnostics.js";
import { keysAt, valuesAt } from "../../../static/src/schema-completion.js";
import { completionContext, ITEM } from "../../../static/src/yaml-path.js";

const SCHEMA = JSON.parse(readFileSync(new URL("../../../engine/data/scenario.schema.json",
  import.meta.url), "utf8"));

function at(source) {
  const pos = source.indexOf("§");
  const doc = Text.of(source.replace("§", "").split("\n"));
  const where = completionContext(doc, pos);
  return where && { ...where, present: [...where.present].sort() };
}

test("a top-level key being typed", () => {
  assert.deepEqual(at("format: 1\nid: x\nto§"),
    { kind: "key", path: [], from: 16, present: ["format", "id"], alsoValue: false });
});

test("a key inside a sequence item, on the dash line and below it", () => {
  const doc = "questions:\n  - id: q\n    ki§";
  assert.deepEqual(at(doc).path, ["questions", ITEM]);
  assert.deepEqual(at(doc).present, ["id"]);
  assert.deepEqual(at("questions:\n  - k§").path, ["questions", ITEM]);
  assert.equal(at("questions:\n  - k§").alsoValue, true);
});

test("an indentless sequence belongs to the key above it", () => {
  assert.deepEqual(at("actions:\n- attack: {}\n- §").path, ["actions", ITEM]);
});

test("a value after a key, block and flow", () => {
  assert.deepEqual(at("questions:\n  - id: q\n    kind: nu§").path, ["questions", ITEM, "kind"]);
  assert.equal(at("questions:\n  - id: q\n    kind: nu§").kind, "value");
  assert.deepEqual(at("setup:\n  turn: {active: alice, step: ma§}").path,
    ["setup", "turn", "step"]);
});

test("quoted keys are read as their text", () => {
  assert.deepEqual(at('"a b":\n  \'c\'\'s\': x§').path, ["a b", "c's"]);
});

test("keys inside a flow mapping of a sequence item", () => {
  const where = at("setup:\n  battlefield:\n    - {id: x, card: grizzly-bears, §}");
  assert.equal(where.kind, "key");
  assert.deepEqual(where.path, ["setup", "battlefield", ITEM]);
  assert.deepEqual(where.present, ["card", "id"]);
});

test("nothing inside comments, quoted values and block scalars", () => {
  assert.equal(at("# ti§"), null);
  assert.equal(at('title: "ab§'), null);
  assert.equal(at("explain:\n  en: |\n    some te§"), null);
});

test("a block scalar's lines do not open mappings", () => {
  assert.deepEqual(at("story:\n  en: |\n    a: b\n    c: d\ntit§").path, []);
});

test("the schema gives the keys and values the format allows", () => {
  assert.ok(keysAt(SCHEMA, []).has("questions"));
  assert.ok(keysAt(SCHEMA, ["setup", "battlefield", ITEM]).has("counters"));
  assert.ok(valuesAt(SCHEMA, ["setup", "turn", "step"]).has("main1"));
  assert.ok(valuesAt(SCHEMA, ["questions", ITEM, "kind"]).has("number"));
  assert.ok(valuesAt(SCHEMA, ["setup", "battlefield", ITEM, "card"]).has("grizzly-bears"));
  assert.equal(keysAt(SCHEMA, ["no-such-key"]).size, 0);
});

test("preview problems mark their line's text and follow later edits", () => {
  const doc = Text.of(["format: 1", "  difficulty: 9"]);
  const [mark] = diagnosticsFor(doc, [{ line: 2, severity: "error", message: "m" }]);
  assert.deepEqual([mark.from, mark.to, mark.severity], [12, 25, "error"]);
  // A line typed above while the preview was on its way: the mark moves down with its text.
  const changes = ChangeSet.of({ from: 0, insert: "x\n" }, doc.length);
  const [moved] = diagnosticsFor(doc, [{ line: 2, severity: "error", message: "m" }], changes);
  assert.deepEqual([moved.from, moved.to], [14, 27]);
});
