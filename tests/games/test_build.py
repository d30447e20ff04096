"""Which build of the engine runs (games/engine/build.py): the mypyc-compiled modules or the
pure-Python ones. ``make test`` runs the engine's tests on both; CI sets
``PUSH_ENGINE_EXPECT=compiled`` so that a compile that silently failed fails here."""

from __future__ import annotations

import os
import subprocess
import sys
from importlib.machinery import EXTENSION_SUFFIXES
from pathlib import Path

import pytest

import games.bots
import games.engine
from config.environment import read
from games.bots import greedy, playout, search
from games.engine import BUILD, BUILD_REASON, build, cards, state, ways

ROOT = Path(__file__).resolve().parents[2]
#: Modules of the engine and of its bots: one build (compiled bots take only a compiled
#: engine's objects).
BUILD_MODULES = (cards, state, ways, greedy, playout, search)


def _compiled(module: object) -> bool:
    return str(getattr(module, "__file__", "")).endswith(tuple(EXTENSION_SUFFIXES))


def test_the_build_in_use_is_the_one_its_modules_come_from() -> None:
    print(f"games.engine build: {BUILD} ({BUILD_REASON})")  # shown with -s, or on failure
    assert BUILD in ("compiled", "pure")
    assert [_compiled(m) for m in BUILD_MODULES] == [BUILD == "compiled"] * 6, BUILD_REASON
    # they choose the build
    assert not _compiled(games.engine) and not _compiled(build) and not _compiled(games.bots)


def test_the_build_is_the_one_the_environment_asks_for() -> None:
    if read().PUSH_ENGINE_PURE:
        assert BUILD == "pure", BUILD_REASON
    elif read().PUSH_ENGINE_EXPECT:
        assert BUILD == read().PUSH_ENGINE_EXPECT, \
            f"the {read().PUSH_ENGINE_EXPECT} engine was expected: {BUILD_REASON}"
    else:
        assert ("compiled" if build.extension_files() else "pure") == BUILD, BUILD_REASON


def _build_of_a_fresh_process(**env: str) -> str:
    code = ("import games.bots.search as s, games.engine as e; "
            "print(e.BUILD, e.state.__file__.endswith('.py'), s.__file__.endswith('.py'))")
    done = subprocess.run([sys.executable, "-W", "ignore", "-c", code], cwd=ROOT,
                          env={**os.environ, **env}, capture_output=True, text=True,
                          timeout=60, check=True)
    return done.stdout.strip()


def test_the_pure_modules_run_when_asked_even_where_compiled() -> None:
    assert _build_of_a_fresh_process(**{build.PURE_VARIABLE: "1"}) == "pure True True"
    expected = "compiled False False" if build.extension_files() else "pure True True"
    assert _build_of_a_fresh_process(**{build.PURE_VARIABLE: "0"}) == expected


def test_compiled_modules_of_other_sources_are_not_used(tmp_path: Path,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    # what keeps a stale build (the sources edited since) from playing by old rules
    monkeypatch.delenv(build.PURE_VARIABLE, raising=False)
    stamp = tmp_path / "stamp"
    stamp.write_text("0" * 64 + "\n")
    package = str(tmp_path)  # the finder it installs is for this directory only
    if build.extension_files():
        with pytest.warns(RuntimeWarning, match="make compile"):
            assert build.choose([package], stamp)[0] == "pure"
        stamp.write_text(build.sources_digest() + "\n")
        assert build.choose([package], stamp) == ("compiled", "mypyc")
    else:
        assert build.choose([package], stamp)[0] == "pure"
    names = [f"{p.parent.name}/{p.name}" for p in build.compiled_sources()]
    assert {"engine/state.py", "bots/search.py"} <= set(names)
    assert not any(n.endswith(("/__init__.py", "/build.py")) for n in names)
