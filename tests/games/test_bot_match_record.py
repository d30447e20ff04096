"""``bot_match --record``: a strength run that stops goes on where it stopped, and gives
what one run straight through gives."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command

from games.bots.match import match_bots
from games.bots.match_record import MatchRecord

HEADER = {"bot_a": "greedy", "bot_b": "random", "seed": 5, "budget": None, "cpu_clock": False}


def run(path: Path, games: int, seed: int = 5) -> str:
    out = io.StringIO()
    call_command("bot_match", "greedy", "random", "--games", str(games), "--seed", str(seed),
                 "--duplicate", "--record", str(path), stdout=out)
    return out.getvalue()


def pairs_in(path: Path) -> list[dict[str, object]]:
    first, *rest = path.read_text().splitlines()
    assert json.loads(first) == HEADER
    return [json.loads(line) for line in rest]


def test_a_run_resumed_from_its_record_is_the_run_straight_through(tmp_path: Path) -> None:
    record = tmp_path / "match.jsonl"
    run(record, 4)
    assert [p["pack_set"] for p in pairs_in(record)] == [0, 1]

    resumed = MatchRecord(record, HEADER).read()
    assert resumed is not None and resumed.games == 4
    whole = match_bots(bot_a="greedy", bot_b="random", games=8, seed=5)
    went_on = match_bots(bot_a="greedy", bot_b="random", games=8, seed=5, played=resumed)

    assert went_on.diffs == whole.diffs and went_on.hands == whole.hands
    assert went_on.scores_a == whole.scores_a and went_on.scores_b == whole.scores_b


def test_the_command_goes_on_after_the_recorded_pairs_and_reports_them_all(
        tmp_path: Path) -> None:
    record = tmp_path / "match.jsonl"
    run(record, 2)
    first = pairs_in(record)[0]

    text = run(record, 6)

    assert pairs_in(record)[0] == first  # not played again
    assert [p["pack_set"] for p in pairs_in(record)] == [0, 1, 2]
    assert "boards: 15 (each played at two tables)" in text
    assert untimed(text) == untimed(run(tmp_path / "straight.jsonl", 6))


def untimed(report: str) -> list[str]:
    """A report's lines but its wall times, which no two runs share."""
    return [line for line in report.splitlines() if not line.startswith("wall time")]


def test_a_last_line_cut_short_by_a_kill_is_dropped_and_played_again(tmp_path: Path) -> None:
    record = tmp_path / "match.jsonl"
    run(record, 4)
    whole = untimed_pairs(record)
    text = record.read_text()
    record.write_text(text[:text.rstrip("\n").rfind("\n") + 1] + '{"pack_set": 1, "diffs": [1')

    run(record, 4)

    assert record.read_text().endswith("}\n")
    assert untimed_pairs(record) == whole


def untimed_pairs(path: Path) -> list[dict[str, object]]:
    return [{k: v for k, v in pair.items() if k != "seconds"} for pair in pairs_in(path)]


@pytest.mark.parametrize(("text", "says"), [
    (json.dumps({**HEADER, "seed": 6}) + "\n", "line 1 is another match's record"),
    (json.dumps(HEADER) + "\nnot json\n", "line 2 is not JSON"),
    (json.dumps(HEADER) + '\n{"pack_set": 3}\n', "line 2 is pack set 3, expected 0"),
    (json.dumps(HEADER) + '\n{"pack_set": 0, "diffs": [1]}\n', "diffs holds 1 games"),
    (json.dumps(HEADER) + '\n{"pack_set": 0}\n', "line 2 is not a pack pair: KeyError"),
])
def test_a_record_that_is_not_this_match_is_refused_and_left_as_it_was(
        tmp_path: Path, text: str, says: str) -> None:
    record = tmp_path / "match.jsonl"
    record.write_text(text)

    with pytest.raises(CommandError, match=f"--record: .*{says}"):
        run(record, 2)

    assert record.read_text() == text


def test_played_games_of_another_match_are_refused() -> None:
    played = match_bots(bot_a="greedy", bot_b="random", games=2, seed=5)

    with pytest.raises(ValueError, match="greedy against random in 2 games, not whole pack "
                                         "pairs of random against greedy"):
        match_bots(bot_a="random", bot_b="greedy", games=4, seed=5, played=played)


def test_a_second_run_on_a_record_in_use_is_refused_and_changes_nothing(
        tmp_path: Path) -> None:
    record = tmp_path / "match.jsonl"
    run(record, 2)
    before = record.read_text()

    with MatchRecord(record, HEADER).held():  # the first run, still playing
        with pytest.raises(CommandError, match="is being written by another run"):
            run(record, 4)
        assert record.read_text() == before
    run(record, 4)  # once it has ended

    assert len(pairs_in(record)) == 2


def test_a_header_cut_short_by_a_kill_is_written_again(tmp_path: Path) -> None:
    record = tmp_path / "match.jsonl"
    record.write_text(json.dumps(HEADER)[:20])

    run(record, 2)

    assert len(pairs_in(record)) == 1  # and the header is whole again (pairs_in checks it)
