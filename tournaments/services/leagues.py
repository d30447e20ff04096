"""Leagues and their seasons: creating and changing a league, creating a season with its
divisions or events, drafting the next season's divisions from the last (who goes up and
down, by ``tournaments.leagues.divisions``), and confirming the draft.

The draft is a season in ``draft`` status, its divisions new tournaments with the same
settings as the last season's, their entries seeded in the draft's order: the organiser
changes the entries (or the tournaments' settings) in the admin, then confirms it. One
league is drafted at a time: the league's row is locked first, then the season's."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.utils.text import slugify
from django.utils.translation import gettext as _

from config.users import RequestUser
from tournaments.leagues import DivisionResult, Move, draft_moves
from tournaments.leagues.divisions import LeagueError
from tournaments.models import Division, Entry, League, Season, SeriesEvent, Team, Tournament
from tournaments.selectors.leagues import division_ranking, is_league_organiser
from tournaments.selectors.visibility import organised_tournaments

from . import webhooks
from .errors import FieldsInvalid, TournamentUserError, checked
from .telling import divisions_changed
from .tournaments import require_staff

#: A league's settings as an organiser gives them (its organisers are its creator's to add).
LEAGUE_SETTINGS = ("name", "slug", "description", "promote", "relegate")
#: A season's, besides its league.
SEASON_SETTINGS = ("number", "name", "kind", "status", "place_points", "best_of")


def require_league_organiser(user: RequestUser | None, league: League) -> None:
    if not is_league_organiser(user, league):
        raise PermissionDenied(_("only the organisers of %(league)s may do this")
                               % {"league": league})


def league_save(*, league: League, user: RequestUser) -> League:
    """Store ``league`` as set (a new one: any organiser, who then organises it; else its
    organisers only), checked; its address made from its name when it has none."""
    new = league.pk is None
    if new:
        require_staff(user)
    else:
        require_league_organiser(user, league)
    if not league.slug:
        league.slug = slugify(league.name)[:60]
    checked(league)
    with transaction.atomic():
        league.save()
        if new:
            assert user.is_authenticated  # require_staff lets no one else by
            league.organisers.add(user)
    return league


def league_set(league: League, values: Mapping[str, Any]) -> League:
    """Set ``values`` (``LEAGUE_SETTINGS``) on ``league``; a name that is not a setting is
    refused."""
    _only(values, LEAGUE_SETTINGS)
    for name, value in values.items():
        setattr(league, name, value)
    return league


def _only(values: Mapping[str, Any], names: Sequence[str]) -> None:
    unknown = sorted(set(values) - set(names))
    if unknown:
        raise TournamentUserError(_("%(fields)s: not a setting here"),
                                  {"fields": ", ".join(unknown)})


def season_save(*, season: Season, user: RequestUser) -> Season:
    """Store ``season`` as set (its divisions and events are its tournaments'), checked, by
    its league's organisers."""
    require_league_organiser(user, season.league)
    checked(season)
    season.save()
    return season


def season_create(*, league: League, values: Mapping[str, Any], user: RequestUser,
                  divisions: Mapping[int, Tournament] | None = None,
                  events: Sequence[Tournament] = ()) -> Season:
    """A new season of ``league`` with ``values`` (``SEASON_SETTINGS``; its number the next
    one and its name "Season N" when not given), and its divisions (level to tournament) or
    its events: tournaments the user organises, in no other season."""
    require_league_organiser(user, league)
    _only(values, SEASON_SETTINGS)
    divisions = divisions or {}
    with transaction.atomic():
        League.objects.select_for_update().get(pk=league.pk)
        season = Season(league=league, **values)
        if "number" not in values:
            last = league.seasons.order_by("-number").values_list("number", flat=True).first()
            season.number = (last or 0) + 1
        season.name = season.name or _("Season %(number)d") % {"number": season.number}
        _check_parts(season, divisions, events, user)
        season = season_save(season=season, user=user)
        Division.objects.bulk_create(Division(season=season, tournament=tournament,
                                              level=level)
                                     for level, tournament in sorted(divisions.items()))
        SeriesEvent.objects.bulk_create(SeriesEvent(season=season, tournament=tournament)
                                        for tournament in events)
    return season


def _check_parts(season: Season, divisions: Mapping[int, Tournament],
                 events: Sequence[Tournament], user: RequestUser) -> None:
    """Divisions for a season of divisions, events for a series: each a tournament the user
    organises and no season has yet, named by field when not."""
    field, parts = (("divisions", list(divisions.values()))
                    if season.kind == Season.Kind.DIVISIONS else ("events", list(events)))
    other = "events" if field == "divisions" else "divisions"
    if (events if other == "events" else divisions):
        raise FieldsInvalid(ValidationError({other: _(
            "a season of this kind has none: it has %(field)s") % {"field": field}}))
    ids = [tournament.pk for tournament in parts]
    if len(set(ids)) != len(ids):
        raise FieldsInvalid(ValidationError({field: _("a tournament is given twice")}))
    mine = set(organised_tournaments(user).filter(pk__in=ids).values_list("pk", flat=True))
    taken = set(Tournament.objects.filter(pk__in=ids).exclude(
        division__isnull=True, series_event__isnull=True).values_list("pk", flat=True))
    for tournament in parts:
        if tournament.pk not in mine:
            raise FieldsInvalid(ValidationError({field: _(
                "%(tournament)s: not a tournament you organise") % {"tournament": tournament}}))
        if tournament.pk in taken:
            raise FieldsInvalid(ValidationError({field: _(
                "%(tournament)s is already part of a season") % {"tournament": tournament}}))


def season_draft_next(*, season: Season, user: RequestUser | None,
                      newcomers: Sequence[Team] = ()) -> Season:
    """Draft the season after ``season`` (every division finished): the moves of the rules
    in ``tournaments.leagues.divisions``, as a draft season with one tournament a division.
    ``season`` becomes finished. :class:`TournamentUserError` when it cannot be drafted."""
    require_league_organiser(user, season.league)
    with transaction.atomic():
        league = League.objects.select_for_update().get(pk=season.league_id)
        season = Season.objects.select_for_update().get(pk=season.pk)
        _check_draftable(season)
        divisions = list(season.divisions.select_related("tournament").order_by("level"))
        results = [DivisionResult(d.level, tuple(division_ranking(d)),
                                  d.tournament.entries.count()) for d in divisions]
        try:
            moves = draft_moves(results, promote=league.promote, relegate=league.relegate,
                                newcomers=[team.pk for team in newcomers])
        except LeagueError as error:
            raise TournamentUserError(str(error)) from None
        number = season.number + 1
        draft = Season.objects.create(league=league, number=number, status=Season.Status.DRAFT,
                                      kind=season.kind, name=_("Season %(number)d")
                                      % {"number": number}, place_points=season.place_points,
                                      best_of=season.best_of)
        for division in divisions:
            _draft_division(draft, division, [m for m in moves if m.level == division.level])
        season.status = Season.Status.FINISHED
        season.save(update_fields=["status"])
        webhooks.season_drafted(draft)
    return draft


def _check_draftable(season: Season) -> None:
    if season.kind != Season.Kind.DIVISIONS:
        raise TournamentUserError(_("%(season)s is a series: only a season of divisions has "
                                    "teams going up and down") % {"season": season})
    if season.status == Season.Status.DRAFT:
        raise TournamentUserError(_("%(season)s is itself a draft: confirm it first")
                                  % {"season": season})
    if Season.objects.filter(league=season.league, number__gt=season.number).exists():
        raise TournamentUserError(_("%(season)s already has a next season (a draft, perhaps): "
                                    "change that one, or delete it to draft again")
                                  % {"season": season})
    running = season.divisions.exclude(tournament__status=Tournament.Status.FINISHED)
    if not season.divisions.exists():
        raise TournamentUserError(_("%(season)s has no division to draft from")
                                  % {"season": season})
    if running.exists():
        raise TournamentUserError(_("%(tournament)s has not finished: the next season is "
                                    "drafted from the final places of every division")
                                  % {"tournament": running.first()})


def _draft_division(draft: Season, old: Division, moves: list[Move]) -> None:
    """A copy of ``old``'s tournament (its settings and organisers, a new name, no rounds)
    for ``draft``, its entries in the order of ``moves``."""
    source = old.tournament
    tournament = Tournament.objects.get(pk=source.pk)
    tournament.pk = None
    tournament._state.adding = True
    tournament.name = _free_name(f"{draft.league.name} · {draft.name} · "
                                 + _("Division %(level)d") % {"level": old.level})
    tournament.status = Tournament.Status.UPCOMING
    tournament.starts_on = tournament.ends_on = tournament.check_in_closes = None
    tournament.save()
    tournament.organisers.set(source.organisers.all())
    tournament.keep_apart_clubs.set(source.keep_apart_clubs.all())
    Division.objects.create(season=draft, tournament=tournament, level=old.level)
    Entry.objects.bulk_create(Entry(tournament=tournament, team_id=move.team, seed=seed)
                              for seed, move in enumerate(moves, start=1))


def _free_name(name: str) -> str:
    """``name``, or ``name (2)``, ``(3)``... when a tournament already has it."""
    candidate, number = name, 1
    while Tournament.objects.filter(name__iexact=candidate).exists():
        number += 1
        candidate = f"{name} ({number})"
    return candidate


def season_confirm(*, season: Season, user: RequestUser | None) -> Season:
    """Make a draft season the league's current one."""
    require_league_organiser(user, season.league)
    with transaction.atomic():
        League.objects.select_for_update().get(pk=season.league_id)
        season = Season.objects.select_for_update().get(pk=season.pk)
        if season.status != Season.Status.DRAFT:
            raise TournamentUserError(_("%(season)s is not a draft: it is already %(status)s")
                                      % {"season": season,
                                         "status": season.get_status_display()})
        season.status = Season.Status.CURRENT
        season.save(update_fields=["status"])
        divisions_changed(season)  # the players of each team that went up or down
        webhooks.season_confirmed(season)
    return season
