"""The mutation score of each module mutmut mutated (`make mutation`), from the results it
keeps in mutants/ (a ``.meta`` file beside each mutated module).

    python tests/mutation_score.py [PREFIX ...]

PREFIX narrows the table to modules whose path starts with it (tournaments/formats). The
score is killed / tested: a mutant that timed out counts as killed (the tests noticed it
ran forever), one not yet run is left out of "tested" and shown in its own column, so a
run stopped halfway reports the part done. "no tests" mutants (no selected test reaches
their function) count against the score: nothing pins them.
"""

from __future__ import annotations

import json
import sys
from collections import Counter
from pathlib import Path

from mutmut.stats import status_by_exit_code

MUTANTS = Path("mutants")
KILLED = ("killed", "timeout", "caught by type check")
COLUMNS = ("killed", "survived", "no tests", "other", "not checked")


def statuses(meta: Path) -> Counter[str]:
    exit_codes = json.loads(meta.read_text())["exit_code_by_key"]
    counts: Counter[str] = Counter()
    for code in exit_codes.values():
        status = status_by_exit_code[code]
        if status in KILLED:
            counts["killed"] += 1
        elif status in ("survived", "no tests", "not checked"):
            counts[status] += 1
        elif status != "skipped":
            counts["other"] += 1  # suspicious, segfault, interrupted
    return counts


def module_of(meta: Path) -> str:
    return meta.relative_to(MUTANTS).as_posix().removesuffix(".meta")


def row(name: str, counts: Counter[str]) -> str:
    tested = sum(counts[c] for c in COLUMNS if c != "not checked")
    score = f"{100 * counts['killed'] / tested:5.1f}%" if tested else "    -"
    cells = "".join(f"{counts[c]:>12}" for c in COLUMNS)
    return f"{name:<44}{cells}{tested:>8}  {score}"


def main(prefixes: list[str]) -> int:
    metas = sorted(MUTANTS.rglob("*.py.meta"))
    if not metas:
        print("no results in mutants/: run `make mutation` first", file=sys.stderr)
        return 1
    print(f"{'module':<44}" + "".join(f"{c:>12}" for c in COLUMNS) + f"{'tested':>8}  score")
    packages: dict[str, Counter[str]] = {}
    total: Counter[str] = Counter()
    for meta in metas:
        module = module_of(meta)
        if prefixes and not any(module.startswith(p) for p in prefixes):
            continue
        counts = statuses(meta)
        if not sum(counts.values()):
            continue
        print(row(module, counts))
        packages.setdefault(str(Path(module).parent), Counter()).update(counts)
        total.update(counts)
    print()
    for package, counts in sorted(packages.items()):
        print(row(package + "/", counts))
    print(row("all", total))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
