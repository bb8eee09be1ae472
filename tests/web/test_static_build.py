"""The site's own Bootstrap (issue 16, static files): a stylesheet built by dart-sass from
static/src/scss/bootstrap.scss and a script holding only the Collapse plugin, both made
by `make install` and served by WhiteNoise like every static file. It holds what the pages
use and none of the components they don't; no page links the npm package's files."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.contrib.staticfiles import finders
from django.templatetags.static import static
from django.test import Client, override_settings

BASE_DIR = Path(settings.BASE_DIR)
NPM_BOOTSTRAP_CSS = BASE_DIR / "node_modules" / "bootstrap" / "dist" / "css" / "bootstrap.css"
# Components and states no page uses: left out of static/src/scss/bootstrap.scss.
DROPPED = ("carousel", "modal", "toast", "offcanvas", "popover", "tooltip", "dropdown-menu",
           "accordion", "spinner-border", "placeholder", "progress-bar", "form-range",
           "form-floating", "btn-close", "is-valid")
# One class of each kind the pages use, in the templates, crispy's forms and the navbar.
USED = ("navbar-toggler", "navbar-expand-lg", "collapse", "collapsing", "form-control",
        "form-check-input", "form-select", "is-invalid", "invalid-feedback", "btn-outline-light",
        "alert-warning", "list-group-item", "card-body", "table-sm", "text-bg-danger",
        "visually-hidden-focusable", "mb-lg-0", "d-lg-flex", "row-cols-md-3", "pagination")

# class="..." in a template, with any template tags inside it (which may hold quotes)
CLASS_ATTRIBUTE = re.compile(r'class="((?:[^"{]|\{\{.*?\}\}|\{%.*?%\}|\{#.*?#\}|\{)*)"', re.S)
TEMPLATE_TAG = re.compile(r"\{\{.*?\}\}|\{%.*?%\}|\{#.*?#\}", re.S)
# classes given in Python (widget attrs, crispy's css_class) and by the site's scripts
CODE_CLASSES = re.compile(
    r"""(?:"class"\s*:\s*|css_class\s*=\s*|classList\.(?:add|remove|toggle)\(\s*)["']([^"']+)["']""")
CLASS_NAME = re.compile(r"[a-z][a-z0-9-]*[a-z0-9]")


def selector_classes(css: str) -> set[str]:
    """Every class named in a selector of the stylesheet (declarations left out)."""
    selectors = re.sub(r"\{[^{}]*\}", " ", css)
    return set(re.findall(r"\.(-?[_a-zA-Z][\w-]*)", selectors))


def leading_classes(css: str) -> set[str]:
    """The classes that begin a selector: a component's own rules (.offcanvas {...}), not a
    kept component's mention of it (.navbar-expand-lg .offcanvas {...})."""
    names: set[str] = set()
    for selectors in re.findall(r"(?:^|[{};])([^{};@]+)\{", css):
        for selector in selectors.split(","):
            match = re.match(r"\.(-?[_a-zA-Z][\w-]*)", selector.strip())
            if match:
                names.add(match.group(1))
    return names


def classes_in_the_code() -> set[str]:
    """The literal class names the templates, the Python code and the site's scripts give."""
    names: set[str] = set()
    for template in BASE_DIR.glob("templates/**/*.html"):
        for attribute in CLASS_ATTRIBUTE.finditer(template.read_text(encoding="utf-8")):
            words = TEMPLATE_TAG.sub(" ", attribute.group(1)).split()
            names.update(word for word in words if CLASS_NAME.fullmatch(word))
    code = [*BASE_DIR.glob("quiz/**/*.py"), *BASE_DIR.glob("scenarios/**/*.py"),
            *BASE_DIR.glob("static/js/*.js")]
    for path in code:
        if path.name in ("yaml-editor.js", "bootstrap-parts.js"):  # built bundles
            continue
        for match in CODE_CLASSES.finditer(path.read_text(encoding="utf-8")):
            names.update(word for word in match.group(1).split() if CLASS_NAME.fullmatch(word))
    return names


@pytest.fixture(scope="module")
def built_css() -> str:
    path = finders.find("css/bootstrap.css")
    assert path, "static/css/bootstrap.css is not built: run `make install` (npm run build:css)"
    return Path(path).read_text(encoding="utf-8-sig")


@pytest.mark.django_db
def test_production_serves_the_built_stylesheet_and_script_compressed(
        production_static: dict[str, Any]) -> None:
    with override_settings(**production_static, DEBUG=False):
        client = Client()
        page = client.get("/en/").content.decode()
        for name in ("css/bootstrap.css", "js/bootstrap-parts.js"):
            url = static(name)
            assert url.startswith(f"/static/{name.rsplit('.', 1)[0]}.")  # fingerprinted
            assert url in page
            response = client.get(url, HTTP_ACCEPT_ENCODING="gzip")
            assert response.status_code == 200
            assert response["Content-Encoding"] == "gzip"
            assert "immutable" in response["Cache-Control"]
        plain = client.get(static("css/bootstrap.css"))
        css = b"".join(plain.streaming_content).decode("utf-8-sig")  # type: ignore[attr-defined]
        classes = selector_classes(css)
        assert "navbar-toggler" in classes
        assert "carousel" not in classes
        assert "sourceMappingURL" not in css


def test_the_stylesheet_has_what_the_pages_use_and_not_the_dropped_components(
        built_css: str) -> None:
    classes = selector_classes(built_css)
    assert set(USED) <= classes, sorted(set(USED) - classes)
    leading = leading_classes(built_css)
    assert set(USED) - {"is-invalid", "invalid-feedback"} <= leading  # the scan sees rules
    kept = [name for name in DROPPED if name in leading]
    assert kept == [], kept
    assert not re.search(r"(?:^|[{},])\[data-bs-theme=dark\]", built_css)  # no dark mode
    assert "sourceMappingURL" not in built_css
    assert "\n" not in built_css.strip()  # compressed


def test_every_bootstrap_class_the_code_uses_is_in_the_built_stylesheet(built_css: str) -> None:
    """A template (or widget, or script) that starts using a Bootstrap class the build left
    out fails here: add the component's @import or the utility's value to the scss."""
    bootstrap = selector_classes(NPM_BOOTSTRAP_CSS.read_text(encoding="utf-8"))
    used = classes_in_the_code() & bootstrap
    assert len(used) > 100  # the scan sees the templates
    missing = sorted(used - selector_classes(built_css))
    assert missing == [], f"add these to static/src/scss/bootstrap.scss: {missing}"


def test_the_script_holds_collapse_without_popper() -> None:
    path = finders.find("js/bootstrap-parts.js")
    assert path, "static/js/bootstrap-parts.js is not built: run `make install` (npm run build:js)"
    script = Path(path).read_text(encoding="utf-8")
    assert "bs.collapse" in script
    for plugin in ("bs.dropdown", "bs.modal", "bs.tooltip", "bs.carousel", "popper"):
        assert plugin not in script.lower(), plugin


@pytest.mark.django_db
@pytest.mark.parametrize("path", ["/en/", "/en/practice/", "/en/does-not-exist/"])
def test_pages_link_no_bootstrap_file_from_the_npm_package(client: Client, path: str) -> None:
    html = client.get(path).content.decode()
    assert 'href="/static/css/bootstrap.css"' in html
    assert "vendor/bootstrap" not in html
    assert "bootstrap.min.css" not in html and "bootstrap.bundle" not in html


def test_base_template_links_the_built_files_only() -> None:
    base = (BASE_DIR / "templates" / "base.html").read_text(encoding="utf-8")
    assert "{% static 'css/bootstrap.css' %}" in base
    assert "{% static 'js/bootstrap-parts.js' %}" in base
    assert "vendor/bootstrap" not in base and "node_modules" not in base
    assert not finders.find("vendor/bootstrap/css/bootstrap.min.css")
