/* The live preview's errors and warnings as CodeMirror diagnostics.
 *
 * The server already says where each problem is: the preview partial
 * (templates/scenarios/editor.html#preview) marks each item of its error and warning
 * lists with data-line (1-based) and data-severity. The editor reads them after every
 * swap instead of asking for a second, machine-readable report: one request, one truth.
 */

/* Each problem in the preview: {line, severity, message}. */
export function problemsIn(preview) {
  if (!preview) return [];
  return [...preview.querySelectorAll("[data-line]")].flatMap((item) => {
    const line = Number.parseInt(item.dataset.line, 10);
    if (!Number.isInteger(line) || line < 1) return [];
    const text = item.cloneNode(true);
    text.querySelectorAll(".badge").forEach((badge) => badge.remove());
    return [{
      line,
      severity: item.dataset.severity === "warning" ? "warning" : "error",
      message: text.textContent.replace(/\s+/g, " ").trim(),
    }];
  });
}

/* Diagnostics for `doc` (the text the preview was computed from), moved through
 * `changes` (what was typed since) when given. A problem marks its line's text. */
export function diagnosticsFor(doc, problems, changes = null) {
  return problems.map(({ line, severity, message }) => {
    const at = doc.line(Math.min(line, doc.lines));
    const indent = at.text.length - at.text.trimStart().length;
    let from = at.text.trim() ? at.from + indent : at.from;
    let to = at.to;
    if (changes) {
      from = changes.mapPos(from, 1);
      to = Math.max(from, changes.mapPos(to, -1));
    }
    return { from, to, severity, message };
  });
}
