"""The game's public pages: the rules of Push, and a finished game's replay frames as the
replay script fetches them (a match page's and a live table's alike)."""

from __future__ import annotations

import hashlib
import html
import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import markdown
from django.conf import settings
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.utils.cache import get_conditional_response, patch_cache_control
from django.utils.http import quote_etag
from django.utils.safestring import mark_safe
from django.utils.translation import get_language
from markdown.extensions.toc import slugify

from games.replay import compact_frames, replay_frames

# docs/rules.md is the single source of the player-facing rules; the site renders the
# same file, or its translation beside it (docs/rules.fi.md: same rules, same numbers).
RULES_DOC = settings.BASE_DIR / "docs" / "rules.md"

# Part of every replay's ETag: change it when the frames' format changes, so that no
# browser keeps frames of the old format.
FRAMES_FORMAT = 1


def rules_doc(language: str | None) -> Path:
    """The rules in ``language`` where they are translated, else in English."""
    translated = RULES_DOC.with_suffix(f".{language}.md")
    return translated if language and language != "en" and translated.exists() else RULES_DOC

_RULE_NUMBER = re.compile(r"R\d+\.\d+\b")


def _heading_id(text: str, separator: str) -> str:
    """Give a rule heading ("R6.4 ...") the id "R6.4", so /rules/#R6.4 links to it."""
    match = _RULE_NUMBER.match(text)
    return match.group(0) if match else slugify(text, separator)


@dataclass(frozen=True, slots=True)
class Heading:
    """A chapter or a rule in the rules' table of contents: its anchor and its words."""

    id: str
    name: str
    rules: tuple[Heading, ...] = ()


def _contents(tokens: list[dict[str, Any]]) -> list[Heading]:
    """The chapters (##) and their rules (###), from the Markdown's own headings, so the
    table of contents is never out of step with the rules; a rule's anchor is its number."""
    return [Heading(token["id"], html.unescape(token["name"]),
                    tuple(Heading(rule["id"], html.unescape(rule["name"]))
                          for rule in token["children"]))
            for token in tokens]


def rules(request: HttpRequest) -> HttpResponse:
    """The rules, with a table of contents after their introduction (before the first
    chapter)."""
    text = rules_doc(get_language()).read_text(encoding="utf-8")
    intro, chapters = re.split(r"^(?=## )", text, maxsplit=1, flags=re.MULTILINE)
    converter = markdown.Markdown(
        extensions=["tables", "toc"],
        extension_configs={"toc": {"slugify": _heading_id, "permalink": True,
                                   "toc_depth": "2-3"}})
    intro_html = converter.convert(intro)
    body_html = converter.reset().convert(chapters)
    # The Markdown is our own repository file, not user input, so its HTML is trusted.
    return render(request, "rules.html", {
        "intro_html": mark_safe(intro_html), "rules_html": mark_safe(body_html),
        "contents": _contents(converter.toc_tokens)})  # type: ignore[attr-defined]


def replay_data(request: HttpRequest, record: Any,
                extra: dict[str, Any] | None = None) -> HttpResponse:
    """The frames of a stored ``push-record/1`` game as the replay script fetches them
    (``games.replay.compact_frames``), as JSON, with ``extra`` beside them (a live table's
    ``hints``: what the record itself cannot carry). Its ETag is the record's and the
    extra's, so that the browser, which keeps it and asks whether it is still current
    (``no-cache``), gets a 304 without the frames being built again."""
    text = json.dumps([record, extra], sort_keys=True, separators=(",", ":"))
    etag = quote_etag(f"replay-{FRAMES_FORMAT}-{hashlib.sha256(text.encode()).hexdigest()[:32]}")
    response = get_conditional_response(request, etag=etag)
    if response is None:
        response = JsonResponse({**compact_frames(replay_frames(record)), **(extra or {})},
                                json_dumps_params={"separators": (",", ":")})
    response["ETag"] = etag
    patch_cache_control(response, no_cache=True)
    return response
