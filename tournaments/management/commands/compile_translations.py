"""Compile the project's .po translations into .mo files with polib: pure Python, so a fresh
machine needs no GNU gettext (``msgfmt``), unlike Django's ``compilemessages``."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import polib
from django.conf import settings
from django.core.management.base import BaseCommand, CommandError


def po_files() -> list[Path]:
    """Every ``.po`` under the project's LOCALE_PATHS."""
    return sorted(po for base in settings.LOCALE_PATHS for po in Path(base).rglob("*.po"))


def compile_po(po_path: Path, *, force: bool = False) -> bool:
    """Write ``po_path``'s .mo next to it unless it is newer than the .po already.
    Returns whether it was written. Fuzzy and untranslated entries are left out, as msgfmt
    does. CommandError names the file when the .po cannot be read."""
    mo_path = po_path.with_suffix(".mo")
    if not force and mo_path.exists() and mo_path.stat().st_mtime >= po_path.stat().st_mtime:
        return False
    try:
        catalog = polib.pofile(str(po_path), check_for_duplicates=True)
    except (OSError, ValueError) as exc:
        raise CommandError(f"{po_path}: {exc}") from None
    # Write beside it and rename: a test process reading the .mo never sees half a file.
    partial = mo_path.with_name(f".{mo_path.name}.{os.getpid()}")
    catalog.save_as_mofile(str(partial))
    os.replace(partial, mo_path)
    return True


class Command(BaseCommand):
    help = "Compile locale/*/LC_MESSAGES/*.po into .mo files (with polib; no msgfmt needed)."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--force", action="store_true",
                            help="compile even when the .mo is newer than the .po")

    def handle(self, *args: Any, force: bool = False, **options: Any) -> None:
        files = po_files()
        written = [po for po in files if compile_po(po, force=force)]
        for po in written:
            self.stdout.write(f"compiled {po.with_suffix('.mo')}")
        self.stdout.write(f"{len(written)} of {len(files)} translation file(s) compiled; "
                          "the others were up to date.")
