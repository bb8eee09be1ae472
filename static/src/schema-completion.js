/* Completion of keys and enumerated values from the scenario document's JSON Schema.
 *
 * The schema is fetched once, the first time completion is asked for; if it can't be had
 * (404, network error, not JSON) completion quietly offers nothing and the editor works
 * as before. Only what a schema says plainly is used: properties, patternProperties,
 * additionalProperties, items, enum, const, boolean types, local $refs and the
 * allOf / anyOf / oneOf / then / else alternatives. Meaning checks stay on the server.
 */

import { completionContext, ITEM } from "./yaml-path.js";

const MAX_DEPTH = 16; // $ref chains and nested alternatives: enough for any real schema
const PLAIN = /^[A-Za-z_][\w.-]*$/;
const YAML_WORDS = /^(y|n|yes|no|on|off|true|false|null|~)$/i;

function pointer(root, ref) {
  if (typeof ref !== "string" || !ref.startsWith("#")) return null;
  let node = root;
  for (const raw of ref.slice(1).split("/").slice(1)) {
    const part = decodeURIComponent(raw).replace(/~1/g, "/").replace(/~0/g, "~");
    if (node === null || typeof node !== "object" || !(part in node)) return null;
    node = node[part];
  }
  return node;
}

/* The schema and every alternative it allows, with $refs followed. */
function alternatives(schema, root, depth = 0, out = []) {
  if (!schema || typeof schema !== "object" || depth > MAX_DEPTH) return out;
  if (schema.$ref) alternatives(pointer(root, schema.$ref), root, depth + 1, out);
  out.push(schema);
  for (const word of ["allOf", "anyOf", "oneOf"]) {
    for (const sub of Array.isArray(schema[word]) ? schema[word] : []) {
      alternatives(sub, root, depth + 1, out);
    }
  }
  for (const word of ["then", "else"]) alternatives(schema[word], root, depth + 1, out);
  return out;
}

function matches(pattern, text) {
  try {
    return new RegExp(pattern, "u").test(text);
  } catch {
    return false; // a pattern JavaScript can't read: no completion from it
  }
}

function child(schema, root, segment) {
  const found = [];
  for (const alt of alternatives(schema, root)) {
    if (segment === ITEM) {
      if (alt.items && typeof alt.items === "object") found.push(alt.items);
      if (Array.isArray(alt.prefixItems)) found.push(...alt.prefixItems);
      continue;
    }
    if (alt.properties && Object.hasOwn(alt.properties, segment)) {
      found.push(alt.properties[segment]);
      continue;
    }
    const patterns = Object.entries(alt.patternProperties || {})
      .filter(([pattern]) => matches(pattern, segment))
      .map(([, sub]) => sub);
    found.push(...patterns);
    const other = alt.additionalProperties;
    if (!patterns.length && other && typeof other === "object") found.push(other);
  }
  return found;
}

/* The schemas that may describe the node at `path`. */
export function schemasAt(root, path) {
  let schemas = [root];
  for (const segment of path) {
    schemas = schemas.flatMap((schema) => child(schema, root, segment));
    if (!schemas.length) break;
  }
  return schemas;
}

/* The first description or title the schema (or what it refers to) gives. */
function describe(schema, root) {
  for (const alt of alternatives(schema, root)) {
    const text = alt.description || alt.title;
    if (typeof text === "string") return text;
  }
  return undefined;
}

export function keysAt(root, path) {
  const keys = new Map();
  for (const schema of schemasAt(root, path)) {
    for (const alt of alternatives(schema, root)) {
      for (const [name, sub] of Object.entries(alt.properties || {})) {
        if (!keys.get(name)) keys.set(name, describe(sub, root));
      }
    }
  }
  return keys;
}

export function valuesAt(root, path) {
  const values = new Map();
  for (const schema of schemasAt(root, path)) {
    for (const alt of alternatives(schema, root)) {
      for (const value of Array.isArray(alt.enum) ? alt.enum : []) values.set(value, undefined);
      if ("const" in alt) values.set(alt.const, describe(alt, root));
      if ([].concat(alt.type || []).includes("boolean")) {
        values.set(true, undefined);
        values.set(false, undefined);
      }
    }
  }
  for (const value of values.keys()) {
    if (value !== null && typeof value === "object") values.delete(value); // not one word
  }
  return values;
}

/* A scalar as YAML writes it: plain when that reads back as the same string. */
function yamlScalar(value) {
  if (typeof value !== "string") return JSON.stringify(value);
  return PLAIN.test(value) && !YAML_WORDS.test(value) ? value : JSON.stringify(value);
}

/* Where the word that starts before `pos` ends after it. */
function wordEnd(state, pos) {
  return pos + /^[\w.-]*/.exec(state.sliceDoc(pos, pos + 200))[0].length;
}

/* A CodeMirror completion source backed by the schema at `url`. */
export function schemaCompletion(url) {
  let schema = null; // a promise of the schema, or of null when it can't be had
  const load = () => {
    const headers = { Accept: "application/json" };
    schema ??= fetch(url, { credentials: "same-origin", headers })
      .then((response) => (response.ok ? response.json() : null))
      .then((data) => (data && typeof data === "object" ? data : null))
      .catch(() => null);
    return schema;
  };
  return async (context) => {
    const where = completionContext(context.state.doc, context.pos);
    if (!where || (!context.explicit && where.from === context.pos)) return null;
    const root = await load();
    if (!root || context.aborted) return null;
    const options = where.kind === "key" ? keyOptions(root, where, context) : [];
    if (where.kind === "value" || where.alsoValue) {
      options.push(...valueOptions(root, where, context));
    }
    if (!options.length) return null;
    const to = wordEnd(context.state, context.pos);
    return { from: where.from, to, options, validFor: /^[\w.-]*$/ };
  };
}

function keyOptions(root, where, context) {
  const end = wordEnd(context.state, context.pos);
  const hasColon = /^\s*:/.test(context.state.sliceDoc(end, end + 20));
  return [...keysAt(root, where.path)]
    .filter(([name]) => !where.present.has(name))
    .map(([name, info]) => ({
      label: name, type: "property", info,
      apply: hasColon ? yamlScalar(name) : `${yamlScalar(name)}: `,
    }));
}

function valueOptions(root, where, context) {
  const colonBefore = context.state.sliceDoc(where.from - 1, where.from) === ":";
  return [...valuesAt(root, where.path)].map(([value, info]) => ({
    label: yamlScalar(value), type: typeof value === "string" ? "enum" : "keyword", info,
    apply: (colonBefore ? " " : "") + yamlScalar(value),
  }));
}
