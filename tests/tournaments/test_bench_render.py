"""``bench_pages --render``: each page of a round in play drawn in this process, its CPU
time and size, the live fragment also unchanged (a 304), and nothing of the round left."""

from __future__ import annotations

import re
from io import StringIO

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from bench.load.pages import PAGES
from tournaments.models import Team, Tournament

pytestmark = pytest.mark.django_db


def test_each_page_is_drawn_and_measured_and_the_round_removed() -> None:
    out = StringIO()

    call_command("bench_pages", render=2, tables=2, stdout=out)

    lines = dict(re.findall(r"^page (.+?): [0-9.]+ ms CPU a request, [0-9.]+ KB "
                            r"\(status (\d+)\)$", out.getvalue(), re.MULTILINE))
    assert lines == {**{name: "200" for name in PAGES}, "round live, unchanged": "304"}
    assert not Tournament.objects.filter(name__startswith="bench-load-").exists()
    assert not Team.objects.filter(name__startswith="bench-load-").exists()


def test_render_refuses_a_negative_count() -> None:
    with pytest.raises(CommandError, match="--render at least 0"):
        call_command("bench_pages", render=-1, tables=2)
