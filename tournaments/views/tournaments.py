"""Tournament pages: the list, one tournament, its rounds, standings, bracket, crosstable."""

from __future__ import annotations

import hashlib
from typing import Any

from django.core.cache import cache
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.template.loader import render_to_string
from django.utils.translation import get_language, gettext_lazy
from django.utils.translation import gettext as _

from config.errors import PlatformError
from tournaments import selectors
from tournaments.formats import PairingError
from tournaments.models import Round, Tournament
from tournaments.params import SMALLINT_MAX, ParameterError, positive_int
from tournaments.selectors import plain, rounds_total, standings_versions, tournament_metrics
from tournaments.selectors.boards import first_board, round_boards
from tournaments.selectors.travellers import released_rounds

from .entry_section import entry_context
from .live import (
    fragment_response,
    live_context,
    page_fragment,
    versioned_fragment,
    versioned_page_fragment,
)


def tiebreak_sentence(tournament: Tournament) -> str:
    """How the standings order teams, as one sentence."""
    labels = [str(metric.name).lower() if metric.key != "buchholz" else str(metric.name)
              for metric in tournament_metrics(tournament)]
    if tournament.duplicate:
        main, *rest = labels
        return _("Teams are ranked by %(main)s on the boards every table played, then by "
                 "points%(rest)s. Teams still level share a rank.") % {
                     "main": main, "rest": "".join(_(", then %(tiebreak)s") % {"tiebreak": t}
                                                   for t in rest)}
    if not labels:
        return _("Teams are ranked by points; teams level on points share a rank.")
    return _("Teams are ranked by points; ties are broken by %(tiebreaks)s, in that order. "
             "Teams still level share a rank.") % {"tiebreaks": _(", then ").join(labels)}


def tournament_settings(tournament: Tournament) -> list[tuple[Any, str]]:
    """The tournament's settings as (label, value) lines for its page: those every format
    has, and those its format reads."""
    reads = tournament.format_spec.settings
    try:
        total = str(rounds_total(tournament))
    except PairingError:  # a bracket with fewer than two teams is not drawn yet
        total = "—"
    lines = [(gettext_lazy("Format"), str(tournament.get_format_display())),
             (gettext_lazy("Rounds"), total)]
    if "points_win" in reads:
        lines.append((gettext_lazy("Points"), _("win %(win)s, draw %(draw)s, loss %(loss)s") % {
            "win": plain(tournament.points_win), "draw": plain(tournament.points_draw),
            "loss": plain(tournament.points_loss)}))
    if "knockout_tie_rule" in reads:
        lines.append((gettext_lazy("Drawn games decided by"),
                      str(tournament.get_knockout_tie_rule_display())))
    if "third_place_match" in reads:
        lines.append((gettext_lazy("Third-place match"),
                      str(_("yes") if tournament.third_place_match else _("no"))))
    if "tiebreaks" in reads:
        tiebreaks = [str(metric.name) for metric in tournament_metrics(tournament)]
        lines.append((gettext_lazy("Tie-breaks"), ", ".join(tiebreaks) or "—"))
    if "bye_policy" in reads:
        bye_points = _("%(points)s points for a bye") % {"points": plain(tournament.points_bye)}
        lines.append((gettext_lazy("Odd team out gets"),
                      f"{tournament.get_bye_policy_display()} ({bye_points})"))
    lines.append((gettext_lazy("Empty seats are filled by"),
                  _("%(level)s bots") % {"level": tournament.get_bot_level_display()}))
    return lines


def tournament_list(request: HttpRequest) -> HttpResponse:
    return render(request, "tournaments/tournament_list.html",
                  {"groups": selectors.tournaments_by_status()})


def tournament_detail(request: HttpRequest, tournament_id: int) -> HttpResponse:
    tournament = get_object_or_404(Tournament, pk=tournament_id)
    return tournament_page(request, tournament, entry=entry_context(request, tournament))


def tournament_page(request: HttpRequest, tournament: Tournament, *, entry: dict[str, Any],
                    status: int = 200) -> HttpResponse:
    """The tournament's page, with its entry section as ``entry`` (``entry_section``)."""
    return render(request, "tournaments/tournament_detail.html", {
        **entry,
        "tournament": tournament, "section": "overview",
        "settings": tournament_settings(tournament),
        "rounds": selectors.public_rounds(tournament),
        "entries": selectors.tournament_entries(tournament),
        "places": selectors.final_places_of(tournament),
        "upcoming": selectors.upcoming_round(tournament),
        # the public view, as every public page: the rounds whose boards are no longer secret
        "boards": [(round.number, first_board(round.number))
                   for round in released_rounds(tournament, None)],
    }, status=status)


def _round(tournament_id: int, number: int) -> Round:
    tournament = get_object_or_404(Tournament, pk=tournament_id)
    round = selectors.public_round(tournament, number)
    if round is None:  # drafts are the organisers' business until published
        raise Http404(_("This tournament has no public round with this number."))
    return round


def _round_page(request: HttpRequest, round: Round) -> selectors.RoundPage:
    return selectors.round_page(round, selectors.page_number(request.GET), request.user)


def _round_tables(request: HttpRequest, round: Round, shown: selectors.RoundPage) -> str:
    """The round's live fragment: the viewer's own tables, the page's, the byes."""
    tables, byes = selectors.round_tables(round, shown.shown)
    by_id, listed = {table.match.pk: table for table in tables}, set(shown.listed)
    return render_to_string("tournaments/_round_tables.html", {
        "round": round, "tournament": round.tournament, "page": shown.page,
        "own_tables": [by_id[pk] for pk in shown.own if pk in by_id],
        "tables": [table for table in tables if table.match.pk in listed],
        "byes": byes, **live_context(round.status == Round.Status.PUBLISHED)},
        request=request)


def round_detail(request: HttpRequest, tournament_id: int, number: int) -> HttpResponse:
    round = _round(tournament_id, number)
    shown = _round_page(request, round)  # before the tables are read: versioned_fragment
    released = round.tournament.duplicate and not shown.secret
    page = shown.page
    return render(request, "tournaments/round_detail.html", {
        "round": round, "tournament": round.tournament, "page": page,
        "page_query": f"?page={page.number}" if page.number > 1 else "",
        "page_links": page.paginator.get_elided_page_range(page.number),
        **live_context(round.status == Round.Status.PUBLISHED),
        **versioned_page_fragment(shown.version, _round_tables(request, round, shown)),
        "rounds": selectors.public_rounds(round.tournament), "section": "rounds",
        "boards": round_boards(round) if released else ()})


def round_live(request: HttpRequest, tournament_id: int, number: int) -> HttpResponse:
    """The round's live fragment, polled by its page: 304 while its version stands."""
    round = _round(tournament_id, number)
    shown = _round_page(request, round)
    return versioned_fragment(request, shown.version,
                              lambda: _round_tables(request, round, shown))


STANDINGS_CACHE_SECONDS = 600  # the key changes with the table; this bounds a team rename


class StandingsRequestError(PlatformError):
    """A ``?round=`` the standings cannot show: 400 when it is not a round number, 404 when
    that round has no table (it is not complete, or does not exist)."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status


def standings_round(request: HttpRequest, tournament: Tournament) -> int:
    """The ``?round=`` of the standings page, read as the API reads it (a whole number; the
    table after that completed round), or 0 for the current table (no parameter, or the
    form's empty "now")."""
    raw = request.GET.get("round", "")
    if raw == "":
        return 0
    try:
        number = positive_int({"round": raw}, "round", maximum=SMALLINT_MAX)
    except ParameterError as error:
        raise StandingsRequestError(400, _("round: %(problem)s") % {
            "problem": error.message}) from None
    assert number is not None
    if not tournament.rounds.filter(number=number, status=Round.Status.COMPLETE).exists():
        raise StandingsRequestError(404, _(
            "round %(number)d of %(tournament)s is not complete (or does not exist): "
            "standings are kept after each completed round")
            % {"number": number, "tournament": tournament})
    return number


def _standings_context(request: HttpRequest, tournament: Tournament) -> dict[str, Any]:
    after = standings_round(request, tournament)
    versions = standings_versions(tournament)
    rounds = sorted(number for number in versions if number > 0)
    marks = (f"w{sorted(selectors.withdrawn_team_ids(tournament))}"
             f"p{sorted(selectors.provisional_team_ids(tournament)) if after == 0 else ''}")
    return {"tournament": tournament, "after": after, "standings_rounds": rounds,
            "version": versions.get(after, 0),
            "marks": hashlib.sha256(marks.encode()).hexdigest()[:16],
            **live_context(after == 0 and selectors.tournament_is_live(tournament))}


def _standings_rows(request: HttpRequest, context: dict[str, Any]) -> str:
    """The table's HTML, cached per tournament, table (current or after a round), version of
    that table, withdrawn and provisional teams, tie-breaks, live state and language: a new
    result writes a new version, so it shows at once, while each reader of an unchanged table
    costs a cache read instead of rendering hundreds of rows."""
    tournament, after = context["tournament"], context["after"]
    key = (f"standings-table:{tournament.pk}:{after}:{context['version']}:{context['marks']}:"
           f"{','.join(tournament.tiebreaks)}:{int(context['live'])}:{get_language()}")
    html = cache.get(key)
    if html is None:
        lines = selectors.tournament_standings(tournament, after)
        html = render_to_string("tournaments/_standings_rows.html", {
            **context, "lines": lines, "any_provisional": any(line.provisional for line in lines),
            "metrics": selectors.tournament_metrics(tournament),
            "tiebreak_sentence": tiebreak_sentence(tournament)}, request=request)
        cache.set(key, html, STANDINGS_CACHE_SECONDS)
    return str(html)


def standings(request: HttpRequest, tournament_id: int) -> HttpResponse:
    tournament = get_object_or_404(Tournament, pk=tournament_id)
    try:
        context = _standings_context(request, tournament)
    except StandingsRequestError as error:  # the page says what is wrong, with the form
        versions = standings_versions(tournament)
        return render(request, "tournaments/standings.html", {
            "tournament": tournament, "section": "standings", "error": error.message,
            "after": None, "standings_rounds": sorted(n for n in versions if n > 0)},
            status=error.status)
    by_bracket = tournament.format_spec.has_bracket and not context["after"]
    return render(request, "tournaments/standings.html", {
        **context, **page_fragment(_standings_rows(request, context)),
        "places": selectors.final_places_of(tournament) if by_bracket else [],
        "section": "standings"})


def standings_live(request: HttpRequest, tournament_id: int) -> HttpResponse:
    tournament = get_object_or_404(Tournament, pk=tournament_id)
    try:
        context = _standings_context(request, tournament)
    except StandingsRequestError as error:
        return HttpResponse(error.message, status=error.status, content_type="text/plain")
    return fragment_response(request, _standings_rows(request, context))


def bracket(request: HttpRequest, tournament_id: int) -> HttpResponse:
    tournament = get_object_or_404(Tournament, pk=tournament_id)
    if not tournament.format_spec.has_bracket:
        raise Http404(_("This tournament has no bracket."))
    return render(request, "tournaments/bracket.html", {
        "tournament": tournament, "section": "bracket",
        "bracket": selectors.tournament_bracket_view(tournament)})


def crosstable(request: HttpRequest, tournament_id: int) -> HttpResponse:
    tournament = get_object_or_404(Tournament, pk=tournament_id)
    if tournament.format_spec.has_bracket:  # its bracket shows who played whom
        raise Http404(_("This tournament has a bracket, not a crosstable."))
    rows = selectors.tournament_crosstable(tournament)
    return render(request, "tournaments/crosstable.html", {
        "tournament": tournament, "section": "bracket", "rows": rows,
        "columns": [row.team for row in rows]})
