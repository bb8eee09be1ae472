"""The engine is pure Python: what import-linter cannot see.

The import-linter contracts in pyproject.toml (`make lint`) check every `import` statement.
They don't see imports by name at run time (`importlib.import_module("django.db")`), so
this test looks for those in the engine.
"""

import ast
import tomllib
from pathlib import Path

import pytest
from django.conf import settings

ENGINE_DIR = Path(settings.BASE_DIR) / "engine"
FORBIDDEN = {"django", "quiz", "scenarios", "config"}
DYNAMIC_IMPORTERS = {"import_module", "__import__"}


def dynamically_imported_top_level_names(tree: ast.AST) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute | ast.Name)
            and getattr(node.func, "attr", getattr(node.func, "id", None)) in DYNAMIC_IMPORTERS
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
def test_engine_module_imports_no_django_or_app_code_by_name(path):
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    assert not dynamically_imported_top_level_names(tree) & FORBIDDEN


def test_the_import_checker_catches_imports_by_name():
    tree = ast.parse(
        "import importlib\nimportlib.import_module('scenarios.models')\n"
        "from importlib import import_module\nimport_module('django.db')\n"
        "__import__('quiz.models')\n"
    )
    assert dynamically_imported_top_level_names(tree) >= {"django", "quiz", "scenarios"}


def test_import_linter_guards_the_engine():
    """The static half lives in pyproject.toml: make sure it stays there."""
    config = tomllib.loads((Path(settings.BASE_DIR) / "pyproject.toml").read_text("utf-8"))
    contracts = {c["id"]: c for c in config["tool"]["importlinter"]["contracts"]}
    assert set(contracts["engine-pure"]["source_modules"]) == {"engine"}
    assert set(contracts["engine-pure"]["forbidden_modules"]) >= FORBIDDEN
    assert contracts["layers"]["layers"] == ["quiz", "scenarios", "engine"]
    assert contracts["engine-front-door"]["protected_modules"] == ["engine.**"]
