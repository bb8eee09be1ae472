"""Every interface language's catalogue (locale/<locale>/) is complete and up to date."""

import os
import shutil
import subprocess
import sys
from pathlib import Path

import polib
import pytest
from django.conf import settings
from django.utils.translation import to_locale

BASE_DIR = Path(settings.BASE_DIR)
# The catalogues' directories: locale/it, locale/pt_BR (a language code's locale name)
LANGUAGES = [to_locale(code) for code, _name in settings.LANGUAGES
             if code != settings.LANGUAGE_CODE]
# Everything that can hold interface strings; tests, .venv and node_modules are not copied.
SOURCES = ("manage.py", "config", "quiz", "scenarios", "engine", "templates", "locale")


def catalogue(language: str) -> polib.POFile:
    return polib.pofile(str(BASE_DIR / "locale" / language / "LC_MESSAGES" / "django.po"))


def test_every_interface_language_has_a_catalogue():
    for language in LANGUAGES:
        assert (BASE_DIR / "locale" / language / "LC_MESSAGES" / "django.po").is_file()


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_entry_is_translated_and_not_fuzzy(language):
    po = catalogue(language)
    assert len(po) > 0
    assert po.metadata.get("Language") == language
    assert not po.untranslated_entries()
    assert not po.fuzzy_entries()


@pytest.mark.parametrize("language", LANGUAGES)
def test_placeholders_survive_translation(language):
    for entry in catalogue(language).translated_entries():
        for placeholder in ("%(username)s", "%(minutes)s", "{{", "}}"):
            assert entry.msgid.count(placeholder) == entry.msgstr.count(placeholder), entry.msgid


def test_catalogues_cover_every_marked_string(tmp_path):
    """Run makemessages on a temporary copy of the sources; nothing may be new."""
    if shutil.which("xgettext") is None or shutil.which("msgmerge") is None:
        if os.environ.get("CI"):
            pytest.fail("GNU gettext (xgettext, msgmerge) is required in CI")
        pytest.skip("GNU gettext (xgettext) is not installed")

    copy = tmp_path / "project"
    copy.mkdir()
    for name in SOURCES:
        source = BASE_DIR / name
        if source.is_dir():
            shutil.copytree(
                source, copy / name, ignore=shutil.ignore_patterns("__pycache__", "*.mo")
            )
        elif source.exists():
            shutil.copy2(source, copy / name)
    before = {
        language: (BASE_DIR / "locale" / language / "LC_MESSAGES" / "django.po").read_bytes()
        for language in LANGUAGES
    }

    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings.test"}
    env.pop("DATABASE_URL", None)
    result = subprocess.run(
        [sys.executable, "manage.py", "makemessages", "--no-obsolete", "--add-location=file"]
        + [f"--locale={language}" for language in LANGUAGES],
        cwd=copy,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert result.returncode == 0, result.stderr

    for language in LANGUAGES:
        committed = {entry.msgid for entry in catalogue(language)}
        extracted = polib.pofile(str(copy / "locale" / language / "LC_MESSAGES" / "django.po"))
        missing = {entry.msgid for entry in extracted} - committed
        assert not missing, f"run `make makemessages` and translate for {language}: {missing}"
        # The repository's own catalogue was not touched.
        path = BASE_DIR / "locale" / language / "LC_MESSAGES" / "django.po"
        assert path.read_bytes() == before[language]
