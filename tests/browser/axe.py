"""axe-core in a Playwright page: the serious and critical accessibility violations of what
the page shows now, with a failure message that names the rule, its help and the elements.

axe-core comes from npm (package.json pins it like Bootstrap and htmx). The site's CSP
allows scripts from 'self' only, and the script tag Playwright adds holds the file's text
inline, so it is blocked there: the ``axe_page`` fixture (conftest.py) loads axe as an init
script instead, with the real CSP in force; the script tag serves pages without that CSP."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from playwright.sync_api import Page

AXE_JS = Path(__file__).resolve().parents[2] / "node_modules" / "axe-core" / "axe.min.js"
SEVERE = ("serious", "critical")
MAX_TARGETS = 5  # per rule in the message: enough to find them, short enough to read


def axe_violations(page: Page, *, impacts: tuple[str, ...] = SEVERE,
                   within: str | None = None) -> list[dict[str, Any]]:
    """Run axe on the page as it is (or on the element ``within`` selects) and return the
    violations whose impact is one of ``impacts``."""
    if not AXE_JS.exists():
        raise FileNotFoundError(f"{AXE_JS} is missing: run `npm ci` in the project root")
    if not page.evaluate("() => typeof window.axe !== 'undefined'"):
        page.add_script_tag(path=str(AXE_JS))
    result = page.evaluate(
        """async (within) => {
             const context = within ? document.querySelector(within) : document;
             return await axe.run(context, {resultTypes: ['violations']});
           }""", within)
    return [v for v in result["violations"] if v.get("impact") in impacts]


def describe(violations: list[dict[str, Any]], where: str = "") -> str:
    """A readable report: one paragraph per rule (id, impact, help, link, offending
    targets with axe's own summary of what to fix)."""
    lines = [f"{len(violations)} serious/critical accessibility violation(s)"
             + (f" on {where}" if where else "") + ":"]
    for v in violations:
        lines.append(f"- {v['id']} ({v['impact']}): {v['help']} [{v.get('helpUrl', '')}]")
        for node in v["nodes"][:MAX_TARGETS]:
            target = " ".join(str(t) for t in node.get("target", []))
            summary = " ".join((node.get("failureSummary") or "").split())
            lines.append(f"    {target}: {summary}")
        if len(v["nodes"]) > MAX_TARGETS:
            lines.append(f"    ... and {len(v['nodes']) - MAX_TARGETS} more")
    return "\n".join(lines)


def assert_accessible(page: Page, where: str = "") -> None:
    """Fail with ``describe``'s message if axe finds a serious or critical violation."""
    violations = axe_violations(page)
    assert not violations, describe(violations, where or page.url)
