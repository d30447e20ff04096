"""A bot match's record on disk, so that a strength run that stops (the machine restarts,
the session ends) goes on where it stopped instead of starting again.

A strength run of the expert bot is hours of CPU time (``docs/operating/speed.md``), more
than one sitting. The record is JSON lines: the first line names the match (the bots, the
seed, the budget and its clock), every further line is one pack pair as it finished (its
two games' differences, scores and hand scores, and the seconds it took). A line is
written whole and flushed to disk before the next pack pair starts, so a run killed part
way loses at most the pack pair it was playing; a last line cut short by the kill is
dropped when the record is read back. One run at a time writes a record: a second run on
the same file is refused while the first holds it (``held``), as its reading could cut
off the line the first is writing.
"""

from __future__ import annotations

import fcntl
import json
import os
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .match import MatchResult


class RecordError(ValueError):
    """A record that is not this match's, or not a record at all; says which line."""


@dataclass(frozen=True, slots=True)
class MatchRecord:
    """The record file at ``path`` of the match ``header`` names."""

    path: Path
    header: dict[str, Any]

    @contextmanager
    def held(self) -> Iterator[None]:
        """The file for this run alone while the block lasts (an advisory lock, released
        when the run ends, however it ends). RecordError when another run holds it."""
        with self.path.open("a", encoding="utf-8") as handle:
            try:
                fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                raise RecordError(f"{self.path} is being written by another run: wait for "
                                  "it to end, or read a copy") from None
            yield

    def read(self) -> MatchResult | None:
        """The pack pairs the file holds, as one result (None when it has none). Creates the
        file with its header when it is missing or empty. RecordError when its header is
        another match's, or a line is not a pack pair; a last line without its newline (the
        run was killed while writing it) is cut off."""
        text = self.path.read_text(encoding="utf-8") if self.path.exists() else ""
        if not text.endswith("\n"):
            text = text[:text.rfind("\n") + 1]  # empty when the header itself was cut
            self._write(text, mode="w")
        if not text:
            self._write(json.dumps(self.header) + "\n", mode="w")
            return None
        first, *pairs = text.splitlines()
        if self._parse(first, 1) != self.header:
            raise RecordError(f"{self.path} line 1 is another match's record: "
                              f"{first}; this run is {json.dumps(self.header)}")
        if not pairs:
            return None
        fields: dict[str, list[Any]] = {"diffs": [], "scores_a": [], "scores_b": [], "hands": []}
        seconds = 0.0
        for number, line in enumerate(pairs, start=2):
            pair = self._parse(line, number)
            try:
                if pair["pack_set"] != number - 2:
                    raise RecordError(f"{self.path} line {number} is pack set "
                                      f"{pair['pack_set']}, expected {number - 2}")
                for name, values in fields.items():
                    if len(pair[name]) != 2:
                        raise RecordError(f"{self.path} line {number}: {name} holds "
                                          f"{len(pair[name])} games, not a pair's 2")
                    values.extend(pair[name])
                seconds += float(pair["seconds"])
            except (KeyError, TypeError) as error:
                raise RecordError(f"{self.path} line {number} is not a pack pair: "
                                  f"{error!r}") from error
        return MatchResult(
            self.header["bot_a"], self.header["bot_b"], tuple(fields["diffs"]),
            tuple(fields["scores_a"]), tuple(fields["scores_b"]),
            tuple(tuple(tuple(scores) for scores in game) for game in fields["hands"]),
            seconds)

    def append(self, result: MatchResult, seconds: float) -> None:
        """Write ``result``'s last pack pair, which took ``seconds``."""
        k = result.games // 2 - 1
        games = slice(2 * k, 2 * k + 2)
        self._write(json.dumps({
            "pack_set": k, "diffs": result.diffs[games], "scores_a": result.scores_a[games],
            "scores_b": result.scores_b[games], "hands": result.hands[games],
            "seconds": round(seconds, 3)}) + "\n", mode="a")

    def _parse(self, line: str, number: int) -> Any:
        try:
            return json.loads(line)
        except json.JSONDecodeError as error:
            raise RecordError(f"{self.path} line {number} is not JSON: {error}") from error

    def _write(self, text: str, mode: str) -> None:
        with self.path.open(mode, encoding="utf-8") as out:
            out.write(text)
            out.flush()
            os.fsync(out.fileno())
