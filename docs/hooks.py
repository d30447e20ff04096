"""MkDocs hooks of the manual (registered under ``hooks:`` in mkdocs.yml).

- Before each build, the API's OpenAPI schema is written to ``build/docs/openapi.yaml``
  by ``manage.py spectacular`` (the schema the site serves at ``/api/v1/schema/``), for
  the API reference page to render (``[OAD(...)]``, neoteroi-mkdocs) and for the site to
  offer as a file (``api/openapi.yaml``); the results file's JSON Schema and XSD are
  offered beside it (``api/push-results-1.schema.json``, ``api/push-results-1.xsd``).
- A page's marker line ``<!-- environment-table -->`` becomes the table of environment
  variables that ``config.environment.markdown_table()`` writes, so the settings page is
  made from the code that reads them. A build without that function, or in which no page
  has the marker, fails.
- A rule's heading (``### R6.4 ...``) gets the rule number as its anchor, as on the site's
  ``/rules/`` page, so ``rules.md#R6.4`` links to it in English and in Finnish.

The hooks need no database and no configured Django of their own: the schema is made in a
subprocess with the development settings (``DJANGO_DEBUG=true``, as ``make run``).
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

from mkdocs.exceptions import PluginError
from mkdocs.structure.files import File, Files

ROOT = Path(__file__).resolve().parent.parent
SCHEMA = ROOT / "build" / "docs" / "openapi.yaml"
SCHEMA_URI = "api/openapi.yaml"
# the results file's schemas, offered beside the page that describes them (api/files.md)
RESULTS_SCHEMAS = [ROOT / "tournaments" / "exports" / name
                   for name in ("push-results-1.schema.json", "push-results-1.xsd")]
ENVIRONMENT_MARKER = "<!-- environment-table -->"
RULE_HEADING = re.compile(r"^(#{2,4}) (R\d+\.\d+)\b(.*?)\s*$", re.MULTILINE)

_environment_pages: list[str] = []


def on_pre_build(config: Any) -> None:
    """Write the OpenAPI schema afresh, as the code describes the API now."""
    SCHEMA.parent.mkdir(parents=True, exist_ok=True)
    env = {**os.environ, "DJANGO_DEBUG": "true",
           "DJANGO_SETTINGS_MODULE": "config.settings"}
    result = subprocess.run(
        [sys.executable, "manage.py", "spectacular", "--file", str(SCHEMA), "--validate",
         "--fail-on-warn"],
        cwd=ROOT, env=env, capture_output=True, text=True, check=False)
    if result.returncode != 0:
        raise PluginError("manage.py spectacular could not write the API schema:\n"
                          + result.stdout + result.stderr)
    _environment_pages.clear()


def on_files(files: Files, config: Any) -> Files:
    """Offer the schema file on the site, beside the reference page, and the results
    file's JSON Schema and XSD beside the page on files."""
    files.append(File.generated(config, SCHEMA_URI, abs_src_path=str(SCHEMA)))
    for path in RESULTS_SCHEMAS:
        files.append(File.generated(config, f"api/{path.name}", abs_src_path=str(path)))
    return files


def environment_table() -> str:
    if str(ROOT) not in sys.path:
        sys.path.insert(0, str(ROOT))
    try:
        from config.environment import markdown_table
    except ImportError as error:
        raise PluginError("the settings page's table comes from "
                          f"config.environment.markdown_table(): {error}") from error
    return markdown_table().strip()


def on_page_markdown(markdown: str, page: Any, config: Any, files: Files) -> str:
    if ENVIRONMENT_MARKER in markdown:
        lines = markdown.split("\n")
        table = environment_table()
        markdown = "\n".join(table if line.strip() == ENVIRONMENT_MARKER else line
                             for line in lines)
        _environment_pages.append(page.file.src_uri)
    return RULE_HEADING.sub(r"\1 \2\3 { #\2 }", markdown)


def on_post_build(config: Any) -> None:
    if not _environment_pages:
        raise PluginError(f"no page has the line {ENVIRONMENT_MARKER}: the settings page "
                          "lost its table of environment variables")
