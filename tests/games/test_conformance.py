"""Every recorded game in ../shared/conformance gets exactly its expected verdict.

The folder is read when the tests are collected, so a record added there is
tested on the next run without touching this file.
"""

import json
import re
from pathlib import Path
from typing import Any

import pytest

from games.engine import verify

from ..services import shared_file

CONFORMANCE = shared_file("conformance", module_level=True)

RECORDS = sorted(p for p in CONFORMANCE.glob("*.json") if not p.name.endswith(".expect.json"))
EXIT_CODES = {"complete": 0, "incomplete": 0, "illegal": 1, "malformed": 2}


def expectation(path: Path) -> dict[str, Any]:
    expected = path.with_name(path.name[: -len(".json")] + ".expect.json")
    assert expected.is_file(), f"{path.name} has no {expected.name}"
    data: dict[str, Any] = json.loads(expected.read_text(encoding="utf-8"))
    return data


def test_the_folder_holds_records() -> None:
    assert RECORDS, f"no *.json records in {CONFORMANCE}"


def test_every_expectation_has_its_record() -> None:
    for expected in CONFORMANCE.glob("*.expect.json"):
        assert expected.with_name(expected.name.replace(".expect.json", ".json")).is_file()


@pytest.mark.parametrize("path", RECORDS, ids=[p.stem for p in RECORDS])
def test_conformance_record(path: Path) -> None:
    expected = expectation(path)
    verdict = verify(path.read_text(encoding="utf-8"))
    got = verdict.to_json()

    assert verdict.status == expected["status"], got
    assert verdict.exit_code == EXIT_CODES[expected["status"]]
    if "totals" in expected:
        assert got["totals"] == expected["totals"]
    if "winner" in expected:
        assert got["winner"] == expected["winner"]
    if "hands" in expected:
        assert len(got["hands"]) == len(expected["hands"])
        for mine, theirs in zip(got["hands"], expected["hands"], strict=True):
            for key in ("hand", "ended_by", "out_seat", "scores"):
                if key in theirs:
                    assert mine[key] == theirs[key], (key, mine, theirs)
    if expected["status"] == "illegal":
        assert verdict.error is not None
        assert re.search(r"R\d\.\d", verdict.error.reason), verdict.error.reason
    if "error" in expected:
        for key in ("hand", "action"):
            if key in expected["error"]:
                assert got["error"][key] == expected["error"][key], got["error"]
    if expected["status"] == "malformed":
        assert verdict.reason
