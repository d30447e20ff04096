"""Compile the rules engine (``games/engine``) and its bots (``games/bots``) with mypyc, in
place, as one build: ``python compile_engine.py`` (``make compile``; ``--clean`` removes the
compiled modules instead).

Optional: without a C compiler, or without mypyc (it comes with mypy, a ``dev`` extra), it
says so and leaves the pure-Python modules to run, which behave the same (the tests run
on both builds), only slower. ``games/engine/build.py`` says which build a process uses.
"""

from __future__ import annotations

import os
import shutil
import sys
import sysconfig
from pathlib import Path

ROOT = Path(__file__).resolve().parent
sys.path.insert(0, str(ROOT))

from games.engine import build  # noqa: E402  (the path above first)

BUILD_DIR = ROOT / "build" / "mypyc"
NAME = "games.engine and games.bots"


def c_compiler() -> str | None:
    """The C compiler Python's extensions are built with, if it is installed."""
    configured = (sysconfig.get_config_var("CC") or "cc").split()[0]
    for name in (configured, "cc", "gcc", "clang"):
        if found := shutil.which(name):
            return found
    return None


def clean() -> None:
    for path in build.extension_files():
        path.unlink()
    build.STAMP.unlink(missing_ok=True)
    shutil.rmtree(BUILD_DIR, ignore_errors=True)


def main(argv: list[str]) -> int:
    if "--clean" in argv:
        clean()
        print(f"{NAME}: compiled modules removed; the pure-Python modules run")
        return 0
    compiler = c_compiler()
    if compiler is None:
        print(f"{NAME}: no C compiler found (cc, gcc or clang); not compiled, the "
              "pure-Python modules run (slower, the same rules)")
        return 0
    try:
        from mypyc.build import mypycify
        from setuptools import setup
    except ImportError as error:
        print(f"{NAME}: cannot compile without {error.name} (pip install -e '.[dev]'); "
              "the pure-Python modules run")
        return 0
    if build.STAMP.exists() and build.STAMP.read_text().strip() == build.sources_digest() \
            and build.extension_files():
        print(f"{NAME}: compiled modules up to date")
        return 0
    clean()
    os.chdir(ROOT)
    sources = [str(p.relative_to(ROOT)) for p in build.compiled_sources()]
    print(f"{NAME}: compiling {len(sources)} modules with mypyc ({compiler}); "
          "a minute or two")
    digest = build.sources_digest()
    try:
        setup(name="push-engine-compiled",
              ext_modules=mypycify(sources, opt_level="3", group_name="games.engine._compiled",
                                   target_dir=str(BUILD_DIR)),
              script_args=["--quiet", "build_ext", "--inplace", "--build-temp",
                           str(BUILD_DIR)])
    except (Exception, SystemExit) as error:  # distutils reports a compiler's failure so
        clean()  # no half of a build is left to be loaded
        print(f"{NAME}: compiling failed ({error}); the pure-Python modules run")
        return 0
    build.STAMP.write_text(digest + "\n")
    print(f"{NAME}: compiled ({len(build.extension_files())} extension modules)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
