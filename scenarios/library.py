"""Reading and writing the library of scenario files (scenarios/library/**/*.yaml)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

from engine import load_document
from engine.errors import EngineError

LIBRARY = Path(__file__).with_name("library")


class LibraryFileError(Exception):
    pass


def library_files(paths: list[str] | None = None) -> list[Path]:
    if not paths:
        return sorted(LIBRARY.rglob("*.yaml"))
    out: list[Path] = []
    for raw in paths:
        p = Path(raw)
        if p.is_dir():
            out.extend(sorted(p.rglob("*.yaml")) + sorted(p.rglob("*.json")))
        else:
            out.append(p)
    return out


def read_document(path: Path) -> Any:
    """A scenario file's document (the engine's own safe, size-limited reader)."""
    try:
        return load_document(str(path))
    except EngineError as err:
        raise LibraryFileError(str(err).removeprefix(f"{path}: ")) from None


class _Dumper(yaml.SafeDumper):
    pass


def _str_presenter(dumper: yaml.SafeDumper, data: str) -> yaml.ScalarNode:
    style = "|" if "\n" in data else None
    return dumper.represent_scalar("tag:yaml.org,2002:str", data, style=style)


_Dumper.add_representer(str, _str_presenter)


def dump_document(document: Any) -> str:
    return yaml.dump(document, Dumper=_Dumper, allow_unicode=True, sort_keys=False,
                     width=100)
