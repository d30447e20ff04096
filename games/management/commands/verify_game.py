"""``manage.py verify_game FILE``: replay a push-record/1 game and print the verdict as JSON.

Exit status: 0 complete or incomplete, 1 illegal, 2 malformed (push-record.md).
"""

from __future__ import annotations

import json
import sys
from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from games.engine import Verdict, verify


class Command(BaseCommand):
    help = "Verify a push-record/1 game record (FILE, or - for standard input)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", help="the record's path, or - to read standard input")

    def handle(self, *args: Any, **options: Any) -> None:
        verdict = verify_source(options["file"])
        self.stdout.write(json.dumps(verdict.to_json()))
        if verdict.exit_code:
            sys.exit(verdict.exit_code)


def verify_source(path: str) -> Verdict:
    """The verdict for a file or standard input; an unreadable file is malformed input."""
    try:
        if path == "-":
            data = sys.stdin.buffer.read()
        else:
            with open(path, "rb") as f:
                data = f.read()
    except OSError as exc:
        return Verdict("malformed", reason=f"cannot read {path}: {exc.strerror}")
    return verify(data)
