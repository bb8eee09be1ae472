/* The instructor's YAML editor: a CodeMirror 6 code editor over the plain textarea.
 *
 * Progressive enhancement: the page works with the textarea alone (it is the form field
 * that is posted, and the htmx live preview is triggered by its input events). This
 * script hides the textarea, shows the code editor in its place and copies every edit
 * back into it, firing the textarea's "input" event, so saving and the preview keep
 * working unchanged. The preview's problems (data-line on each item) become markers at
 * their lines; keys and enumerated values are completed from the JSON Schema.
 *
 * Built by `npm run build` (esbuild) into static/js/yaml-editor.js; `make` runs it.
 *
 * CSP: CodeMirror writes its base styles into a <style> element. The page gives this
 * script the request's CSP nonce (the nonce attribute of its <script> tag), which is
 * passed to EditorView.cspNonce; the policy allows that nonce for styles only, on the
 * editor pages only.
 */

import { autocompletion } from "@codemirror/autocomplete";
import { defaultKeymap, history, historyKeymap, indentWithTab } from "@codemirror/commands";
import { yaml } from "@codemirror/lang-yaml";
import {
  bracketMatching, HighlightStyle, indentOnInput, indentUnit, syntaxHighlighting,
} from "@codemirror/language";
import { lintGutter, lintKeymap, setDiagnostics } from "@codemirror/lint";
import { ChangeSet, EditorState } from "@codemirror/state";
import {
  EditorView, highlightActiveLineGutter, highlightSpecialChars, keymap, lineNumbers,
} from "@codemirror/view";
import { tags } from "@lezer/highlight";

import { diagnosticsFor, problemsIn } from "./preview-diagnostics.js";
import { schemaCompletion } from "./schema-completion.js";

const SCHEMA_URL = "/author/schema.json";
const PREVIEW_ID = "preview";
const KEPT_SNAPSHOTS = 8; // previews in flight at once: more than htmx ever sends

// Read now: document.currentScript is only set while this script first runs.
const NONCE = (document.currentScript && document.currentScript.nonce) || "";

/* Token colours at 4.5:1 or more on the white editor background (WCAG AA). */
const highlightStyle = HighlightStyle.define([
  { tag: tags.definition(tags.propertyName), color: "#0b4f9c" },
  { tag: tags.string, color: "#a11717" },
  { tag: [tags.lineComment, tags.comment], color: "#5c5c5c", fontStyle: "italic" },
  { tag: tags.labelName, color: "#6f1d95" },
  { tag: tags.typeName, color: "#0a6640" },
  { tag: [tags.special(tags.string), tags.keyword], color: "#8a3b00" },
  { tag: tags.meta, color: "#404740" },
  { tag: tags.invalid, color: "#b00020" },
]);

/* CodeMirror's own interface words in the page's language, from a <template> of
 * <span data-phrase="English">translation</span>. */
function phrasesFrom(template) {
  const phrases = {};
  if (!template) return phrases;
  for (const span of template.content.querySelectorAll("[data-phrase]")) {
    phrases[span.dataset.phrase] = span.textContent;
  }
  return phrases;
}

/* The ids of the elements that describe the editor: the textarea's own and the hint. */
function describedBy(textarea, hint) {
  const ids = (textarea.getAttribute("aria-describedby") || "").split(/\s+/).filter(Boolean);
  if (hint) ids.push(hint.id);
  return ids.join(" ");
}

/* The editor's accessible name and description: the textarea's label, its description
 * and the keyboard hint. */
function contentAttributesFor(textarea, hint) {
  const label = document.querySelector(`label[for="${textarea.id}"]`);
  // tabindex: contenteditable is in the tab order already, but axe counts only elements
  // with a tabindex (or native controls) as the keyboard's way into a scrolling region.
  const attributes = { "aria-describedby": describedBy(textarea, hint), tabindex: "0" };
  if (label) {
    label.id ||= `${textarea.id}-label`;
    attributes["aria-labelledby"] = label.id;
  }
  return attributes;
}

function extensionsFor(textarea, hint, onChange) {
  const phrases = phrasesFrom(document.getElementById(textarea.dataset.editorPhrases || ""));
  return [
    EditorView.cspNonce.of(NONCE),
    EditorState.phrases.of(phrases),
    lineNumbers(),
    highlightActiveLineGutter(),
    highlightSpecialChars(),
    history(),
    indentUnit.of("  "),
    EditorState.tabSize.of(2),
    indentOnInput(),
    bracketMatching(),
    yaml(),
    syntaxHighlighting(highlightStyle),
    EditorView.lineWrapping,
    lintGutter(),
    autocompletion({ override: [schemaCompletion(textarea.dataset.schemaUrl || SCHEMA_URL)] }),
    // Completion brings its own keys (Ctrl+Space, arrows, Enter, Escape). Tab indents;
    // Escape then Tab (CodeMirror's own rule) leaves the editor: the hint says so.
    keymap.of([...lintKeymap, ...defaultKeymap, ...historyKeymap, indentWithTab]),
    EditorView.contentAttributes.of(contentAttributesFor(textarea, hint)),
    EditorView.updateListener.of((update) => update.docChanged && onChange(update)),
  ];
}

/* Markers from the live preview after each of its swaps. Each request remembers the text
 * it was sent with, and what is typed while it is on its way moves its markers along. */
function followPreview(view, textarea) {
  const snapshots = []; // {xhr, doc, changes}
  const show = (preview, snapshot) => {
    const problems = problemsIn(preview);
    const diagnostics = snapshot
      ? diagnosticsFor(snapshot.doc, problems, snapshot.changes)
      : diagnosticsFor(view.state.doc, problems);
    view.dispatch(setDiagnostics(view.state, diagnostics));
  };
  document.addEventListener("htmx:beforeRequest", (event) => {
    if (event.detail.elt !== textarea) return;
    snapshots.push({ xhr: event.detail.xhr, doc: view.state.doc,
                     changes: ChangeSet.empty(view.state.doc.length) });
    snapshots.splice(0, Math.max(0, snapshots.length - KEPT_SNAPSHOTS));
  });
  document.addEventListener("htmx:afterSwap", (event) => {
    if (event.target.id !== PREVIEW_ID) return;
    const index = snapshots.findIndex((s) => s.xhr === event.detail.xhr);
    show(event.target, index >= 0 ? snapshots.splice(index, 1)[0] : null);
  });
  show(document.getElementById(PREVIEW_ID), null);
  return (update) => {
    for (const snapshot of snapshots) snapshot.changes = snapshot.changes.compose(update.changes);
  };
}

/* Replace the textarea by the code editor; the textarea stays the form field. */
function enhance(textarea) {
  const hint = document.getElementById(textarea.dataset.editorHint || "");
  let movePending = () => {};
  const view = new EditorView({
    doc: textarea.value,
    extensions: extensionsFor(textarea, hint, (update) => {
      movePending(update);
      textarea.value = update.state.doc.toString();
      textarea.dispatchEvent(new Event("input", { bubbles: true })); // the preview's trigger
    }),
  });
  const wrapper = document.createElement("div");
  wrapper.className = "yaml-editor";
  wrapper.append(view.dom);
  textarea.after(wrapper);
  textarea.hidden = true;
  if (hint) hint.hidden = false;
  const label = document.querySelector(`label[for="${textarea.id}"]`);
  if (label) label.addEventListener("click", () => view.focus());
  movePending = followPreview(view, textarea);
  return view;
}

for (const textarea of document.querySelectorAll("textarea[data-code-editor=yaml]")) {
  enhance(textarea);
}
