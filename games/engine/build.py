"""Which build of the engine runs: the mypyc-compiled modules or the pure-Python ones.

``compile_engine.py`` (``make compile``) compiles ``games/engine`` and the bots that play
on it (``games/bots``) with mypyc in place, as one build: an extension module beside each
``.py`` file, which Python's import prefers to the source. The two packages are one build
because compiled code takes only the compiled engine's objects (a compiled bot refuses a
pure engine's card), and the bots' rollouts run on the engine. This module, imported by
the engine before any of its modules, decides which to use (``games.bots`` follows it,
``use_build_of``):

- ``PUSH_ENGINE_PURE=1`` (or ``true``, ``yes``) in the environment: the pure modules,
  whatever is compiled (the tests run both ways in CI, and a profile of the Python source
  needs them);
- compiled modules from other sources than those present (the source edited since, or
  another checkout): the pure modules, with a warning, so that a stale build never
  plays by old rules;
- otherwise the compiled modules if there are any, else the pure ones.

Never compiled itself (nor ``__init__``): it has to run before the choice is made.

The one module that reads the environment outside config/environment.py, where
``PUSH_ENGINE_PURE`` is declared: the engine imports nothing of the platform's (README
"Layout"), and runs without it (compile_engine.py, the bots' scripts). It reads a boolean
as config/environment.py does, and refuses any other value with the same sentence.
"""

from __future__ import annotations

import hashlib
import os
import sys
import warnings
from importlib.machinery import EXTENSION_SUFFIXES, SOURCE_SUFFIXES, FileFinder, SourceFileLoader
from pathlib import Path

PACKAGE_DIR = Path(__file__).resolve().parent
#: The packages of the build: the engine and its bots.
BUILD_DIRS = (PACKAGE_DIR, PACKAGE_DIR.parent / "bots")
#: The modules never compiled: they choose the build.
NOT_COMPILED = ("__init__.py", "build.py")
#: Written by compile_engine.py: the digest of the sources it compiled.
STAMP = PACKAGE_DIR / "compiled-sources.sha256"
PURE_VARIABLE = "PUSH_ENGINE_PURE"
TRUE, FALSE = ("1", "true", "yes"), ("0", "false", "no")


def compiled_sources() -> list[Path]:
    """The modules the compiled build is made of (the engine's, then the bots'), in a
    fixed order."""
    return [p for folder in BUILD_DIRS
            for p in sorted(folder.glob("*.py")) if p.name not in NOT_COMPILED]


def sources_digest() -> str:
    digest = hashlib.sha256()
    for path in compiled_sources():
        name = f"{path.parent.name}/{path.name}"
        digest.update(name.encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()


def extension_files() -> list[Path]:
    """The compiled modules present (the shared library of them all included)."""
    return sorted({p for folder in BUILD_DIRS for suffix in EXTENSION_SUFFIXES
                   for p in folder.glob(f"*{suffix}")})


def pure_asked_for() -> bool:
    """Whether PUSH_ENGINE_PURE asks for the pure modules; a value that is not a boolean stops
    the program, saying so."""
    raw = os.environ.get(PURE_VARIABLE, "")
    spelled = raw.strip().lower()
    if spelled and spelled not in TRUE + FALSE:
        raise SystemExit(f"{PURE_VARIABLE}={raw}: expected 1/0, true/false or yes/no")
    return spelled in TRUE


def use_pure_modules(package_path: list[str]) -> None:
    """Make the package's submodules import from their ``.py`` files (with their cached
    bytecode) only, by giving its directories a finder that knows no extension modules."""
    for entry in package_path:
        sys.path_importer_cache[entry] = FileFinder(entry, (SourceFileLoader, SOURCE_SUFFIXES))


def choose(package_path: list[str], stamp: Path = STAMP) -> tuple[str, str]:
    """Pick the build for the package at ``package_path`` (its ``__path__``) before any of
    its modules is imported: ``("compiled" | "pure", why)``; ``stamp`` holds the digest
    of the sources compiled."""
    if pure_asked_for():
        use_pure_modules(package_path)
        return "pure", f"{PURE_VARIABLE} is set"
    if not extension_files():
        return "pure", "not compiled (make compile, or python compile_engine.py)"
    built = stamp.read_text().strip() if stamp.exists() else ""
    if built != sources_digest():
        use_pure_modules(package_path)
        why = "the compiled modules are of other sources than these: run make compile"
        warnings.warn(f"games.engine runs as pure Python: {why}", RuntimeWarning, stacklevel=3)
        return "pure", why
    return "compiled", "mypyc"


def use_build_of(build_in_use: str, package_path: list[str]) -> None:
    """Make another package of the build (``games.bots``) import from the build the
    engine chose (``build_in_use``): its pure modules when the engine runs pure."""
    if build_in_use == "pure":
        use_pure_modules(package_path)
