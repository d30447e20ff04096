"""The home page: what the league is playing. It shows tournaments, so it is a tournament
page; the game's own pages (the rules) stay in ``games``, which knows nothing of
tournaments."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from tournaments import selectors


def home(request: HttpRequest) -> HttpResponse:
    """What is running (current round, leader), coming (dates), the latest results and who
    won the tournaments just finished."""
    return render(request, "home.html", {"home": selectors.home_view(),
                                         "your_tables": selectors.your_tables(request.user)})
