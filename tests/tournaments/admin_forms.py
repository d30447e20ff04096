"""The admin's change page of a tournament as a browser would post it back unchanged, and a
schedule's form as an organiser fills it, for the tests that set a schedule there."""

from __future__ import annotations

from html.parser import HTMLParser
from typing import Any


class PageForm(HTMLParser):
    """The fields of the page's main form as a browser would post them unchanged."""

    def __init__(self) -> None:
        super().__init__()
        self.data: dict[str, str] = {}
        self._select: str | None = None
        self._textarea: str | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: v or "" for k, v in attrs}
        name = a.get("name", "")
        if tag == "input" and name and a.get("type") not in ("submit", "button", "file"):
            if a.get("type") in ("checkbox", "radio") and "checked" not in a:
                return
            self.data[name] = a.get("value", "on" if a.get("type") == "checkbox" else "")
        elif tag == "select" and name:
            self._select = name
            self.data.setdefault(name, "")
        elif tag == "option" and self._select and "selected" in a:
            self.data[self._select] = a.get("value", "")
        elif tag == "textarea" and name:
            self._textarea = name
            self.data[name] = ""

    def handle_endtag(self, tag: str) -> None:
        if tag == "select":
            self._select = None
        if tag == "textarea":
            self._textarea = None

    def handle_data(self, data: str) -> None:
        if self._textarea:
            self.data[self._textarea] += data.lstrip("\n") if not self.data[
                self._textarea] else data


def admin_form_data(client: Any, url: str) -> dict[str, str]:
    """The fields of the page at ``url`` as its form would post them, less the inlines'
    empty templates; a multiple choice with nothing chosen is not sent at all, as a browser
    does."""
    parser = PageForm()
    parser.feed(client.get(url).content.decode())
    return {key: value for key, value in parser.data.items()
            if "__prefix__" not in key and not (key == "keep_apart_clubs" and not value)}


def schedule_form_data(**changes: str) -> dict[str, str]:
    """A schedule's fields as the admin's form takes them (``changes`` over the defaults)."""
    return {"time_zone": "Europe/Helsinki", "start": "2027-01-15 18:00", "rounds": "",
            "interval_minutes": "10", "check_in_opens_minutes": "",
            "check_in_closes_minutes": "0", "round_minutes": "", "at_deadline": "bots",
            **changes}
