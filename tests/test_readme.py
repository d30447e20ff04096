"""The README's Python examples run as written and show what they say.

Every ```python block of README.md is a doctest session (``>>>`` lines and the output
they show); the blocks run in order in one namespace, as a reader would type them."""

from __future__ import annotations

import doctest
import re
from pathlib import Path

README = Path(__file__).resolve().parents[1] / "README.md"
PYTHON_BLOCK = re.compile(r"^```python\n(.*?)^```$", re.DOTALL | re.MULTILINE)


def test_the_readmes_python_examples_print_what_it_says() -> None:
    text = README.read_text(encoding="utf-8")
    blocks = list(PYTHON_BLOCK.finditer(text))
    assert blocks, "README.md has no ```python block"
    parser = doctest.DocTestParser()
    runner = doctest.DocTestRunner(optionflags=doctest.NORMALIZE_WHITESPACE)
    namespace: dict[str, object] = {}
    report: list[str] = []
    for block in blocks:
        line = text.count("\n", 0, block.start(1))
        test = parser.get_doctest(block.group(1), namespace, f"README.md line {line + 1}",
                                  str(README), line)
        assert test.examples, f"{test.name}: a python block with no >>> examples"
        runner.run(test, out=report.append, clear_globs=False)
        namespace = test.globs  # a doctest works on a copy; the next block goes on from it
    assert runner.failures == 0, "".join(report)
