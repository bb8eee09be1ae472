/* Where the cursor is in a YAML document, as a path of keys and sequence items, read from
 * the indentation of the lines above it and the flow brackets on its own line.
 *
 * Why not CodeMirror's syntax tree: a document being typed is incomplete most of the
 * time (a key without its value, an unclosed brace), and the tree of an incomplete YAML
 * document often puts the cursor somewhere else than the author thinks it is, while the
 * indentation says it plainly. The scenario documents use block mappings and sequences
 * with one-line flow collections (`- {id: alice, life: 20}`), which is what this reads.
 *
 * A path is a list of segments: a key name, or ITEM for "an item of a sequence".
 */

export const ITEM = "[]";

// A mapping key at the start of a text: quoted, or plain (not starting with an indicator).
const QUOTED_KEY = /"(?:[^"\\]|\\.)*"|'(?:[^']|'')*'/.source;
const PLAIN_KEY = /[^\s#'"{}[\],:&*!|>%@`-][^#:]*?|-[^\s#:][^#:]*?/.source;
const KEY = new RegExp(`^(${QUOTED_KEY}|${PLAIN_KEY})\\s*:(?=\\s|$)`);
const BLOCK_SCALAR = /^[|>][0-9+-]*\s*(#.*)?$/;

function unquote(key) {
  if (key.startsWith('"')) {
    try { return JSON.parse(key); } catch { return key.slice(1, -1); }
  }
  if (key.startsWith("'")) return key.slice(1, -1).replace(/''/g, "'");
  return key;
}

/* One line's block structure: the columns of its sequence dashes, its key (if any) and
 * what follows the key's colon. */
function parseLine(text) {
  const elements = [];
  let col = text.length - text.trimStart().length;
  let rest = text.slice(col);
  for (let m = /^-(\s+|$)/.exec(rest); m; m = /^-(\s+|$)/.exec(rest)) {
    elements.push({ col, kind: "item" });
    col += m[0].length;
    rest = rest.slice(m[0].length);
  }
  const key = KEY.exec(rest);
  let value = rest;
  let valueCol = col;
  if (key) {
    elements.push({ col, kind: "key", name: unquote(key[1]) });
    valueCol = col + key[0].length;
    value = rest.slice(key[0].length);
    valueCol += value.length - value.trimStart().length;
    value = value.trimStart();
  }
  return { elements, col, rest, value, valueCol, key: key ? key[0] : null };
}

function newFrame(col, kind, name) {
  return { col, kind, name, children: new Set() };
}

/* Pop the frames an element at this column closes. A dash at the column of a key
 * belongs to that key (YAML's "indentless" sequence under a key). */
function close(stack, col, kind) {
  while (stack.length > 1) {
    const top = stack[stack.length - 1];
    const closes = kind === "item" ? top.col > col || (top.col === col && top.kind === "item")
      : top.col >= col;
    if (!closes) break;
    stack.pop();
  }
}

/* Close what the element closes, note a key in its mapping, and open the element. */
function place(stack, element) {
  close(stack, element.col, element.kind);
  if (element.kind === "key") stack[stack.length - 1].children.add(element.name);
  stack.push(newFrame(element.col, element.kind, element.name));
}

/* The block frames open at the start of line `lineNo` (1-based) of `doc`, and whether
 * that line is inside a block scalar (`text: |` and its indented lines). */
function blockStack(doc, lineNo) {
  const stack = [newFrame(-1, "root")];
  let scalarCol = null; // inside a block scalar (| or >) started at this column
  for (let n = 1; n < lineNo; n++) {
    const text = doc.line(n).text;
    const trimmed = text.trimStart();
    const indent = text.length - trimmed.length;
    if (scalarCol !== null) {
      if (trimmed === "" || indent > scalarCol) continue;
      scalarCol = null;
    }
    if (trimmed === "" || trimmed.startsWith("#") || trimmed.startsWith("---")) continue;
    const line = parseLine(text);
    for (const element of line.elements) place(stack, element);
    if (line.elements.length && BLOCK_SCALAR.test(line.value)) {
      scalarCol = line.elements[line.elements.length - 1].col;
    }
  }
  const text = doc.line(lineNo).text;
  const inScalar = scalarCol !== null
    && (text.trim() === "" || text.length - text.trimStart().length > scalarCol);
  return { stack, inScalar };
}

function pathOf(stack) {
  return stack.slice(1).map((frame) => (frame.kind === "item" ? ITEM : frame.name));
}

/* The flow collections open before the cursor on one line: for each, its kind and, in a
 * mapping, the key whose value the cursor is in (null while a key is being typed), with
 * the keys already written there. */
function flowFrames(text) {
  const frames = [];
  let quote = null;
  let token = "";
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (quote) {
      if (ch === quote) quote = null;
      token += ch;
      continue;
    }
    const top = frames[frames.length - 1];
    if (ch === '"' || ch === "'") {
      quote = ch;
      token += ch;
    } else if (ch === "{" || ch === "[") {
      frames.push({ kind: ch === "{" ? "map" : "seq", key: null, keys: new Set() });
      token = "";
    } else if (ch === "}" || ch === "]") {
      frames.pop();
      token = "";
    } else if (ch === "," && top) {
      top.key = null;
      token = "";
    } else if (ch === ":" && top && top.kind === "map" && top.key === null) {
      top.key = unquote(token.trim());
      top.keys.add(top.key);
      token = "";
    } else {
      token += ch;
    }
  }
  return frames;
}

/* What can be completed at `pos`: {kind: "key" | "value", path, from, present} where path
 * leads to the mapping whose key is typed (kind "key") or to the value typed (kind
 * "value"), from is where the typed word starts, and present holds the keys already
 * written in that mapping. Null inside comments, quoted strings and block scalars. */
export function completionContext(doc, pos) {
  const line = doc.lineAt(pos);
  const before = line.text.slice(0, pos - line.from);
  const word = /[\w.-]*$/.exec(before)[0];
  const from = pos - word.length;
  const { stack, inScalar } = blockStack(doc, line.number);
  if (inScalar || before.includes("#")) return null;
  const parsed = parseLine(before);
  if (!parsed.key) {
    // Only dashes, then the word: a key of the (item) mapping, or an item's value.
    if (parsed.rest !== word) return flowContext(stack, parsed.elements, parsed.rest, from);
    for (const element of parsed.elements) place(stack, element);
    const onDash = parsed.elements.length > 0;
    close(stack, parsed.col, "key");
    const parent = stack[stack.length - 1];
    return { kind: "key", path: pathOf(stack), from, present: parent.children,
             alsoValue: onDash };
  }
  for (const element of parsed.elements) place(stack, element);
  if (/^[{[]/.test(parsed.value)) return flowContext(stack, [], parsed.value, from);
  if (parsed.value !== word) return null; // a quoted or multi-word value
  return { kind: "value", path: pathOf(stack), from, present: new Set() };
}

function flowContext(stack, elements, text, from) {
  for (const element of elements) place(stack, element);
  const frames = flowFrames(text);
  if (!frames.length) return null;
  const path = pathOf(stack);
  for (const frame of frames.slice(0, -1)) {
    if (frame.kind === "seq") path.push(ITEM);
    else if (frame.key !== null) path.push(frame.key);
  }
  const last = frames[frames.length - 1];
  if (last.kind === "seq") {
    return { kind: "value", path: [...path, ITEM], from, present: new Set() };
  }
  if (last.key === null) return { kind: "key", path, from, present: last.keys };
  return { kind: "value", path: [...path, last.key], from, present: new Set() };
}
