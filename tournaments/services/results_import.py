"""Importing a results file (``push-results/1``, ``selectors.results_file`` writes it): an
organiser moving a finished event to another installation gets it here as it was there.

All or nothing: the file is checked whole first, against its schema (JSON Schema or XSD,
``tournaments.exports.schema``) and then for what a schema cannot say (a team number no team
has, a player twice in a round, a score sheet the rules make impossible or totals that are
not the sum of its hands, a tournament name already taken); every problem found is named
with where it is (a JSON pointer, or the XML path for the XSD's), and nothing is stored.
A good file is written in one transaction: its players by handle (created when missing,
kept as they are when present), its teams by name (a team of that name must have the same
two players), the tournament, its entries, rounds, tables, matches, seats and results;
then its standings are computed at once (the places follow from them) and the ratings
after the commit.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from config.users import RequestUser
from games.engine import score_sheet_errors, winner
from tournaments.exports.schema import FileProblems, Problem, pointer, read
from tournaments.formats import formats
from tournaments.models import Entry, Match, Player, Result, Round, Seat, Table, Team, Tournament

from .derived import out_hands, standings_rebuild
from .errors import TournamentUserError
from .followups import ratings_later

EVENT_FIELDS = {"name": "name", "format": "format", "status": "status",
                "starts_on": "starts_on", "ends_on": "ends_on", "play": "play",
                "dealing": "dealing", "duplicate": "duplicate",
                "rounds_planned": "rounds_planned", "tiebreaks": "tiebreaks",
                "bye_policy": "bye_policy", "bot_level": "bot_level",
                "knockout_tie_rule": "knockout_tie_rule",
                "third_place_match": "third_place_match"}
POINTS = {"win": "points_win", "draw": "points_draw", "loss": "points_loss", "bye": "points_bye"}


class ResultsFileRefused(TournamentUserError):
    """A results file that cannot be imported, with each problem and where it is."""

    code = "results_file_refused"

    def __init__(self, problems: list[Problem]) -> None:
        super().__init__(_("the results file was refused and nothing was stored: %(problems)s"),
                         {"problems": "; ".join(map(str, problems))})
        self.problems = problems

    def as_dict(self) -> dict[str, Any]:
        return {**super().as_dict(), "problems": [
            {"where": problem.where, "what": problem.what} for problem in self.problems]}


def results_file_import(*, source: bytes, organiser: RequestUser | None = None) -> Tournament:
    """Create the tournament of the results file in ``source`` (JSON or XML), with
    ``organiser`` (a user, or None: the operator's command) as its organiser; refuse a file
    with any problem (ResultsFileRefused), storing nothing."""
    if organiser is not None and not organiser.is_staff:
        raise TournamentUserError(gettext("only staff may import a results file"))
    try:
        document = read(source)
    except FileProblems as error:
        raise ResultsFileRefused(error.problems) from None
    problems = _Checks(document).problems()
    if problems:
        raise ResultsFileRefused(problems)
    with transaction.atomic():
        tournament = _write(document)
        if organiser is not None:
            tournament.organisers.add(organiser)
        standings_rebuild(tournament=tournament, full=True)
        ratings_later()
    return Tournament.objects.get(pk=tournament.pk)  # its values as stored, dates as dates


def _tournament(document: dict[str, Any]) -> Tournament:
    event = document["event"]
    tournament = Tournament(**{field: event[key] for key, field in EVENT_FIELDS.items()},
                            **{field: event["scoring"][key] for key, field in POINTS.items()})
    tournament.tiebreaks = list(event["tiebreaks"])
    return tournament


class _Checks:
    """What the schema cannot say about a results file, each problem with its pointer."""

    def __init__(self, document: dict[str, Any]) -> None:
        self.document = document
        self.found: list[Problem] = []
        self.handles = {player["handle"] for player in document["players"]}
        self.teams = {team["number"]: team for team in document["teams"]}

    def problem(self, where: list[Any], what: str) -> None:
        self.found.append(Problem(pointer(where), what))

    def problems(self) -> list[Problem]:
        self.event()
        self.players()
        self.team_list()
        for index, round in enumerate(self.document["rounds"]):
            self.round(index, round)
        self.repeated([round["number"] for round in self.document["rounds"]], ["rounds"],
                      "number", gettext("a second round %(value)s"))
        return self.found

    def repeated(self, values: list[Any], where: list[Any], key: str, what: str) -> None:
        seen: set[Any] = set()
        for index, value in enumerate(values):
            if value in seen and value is not None:
                self.problem([*where, index, key], what % {"value": value})
            seen.add(value)

    def event(self) -> None:
        event = self.document["event"]
        if event["format"] not in {spec.key for spec in formats()}:
            self.problem(["event", "format"], gettext(
                "no format “%(format)s” here: one of %(known)s") % {
                    "format": event["format"],
                    "known": ", ".join(spec.key for spec in formats())})
            return
        try:
            _tournament(self.document).full_clean()
        except ValidationError as error:
            fields = {field: key for key, field in EVENT_FIELDS.items()}
            fields.update({field: key for key, field in POINTS.items()})
            for field, messages in error.message_dict.items():
                where = (["event", "scoring", fields[field]] if field in POINTS.values()
                         else ["event", fields.get(field, field)])
                for message in messages:
                    self.problem(where if field != "__all__" else ["event"], message)

    def players(self) -> None:
        self.repeated([player["handle"] for player in self.document["players"]], ["players"],
                      "handle", gettext("the handle %(value)s is given twice"))

    def team_list(self) -> None:
        teams = self.document["teams"]
        self.repeated([team["number"] for team in teams], ["teams"], "number",
                      gettext("a second team numbered %(value)s"))
        self.repeated([team["name"] for team in teams], ["teams"], "name",
                      gettext("a second team named %(value)s"))
        stored = {team.name: team for team in Team.objects.filter(
            name__in=[team["name"] for team in teams]).select_related("player_a", "player_b")}
        for index, team in enumerate(teams):
            pair = team["players"]
            for position, handle in enumerate(pair):
                if handle not in self.handles:
                    self.problem(["teams", index, "players", position], gettext(
                        "no player of the file has the handle %(handle)s") % {"handle": handle})
            if pair[0] == pair[1]:
                self.problem(["teams", index, "players"],
                             gettext("a team needs two different players"))
            here = stored.get(team["name"])
            if here is not None and [here.player_a.handle, here.player_b.handle] != pair:
                self.problem(["teams", index, "name"], gettext(
                    "this installation has a team named %(name)s with other players "
                    "(%(a)s and %(b)s): rename the team in the file") % {
                        "name": team["name"], "a": here.player_a.handle,
                        "b": here.player_b.handle})

    def round(self, index: int, round: dict[str, Any]) -> None:
        where = ["rounds", index, "matches"]
        matches = round["matches"]
        self.repeated([match["table"] for match in matches], where, "table",
                      gettext("a second table %(value)s in this round"))
        seated = Counter(seat["player"] for match in matches for seat in match["seats"]
                         if seat["player"] is not None)
        for number, match in enumerate(matches):
            self.match([*where, number], match)
            for position, seat in enumerate(match["seats"]):
                if seated[seat["player"]] > 1:
                    self.problem([*where, number, "seats", position, "player"], gettext(
                        "%(handle)s sits at two tables in this round") % {
                            "handle": seat["player"]})
                    seated[seat["player"]] = 1  # said once

    def match(self, where: list[Any], match: dict[str, Any]) -> None:
        for key in ("team_a", "team_b"):
            if match[key] is not None and match[key] not in self.teams:
                self.problem([*where, key], gettext("no team is numbered %(number)s") % {
                    "number": match[key]})
        if match["bye"] != (match["team_b"] is None and not match["bot_opponent"]):
            self.problem(where, gettext(
                "a match is a bye (no opponent, no table), against the bot team, or between "
                "two teams"))
        if match["bye"] and (match["table"] is not None or match["result"] is not None):
            self.problem(where, gettext("a bye has neither a table nor a result"))
        if not match["bye"] and match["table"] is None:
            self.problem([*where, "table"], gettext("a match that is not a bye has a table"))
        self.repeated([seat["position"] for seat in match["seats"]], [*where, "seats"],
                      "position", gettext("a second seat %(value)s"))
        for position, seat in enumerate(match["seats"]):
            if (seat["player"] is None) == (seat["bot"] == ""):
                self.problem([*where, "seats", position], gettext(
                    "a seat has a player or a bot level, not both"))
            elif seat["player"] is not None and seat["player"] not in self.handles:
                self.problem([*where, "seats", position, "player"], gettext(
                    "no player of the file has the handle %(handle)s") % {
                        "handle": seat["player"]})
        if match["result"] is not None:
            self.result([*where, "result"], match["result"])

    def result(self, where: list[Any], result: dict[str, Any]) -> None:
        hands = result["hand_scores"]
        if result["source"] != Result.Source.ENDED:  # a game played to its end (R3.1)
            for error in score_sheet_errors(hands, result["out_seats"]):
                at = [] if error.hand is None else [error.hand - 1]
                self.problem([*where, "hand_scores", *at], error.message(gettext))
        if len(result["out_seats"]) != len(hands):
            self.problem([*where, "out_seats"], gettext(
                "one seat that went out (or null) a hand: %(count)d hands") % {
                    "count": len(hands)})
        totals = [sum(hand[0] for hand in hands), sum(hand[1] for hand in hands)]
        if result["totals"] != totals:
            self.problem([*where, "totals"], gettext(
                "the totals are the sums of the hands: %(a)d and %(b)d") % {
                    "a": totals[0], "b": totals[1]})
        team = winner((totals[0], totals[1]))
        expected = "d" if team is None else "ab"[team]
        if result["winner"] != expected and not (result["decided_by"] and expected == "d"):
            self.problem([*where, "winner"], gettext(
                "the winner is the team with the lower total (R9.2): %(winner)s") % {
                    "winner": expected})


def _write(document: dict[str, Any]) -> Tournament:
    players = {player.handle: player for player in Player.objects.filter(
        handle__in=[player["handle"] for player in document["players"]])}
    for player in document["players"]:
        if player["handle"] not in players:
            players[player["handle"]] = Player.objects.create(handle=player["handle"],
                                                              name=player["name"])
    tournament = _tournament(document)
    tournament.save()
    teams: dict[int, Team] = {}
    for team in document["teams"]:
        a, b = (players[handle] for handle in team["players"])
        teams[team["number"]], _created = Team.objects.get_or_create(
            name=team["name"], defaults={"player_a": a, "player_b": b})
        Entry.objects.create(tournament=tournament, team=teams[team["number"]],
                             seed=team["seed"], withdrawn=team["withdrawn"])
    for round in document["rounds"]:
        stored = Round.objects.create(tournament=tournament, number=round["number"],
                                      status=round["status"], seed=round["boards_seed"],
                                      boards_released=round["boards_seed"] is not None)
        for match in round["matches"]:
            _write_match(stored, match, teams, players)
    return tournament


def _write_match(round: Round, match: dict[str, Any], teams: dict[int, Team],
                 players: dict[str, Player]) -> None:
    result = match["result"]
    status = (Match.Status.PENDING if result is None else
              Match.Status.DONE if result["confirmed"] else Match.Status.AWAITING)
    table = (Table.objects.create(round=round, number=match["table"])
             if match["table"] is not None else None)
    stored = Match.objects.create(
        round=round, table=table, team_a=teams[match["team_a"]],
        team_b=teams[match["team_b"]] if match["team_b"] is not None else None,
        is_bye=match["bye"], bot_opponent=match["bot_opponent"],
        bracket_slot=match["bracket_slot"], status=status,
        **({"seed": round.seed} if round.seed is not None else {}))
    Seat.objects.bulk_create(Seat(
        match=stored, round=round, position=seat["position"],
        player=players[seat["player"]] if seat["player"] is not None else None,
        bot_level=seat["bot"], substitute=seat["substitute"]) for seat in match["seats"])
    if result is not None:
        out_a, out_b = out_hands(result["out_seats"])
        Result.objects.create(
            match=stored, source=result["source"], confirmed=result["confirmed"],
            hand_scores=result["hand_scores"], out_seats=result["out_seats"],
            total_a=result["totals"][0], total_b=result["totals"][1], out_a=out_a,
            out_b=out_b, winner=result["winner"], decided_by=result["decided_by"])
