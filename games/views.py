"""Public pages: the home page and the rules of Push."""

import re
from pathlib import Path

import markdown
from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.safestring import mark_safe
from django.utils.translation import get_language
from markdown.extensions.toc import slugify

from tournaments import selectors

# docs/rules.md is the single source of the player-facing rules; the site renders the
# same file, or its translation beside it (docs/rules.fi.md: same rules, same numbers).
RULES_DOC = settings.BASE_DIR / "docs" / "rules.md"


def rules_doc(language: str | None) -> Path:
    """The rules in ``language`` where they are translated, else in English."""
    translated = RULES_DOC.with_suffix(f".{language}.md")
    return translated if language and language != "en" and translated.exists() else RULES_DOC

_RULE_NUMBER = re.compile(r"R\d+\.\d+\b")


def _heading_id(text: str, separator: str) -> str:
    """Give a rule heading ("R6.4 ...") the id "R6.4", so /rules/#R6.4 links to it."""
    match = _RULE_NUMBER.match(text)
    return match.group(0) if match else slugify(text, separator)


def home(request: HttpRequest) -> HttpResponse:
    """What is running (current round, leader), coming (dates), the latest results and who
    won the tournaments just finished."""
    return render(request, "home.html", {"home": selectors.home_view()})


def rules(request: HttpRequest) -> HttpResponse:
    html = markdown.markdown(
        rules_doc(get_language()).read_text(encoding="utf-8"),
        extensions=["tables", "toc"],
        extension_configs={"toc": {"slugify": _heading_id, "permalink": True}},
    )
    # The Markdown is our own repository file, not user input, so its HTML is trusted.
    return render(request, "rules.html", {"rules_html": mark_safe(html)})
