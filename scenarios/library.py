"""Reading and writing the library of scenario files (scenarios/library/**/*.yaml)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

from engine.__main__ import parse_text
from engine.errors import EngineError

LIBRARY = Path(__file__).with_name("library")
MAX_FILE_BYTES = 512 * 1024


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
    try:
        data = path.read_bytes()
    except OSError as err:
        raise LibraryFileError(f"can't read the file ({err.strerror})") from None
    if len(data) > MAX_FILE_BYTES:
        raise LibraryFileError(f"larger than {MAX_FILE_BYTES // 1024} KB")
    try:
        return parse_text(data.decode("utf-8"), path.name)
    except UnicodeDecodeError:
        raise LibraryFileError("not UTF-8 text") from None
    except EngineError as err:
        raise LibraryFileError(str(err)) from None


class _Dumper(yaml.SafeDumper):
    pass


def _str_presenter(dumper: yaml.SafeDumper, data: str) -> yaml.ScalarNode:
    style = "|" if "\n" in data else None
    return dumper.represent_scalar("tag:yaml.org,2002:str", data, style=style)


_Dumper.add_representer(str, _str_presenter)


def dump_document(document: Any) -> str:
    return yaml.dump(document, Dumper=_Dumper, allow_unicode=True, sort_keys=False,
                     width=100)
