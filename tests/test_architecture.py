"""The engine is pure Python: it imports nothing from Django or the web apps."""

import ast
from pathlib import Path

import pytest
from django.conf import settings

ENGINE_DIR = Path(settings.BASE_DIR) / "engine"
FORBIDDEN = {"django", "quiz", "scenarios", "config"}


def imported_top_level_names(tree: ast.AST) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module.split(".")[0])
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute | ast.Name)
            and getattr(node.func, "attr", getattr(node.func, "id", None)) == "import_module"
            and node.args
            and isinstance(node.args[0], ast.Constant)
            and isinstance(node.args[0].value, str)
        ):
            names.add(node.args[0].value.split(".")[0])
    return names


ENGINE_MODULES = sorted(ENGINE_DIR.rglob("*.py"))


@pytest.mark.parametrize(
    "path", ENGINE_MODULES, ids=[str(p.relative_to(ENGINE_DIR)) for p in ENGINE_MODULES]
)
def test_engine_module_imports_no_django_or_app_code(path):
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    assert not imported_top_level_names(tree) & FORBIDDEN


def test_the_import_checker_catches_forbidden_imports():
    tree = ast.parse(
        "import django.db\nfrom quiz import models\nimport importlib\n"
        "importlib.import_module('scenarios.models')\n"
    )
    assert imported_top_level_names(tree) >= {"django", "quiz", "scenarios"}
