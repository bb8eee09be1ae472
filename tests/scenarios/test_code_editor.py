"""The YAML code editor's server side: the preview marks each problem with its line for the
editor's markers, the script (and a CSP nonce for its styles) reaches the YAML editor pages
only, and the completion logic in static/src passes its Node unit tests."""

from __future__ import annotations

import os
import re
import shutil
import subprocess

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse

from scenarios import editing
from tests.factories import InstructorFactory, ScenarioFactory

pytestmark = pytest.mark.django_db

BUNDLE = "js/yaml-editor.js"
NODE_TESTS = settings.BASE_DIR / "tests" / "scenarios" / "js"


@pytest.fixture
def instructor_client() -> Client:
    client = Client()
    client.force_login(InstructorFactory())
    return client


def _preview(client: Client, source: str) -> str:
    response = client.post(reverse("scenarios:preview"), {"source": source})
    assert response.status_code == 200
    return response.content.decode()


def test_preview_marks_each_error_with_its_line(instructor_client: Client) -> None:
    source = editing.NEW_DOCUMENT.replace("difficulty: 2", "difficulty: 9")
    html = _preview(instructor_client, source)
    line = source.splitlines().index("difficulty: 9") + 1
    assert re.search(rf'<li data-line="{line}" data-severity="error">', html), html


def test_preview_marks_each_warning_with_its_line(instructor_client: Client) -> None:
    source = editing.NEW_DOCUMENT.replace(
        "topic: trample-into-planeswalkers",
        "topic: trample-into-planeswalkers\neras: [fdn-2024]").replace(
        "expect: 20", "expect: {fdn-2024: 20, lrw-2007: 20}")
    html = _preview(instructor_client, source)
    line = next(n for n, text in enumerate(source.splitlines(), 1) if "expect:" in text)
    assert re.search(rf'<li data-line="{line}" data-severity="warning">', html), html


def test_a_syntax_error_is_marked_at_its_line(instructor_client: Client) -> None:
    html = _preview(instructor_client, "format: 1\nid: x\n  bad: [\n")
    assert re.search(r'<li data-line="\d+" data-severity="error">', html), html


@pytest.mark.parametrize("url", [reverse("scenarios:new"), "edit"])
def test_yaml_editor_pages_load_the_editor_with_a_style_nonce(
        instructor_client: Client, url: str) -> None:
    if url == "edit":
        url = reverse("scenarios:edit", args=[ScenarioFactory(slug="s1").slug])
    response = instructor_client.get(url)
    html = response.content.decode()
    match = re.search(r'<script src="[^"]*' + re.escape(BUNDLE) + r'" nonce="([^"]+)" defer>',
                      html)
    assert match, "the editor's script carries the request's nonce"
    policy = dict(part.strip().split(" ", 1)
                  for part in response["Content-Security-Policy"].split(";"))
    assert policy["style-src"] == f"'self' 'nonce-{match[1]}'"
    assert policy["script-src"] == "'self'"
    assert 'data-code-editor="yaml"' in html
    assert 'name="source"' in html  # the textarea is still the form field


@pytest.mark.parametrize("name", ["scenarios:author_home", "scenarios:form_new"])
def test_other_pages_have_neither_the_editor_nor_a_nonce(
        instructor_client: Client, name: str) -> None:
    response = instructor_client.get(reverse(name))
    assert response.status_code == 200
    assert BUNDLE not in response.content.decode()
    assert "nonce" not in response["Content-Security-Policy"]


def test_public_pages_keep_style_src_self_only(client: Client) -> None:
    response = client.get("/en/")
    assert "style-src 'self';" in response["Content-Security-Policy"] + ";"


def test_completion_logic_passes_its_node_tests() -> None:
    node = shutil.which("node")
    if node is None:
        if os.environ.get("CI"):
            pytest.fail("node is missing: install Node.js (apt-get install npm)")
        pytest.skip("node is missing")
    if not (settings.BASE_DIR / "node_modules" / "@codemirror" / "state").exists():
        pytest.fail("node_modules is incomplete: run `make install` (npm ci)")
    result = subprocess.run([node, "--test", str(NODE_TESTS)], cwd=settings.BASE_DIR,
                            capture_output=True, text=True, timeout=120, check=False)
    assert result.returncode == 0, result.stdout[-4000:] + result.stderr[-2000:]
