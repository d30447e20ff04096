"""The manual's Python examples run as written and show what they say, and README.md's
links into the manual lead somewhere.

Every ```python block of a page of docs/ (and of README.md, if it has any) is a doctest
session (``>>>`` lines and the output they show); a page's blocks run in order in one
namespace, as a reader would type them, and each page starts afresh. A listing that is no
session is fenced ```py instead. mkdocs checks the links between the pages themselves
(``mkdocs build --strict`` in ``make lint``); README.md is no page of the site, so its
links are checked here.
"""

from __future__ import annotations

import doctest
import importlib.util
import re
from pathlib import Path
from types import ModuleType

import pytest
from markdown.extensions.toc import slugify

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
README = ROOT / "README.md"
PYTHON_BLOCK = re.compile(r"^```python\n(.*?)^```$", re.DOTALL | re.MULTILINE)
# [text](target): the target up to its closing parenthesis, text possibly over two lines
LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")
HEADING = re.compile(r"^#{1,6} (.+?)\s*$", re.MULTILINE)
# a rule's heading is anchored by its number (docs/hooks.py, as the site's /rules/ page)
RULE_NUMBER = re.compile(r"^R\d+\.\d+\b")


def _pages_with_python() -> list[Path]:
    pages = sorted(DOCS.rglob("*.md"))
    return [page for page in [*pages, README] if PYTHON_BLOCK.search(page.read_text("utf-8"))]


def test_some_page_of_the_manual_has_python_examples() -> None:
    pages = _pages_with_python()
    assert any(page.is_relative_to(DOCS) for page in pages), \
        "no page of docs/ has a ```python block"


@pytest.mark.parametrize("page", _pages_with_python(),
                         ids=lambda page: page.relative_to(ROOT).as_posix())
def test_the_pages_python_examples_print_what_it_says(page: Path) -> None:
    text = page.read_text(encoding="utf-8")
    name = page.relative_to(ROOT).as_posix()
    parser = doctest.DocTestParser()
    runner = doctest.DocTestRunner(optionflags=doctest.NORMALIZE_WHITESPACE)
    namespace: dict[str, object] = {}
    report: list[str] = []
    for block in PYTHON_BLOCK.finditer(text):
        line = text.count("\n", 0, block.start(1))
        test = parser.get_doctest(block.group(1), namespace, f"{name} line {line + 1}",
                                  str(page), line)
        assert test.examples, (f"{test.name}: a python block with no >>> examples "
                               "(fence a listing ```py)")
        runner.run(test, out=report.append, clear_globs=False)
        namespace = test.globs  # a doctest works on a copy; the next block goes on from it
    assert runner.failures == 0, "".join(report)


def _anchors(page: Path) -> set[str]:
    """The ids of a page's headings, as the manual's Markdown gives them."""
    anchors = set()
    for heading in HEADING.findall(page.read_text(encoding="utf-8")):
        rule = RULE_NUMBER.match(heading)
        anchors.add(rule.group(0) if rule else slugify(heading, "-"))
    return anchors


def _internal_links(text: str) -> list[str]:
    return [target for target in LINK.findall(text)
            if not re.match(r"^[a-z][a-z0-9+.-]*:", target)]  # http:, https:, mailto:


def test_every_link_of_the_readme_leads_to_a_page_of_the_manual() -> None:
    links = _internal_links(README.read_text(encoding="utf-8"))
    assert len(links) > 10, "README.md links no pages of the manual"
    broken = []
    for link in links:
        path, _, anchor = link.partition("#")
        target = (ROOT / path).resolve()
        if not (target.is_relative_to(DOCS) and target.suffix == ".md" and target.is_file()):
            broken.append(f"{link}: no page docs/... of that name")
        elif anchor and anchor not in _anchors(target):
            broken.append(f"{link}: {path} has no heading #{anchor}")
    assert broken == []


def test_the_link_check_finds_a_missing_page_and_a_missing_heading() -> None:
    links = _internal_links("[a](docs/nowhere.md) [b](https://example.org/) "
                            "[c](docs/getting-started.md#no-such-heading)")
    assert links == ["docs/nowhere.md", "docs/getting-started.md#no-such-heading"]
    assert not (ROOT / "docs/nowhere.md").exists()
    assert "no-such-heading" not in _anchors(DOCS / "getting-started.md")
    assert "the-demo" in _anchors(DOCS / "getting-started.md")
    assert "R6.4" in _anchors(DOCS / "rules.md")


def test_the_settings_page_takes_its_table_of_variables_from_the_code() -> None:
    """The manual's hooks put ``config.environment.markdown_table()`` where the settings page
    has its marker line, so the page lists every variable the code reads and no other; it
    lists none by hand, which could fall behind."""
    path = DOCS / "operating" / "settings.md"
    page = path.read_text(encoding="utf-8")
    hooks = _hooks()
    assert [line for line in page.splitlines() if hooks.ENVIRONMENT_MARKER in line] == [
        hooks.ENVIRONMENT_MARKER]
    assert not re.search(r"^\|", page, re.MULTILINE), "a table written by hand"

    environment = pytest.importorskip("config.environment",
                                      exc_type=ModuleNotFoundError)
    built = hooks.on_page_markdown(page, page=_Page("operating/settings.md"), config=None,
                                   files=None)
    assert hooks.ENVIRONMENT_MARKER not in built
    assert environment.markdown_table().strip() in built


def test_the_hooks_anchor_each_rule_by_its_number() -> None:
    built = _hooks().on_page_markdown("## 6. Your turn\n\n### R6.4 Pushing from a short stock\n",
                                      page=_Page("rules.md"), config=None, files=None)
    assert "### R6.4 Pushing from a short stock { #R6.4 }" in built
    assert "## 6. Your turn\n" in built


class _Page:
    def __init__(self, src_uri: str) -> None:
        self.file = type("File", (), {"src_uri": src_uri})()


def _hooks() -> ModuleType:
    spec = importlib.util.spec_from_file_location("docs_hooks", DOCS / "hooks.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module
