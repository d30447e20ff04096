"""The rules app's command line: verify_game, play_game, bench_engine.

Each command runs as ``manage.py`` runs it (``run_from_argv``: the arguments parsed from
the command line, an error printed to standard error, the exit status), in this process:
a ``manage.py`` process spends two seconds of a core starting Django before the command
begins. One test reads standard input in a real ``manage.py`` process."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from contextlib import redirect_stderr, redirect_stdout
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import get_commands, load_command_class

from ..services import shared_file

ROOT = Path(__file__).resolve().parents[2]


def manage(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    """``manage.py *args`` with ``stdin``: its exit status and what it wrote."""
    out, err = io.StringIO(), io.StringIO()
    saved = sys.stdin
    sys.stdin = io.TextIOWrapper(io.BytesIO((stdin or "").encode()))
    try:
        with redirect_stdout(out), redirect_stderr(err):  # before the command takes them
            command = load_command_class(get_commands()[args[0]], args[0])
            command.run_from_argv(["manage.py", *args])
        status = 0
    except SystemExit as exit:  # as the interpreter ends: a message is printed, status 1
        if exit.code is None or isinstance(exit.code, int):
            status = exit.code or 0
        else:
            err.write(f"{exit.code}\n")
            status = 1
    finally:
        sys.stdin = saved
    return subprocess.CompletedProcess(["manage.py", *args], status, out.getvalue(),
                                       err.getvalue())


def manage_process(*args: str, stdin: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "manage.py", *args], cwd=ROOT, input=stdin,
                          capture_output=True, text=True, timeout=120)


def test_it_prints_a_complete_verdict_and_exits_0(tmp_path: Path) -> None:
    out = tmp_path / "game.json"
    played = manage("play_game", "--seed", "7", "--bots", "random,random,random,random",
                    "--out", str(out))
    assert played.returncode == 0, played.stderr
    claimed = json.loads(out.read_text())["result"]

    checked = manage("verify_game", str(out))

    assert checked.returncode == 0, checked.stderr
    verdict = json.loads(checked.stdout)
    assert verdict["status"] == "complete"
    assert verdict["totals"] == claimed["totals"]
    assert [h["scores"] for h in verdict["hands"]] == claimed["hands"]
    assert verdict["winner"] in (0, 1, None)
    assert "error" not in verdict


def test_it_reads_standard_input_and_exits_2_for_malformed_json() -> None:
    result = manage_process("verify_game", "-", stdin='{"format": "push-record/1", ')
    assert result.returncode == 2
    verdict = json.loads(result.stdout)
    assert verdict["status"] == "malformed"
    assert "not JSON" in verdict["error"]["reason"]
    assert "Traceback" not in result.stderr


def test_it_names_the_place_of_a_bad_card_code() -> None:
    record = {"format": "push-record/1", "first_dealer": 0,
              "hands": [{"deck": ["ZZ"] + ["7H"] * 107, "actions": []}]}
    result = manage("verify_game", "-", stdin=json.dumps(record))
    assert result.returncode == 2
    assert "hands[0].deck[0]" in json.loads(result.stdout)["error"]["reason"]


def test_a_missing_file_is_reported_without_a_traceback() -> None:
    result = manage("verify_game", "/nonexistent/game.json")
    assert result.returncode == 2
    assert "cannot read" in json.loads(result.stdout)["error"]["reason"]
    assert "Traceback" not in result.stderr


def test_an_illegal_record_exits_1_with_hand_action_and_rule() -> None:
    record = shared_file("conformance", "contract-set-declared-as-run.json")
    result = manage("verify_game", str(record))
    assert result.returncode == 1
    error = json.loads(result.stdout)["error"]
    assert (error["hand"], error["action"]) == (1, 1)
    assert error["reason"].startswith("R")


def test_play_game_writes_the_record_to_standard_output_by_default() -> None:
    result = manage("play_game", "--seed", "1", "--bots", "random,random,random,random")
    assert result.returncode == 0, result.stderr
    record = json.loads(result.stdout)
    assert record["format"] == "push-record/1"
    assert len(record["hands"]) == 5


def test_play_game_rejects_an_unknown_bot_without_a_traceback() -> None:
    result = manage("play_game", "--bots", "random,nobody,random,random")
    assert result.returncode != 0
    assert "unknown bot 'nobody'" in result.stderr
    assert "Traceback" not in result.stderr


def test_bench_engine_prints_each_figure() -> None:
    result = manage("bench_engine", "--games", "2", "--greedy-games", "1", "--repeat", "2")
    assert result.returncode == 0, result.stderr
    assert "median of 2 runs" in result.stdout
    for label in ("random self-play:", "verification:", "greedy self-play:",
                  "live table replay:", "search bot (2 rollouts a decision):"):
        assert label in result.stdout
    assert "actions/s" in result.stdout


def test_bench_engine_anchor_without_openspiel_says_how_to_get_it(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from django.core.management import CommandError, call_command

    from games.management.commands import bench_engine

    monkeypatch.setattr(bench_engine, "load_openspiel", lambda: None)
    with pytest.raises(CommandError, match=r"pip install -e '\.\[bench\]'"):
        call_command("bench_engine", "--anchor")


def test_bench_engine_anchor_ends_with_both_rates_and_both_ratios() -> None:
    pytest.importorskip("pyspiel")  # the optional [bench] extra
    result = manage("bench_engine", "--anchor", "--rounds", "2", "--games", "1",
                    "--openspiel-games", "2")
    assert result.returncode == 0, result.stderr
    last = result.stdout.strip().splitlines()[-4:]
    assert last[0].startswith("OpenSpiel gin rummy, uniformly random play: ")
    assert last[1].startswith("engine random self-play: ") and "verification: " in last[1]
    assert last[2].startswith("ratio random self-play / OpenSpiel: ")
    assert last[3].startswith("ratio verification / OpenSpiel: ")
    assert "round 2:" in result.stdout


def test_the_anchor_times_both_sides_by_the_clock_it_is_given() -> None:
    pyspiel = pytest.importorskip("pyspiel")
    from bench.anchor import anchor_rounds

    ticks = iter(range(1000))
    measured = anchor_rounds(pyspiel, 1, 1, 1, lambda line: None,
                             clock=lambda: float(next(ticks)))
    rates = [measured[0].openspiel, measured[0].self_play, measured[0].verification]
    assert [r.seconds for r in rates] == [1.0, 1.0, 1.0]  # one tick from start to end


def test_bench_engine_cpu_clock_times_the_anchor_by_the_threads_cpu_time(
        monkeypatch: pytest.MonkeyPatch) -> None:
    import time

    from django.core.management import call_command

    from games.management.commands import bench_engine

    clocks = []

    def rounds(*args: object) -> list[object]:
        clocks.append(args[-1])
        return []

    monkeypatch.setattr(bench_engine, "load_openspiel", lambda: object())
    monkeypatch.setattr(bench_engine, "anchor_rounds", rounds)
    monkeypatch.setattr(bench_engine, "anchor_lines", lambda measured: [])
    out = StringIO()
    call_command("bench_engine", "--anchor", "--cpu-clock", stdout=out)
    call_command("bench_engine", "--anchor", stdout=out)
    assert clocks == [time.thread_time, time.perf_counter]
    assert out.getvalue().count("timed by the thread's CPU time") == 1


def test_the_anchor_ratios_are_the_medians_of_each_rounds_own() -> None:
    from bench.anchor import Round, anchor_lines
    from bench.engine import Rate

    def round_of(anchor: float, play: float, check: float) -> Round:
        return Round(Rate("a", 1, int(anchor), 1.0), Rate("p", 1, int(play), 1.0),
                     Rate("v", 1, int(check), 1.0))

    # the slow second round halves every rate; its ratios stay those of the others
    lines = anchor_lines([round_of(1000, 1500, 4000), round_of(500, 750, 2000),
                          round_of(1000, 1000, 2000)])
    assert lines[0].startswith("OpenSpiel gin rummy, uniformly random play: 1,000 actions/s")
    assert "self-play: 1,000 actions/s; verification: 2,000 actions/s" in lines[1]
    assert lines[2] == "ratio random self-play / OpenSpiel: 1.50x (target 1.5x)"
    assert lines[3] == "ratio verification / OpenSpiel: 4.00x (target 4.0x)"
