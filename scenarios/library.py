"""Reading and writing the library of scenario files (scenarios/library/**/*.yaml)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

from engine import MAX_DOCUMENT_BYTES, ReadError, Syntax, read_bytes

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


def read_source(path: Path) -> bytes:
    """A scenario file's bytes: never more than the size limit (and one byte, to tell)."""
    try:
        with path.open("rb") as file:
            return file.read(MAX_DOCUMENT_BYTES + 1)
    except OSError as err:
        raise LibraryFileError(f"can't read the file ({err.strerror})") from None


def read_document(path: Path, source: bytes | None = None) -> Any:
    """A scenario file's document, through the engine's one safe, size-limited reader;
    ``source``: the file's bytes, when they were read already (:func:`read_source`)."""
    data = read_source(path) if source is None else source
    syntax: Syntax = "json" if path.name.lower().endswith(".json") else "yaml"
    try:
        return read_bytes(data, syntax=syntax).document
    except ReadError as err:
        raise LibraryFileError(err.located()) from None


class _Dumper(yaml.SafeDumper):
    pass


def _str_presenter(dumper: yaml.SafeDumper, data: str) -> yaml.ScalarNode:
    style = "|" if "\n" in data else None
    return dumper.represent_scalar("tag:yaml.org,2002:str", data, style=style)


_Dumper.add_representer(str, _str_presenter)


def dump_document(document: Any) -> str:
    return yaml.dump(document, Dumper=_Dumper, allow_unicode=True, sort_keys=False,
                     width=100)
