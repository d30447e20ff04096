import os
import re
import secrets
import subprocess
import sys
from html.parser import HTMLParser
from pathlib import Path

import pytest
from django.test import Client
from django.utils import translation

from .services import shared_file

REPO = Path(__file__).resolve().parent.parent


class _IdCollector(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.ids: set[str] = set()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.ids.update(value for name, value in attrs if name == "id" and value)


def _element_ids(html: str) -> set[str]:
    collector = _IdCollector()
    collector.feed(html)
    return collector.ids


@pytest.mark.django_db  # the home page lists the tournaments
def test_it_serves_the_home_page_with_a_link_to_the_rules(client: Client) -> None:
    response = client.get("/")

    assert response.status_code == 200
    assert 'href="/rules/"' in response.content.decode()


def test_it_gives_rule_r6_4_an_anchor(client: Client) -> None:
    response = client.get("/rules/")

    assert response.status_code == 200
    assert "R6.4" in _element_ids(response.content.decode())


def test_it_anchors_every_rule_of_the_normative_rules(client: Client) -> None:
    rules = shared_file("push-rules.md")
    numbers = set(re.findall(r"\*\*(R\d+\.\d+)", rules.read_text(encoding="utf-8")))
    assert numbers, "no rule numbers found in push-rules.md"

    ids = _element_ids(client.get("/rules/").content.decode())

    assert sorted(numbers - ids) == []


def test_it_passes_the_deploy_checks_with_production_settings() -> None:
    env = {
        **os.environ,
        "DJANGO_DEBUG": "false",
        "DJANGO_SECRET_KEY": secrets.token_urlsafe(50),
        "DJANGO_ALLOWED_HOSTS": "example.org",
    }

    result = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy"],
        cwd=REPO,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )

    output = result.stdout + result.stderr
    assert result.returncode == 0, output
    assert "WARNINGS" not in output, output


def _rule_headings(markdown_text: str) -> list[str]:
    return re.findall(r"^### (R\d+\.\d+)\b", markdown_text, flags=re.MULTILINE)


def test_the_finnish_rules_have_the_same_rules_in_the_same_order() -> None:
    english = (REPO / "docs" / "rules.md").read_text(encoding="utf-8")
    finnish = (REPO / "docs" / "rules.fi.md").read_text(encoding="utf-8")

    assert _rule_headings(finnish) == _rule_headings(english)
    # every rule a rule cites, and every platform ruling, is there in Finnish too
    cited = sorted(set(re.findall(r"\(R\d+\.\d+\)", english)))
    assert sorted(set(re.findall(r"\(R\d+\.\d+\)", finnish))) == cited
    assert english.count("**Platform ruling.**") == finnish.count("**Alustan ratkaisu.**")


def test_the_rules_page_is_in_finnish_for_a_finnish_reader(client: Client) -> None:
    english = client.get("/rules/").content.decode()
    with translation.override("en"):  # the request activates Finnish; the thread keeps it
        finnish = client.get("/rules/", HTTP_ACCEPT_LANGUAGE="fi").content.decode()

    assert '<html lang="fi">' in finnish and "Näin pelataan Pushia" in finnish
    assert "<title>Pushin säännöt · Push-liiga</title>" in finnish
    assert "How to play Push" in english and "Näin pelataan" not in english
    rules = set(_rule_headings((REPO / "docs" / "rules.md").read_text(encoding="utf-8")))
    assert len(rules) > 30 and rules <= _element_ids(finnish)  # /rules/#R6.4 in Finnish too


def _contents_links(html: str) -> list[str]:
    nav = html.split('<nav class="rules-contents"')[1].split("</nav>")[0]
    return re.findall(r'<a href="#([^"]+)">', nav)


@pytest.mark.parametrize("language, source", [("en", "rules.md"), ("fi", "rules.fi.md")])
def test_the_rules_page_has_a_table_of_contents_of_every_chapter_and_rule(
        client: Client, language: str, source: str) -> None:
    """Made from the rule headings themselves, in their order, each rule linked by its
    number (/rules/#R6.5), each chapter by its heading's anchor."""
    text = (REPO / "docs" / source).read_text(encoding="utf-8")
    with translation.override("en"):
        html = client.get("/rules/", HTTP_ACCEPT_LANGUAGE=language).content.decode()

    links = _contents_links(html)
    assert [link for link in links if link.startswith("R")] == _rule_headings(text)
    chapters = re.findall(r"^## (.+)$", text, flags=re.MULTILINE)
    assert len([link for link in links if not link.startswith("R")]) == len(chapters) > 5
    assert set(links) <= _element_ids(html)  # every link has its heading
    assert '<a href="#R6.5">R6.5 ' in html
    assert html.index('class="rules-contents"') < html.index('id="R1.1"')
