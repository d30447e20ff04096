"""Reads the round services build on: a tournament as its format reads it, how many rounds it
has, the pairs of teams its organiser asks to keep apart, and the matches bots play alone.
The services pair and close rounds with these; the pages and the API show them."""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Sequence

from django.db.models import F, QuerySet

from tournaments.formats import Pairing, PlayedMatch, TournamentFormat
from tournaments.formats.swiss import SwissEntry
from tournaments.models import Entry, ForbiddenPairing, Job, Match, Round, Standing, Tournament

#: two teams, in no order
TeamPair = frozenset[int]


class StoredTournament:
    """A tournament as its format reads it (``formats.TournamentData``), from the database,
    each part read once when first asked."""

    def __init__(self, tournament: Tournament) -> None:
        self.tournament = tournament
        self._seeds: list[int] | None = None
        self._swiss: list[SwissEntry] | None = None
        self._played: list[PlayedMatch] | None = None
        self._rounds: list[list[Pairing]] | None = None

    @property
    def settings(self) -> Tournament:
        return self.tournament

    def seeds(self) -> list[int]:
        if self._seeds is None:
            self._seeds = seeded_team_ids(self.tournament)
        return self._seeds

    def swiss_teams(self) -> list[SwissEntry]:
        if self._swiss is None:
            self._swiss = swiss_entries(self.tournament)
        return self._swiss

    def played(self) -> Sequence[PlayedMatch]:
        """Confirmed results only: who advances never rests on one still open to dispute."""
        if self._played is None:
            rows = (Match.objects.filter(round__tournament=self.tournament, is_bye=False,
                                         team_b__isnull=False, result__confirmed=True)
                    .values_list("round__number", "bracket_slot", "team_a_id", "team_b_id",
                                 "result__hand_scores"))
            self._played = [PlayedMatch((number, slot or 0), home, away,
                                        tuple((a, b) for a, b in scores))
                            for number, slot, home, away, scores in rows]
        return self._played

    def rounds(self) -> list[list[Pairing]]:
        if self._rounds is None:
            self._rounds = paired_rounds(Match.objects.filter(round__tournament=self.tournament))
        return self._rounds


def swiss_entries(tournament: Tournament) -> list[SwissEntry]:
    """Every entered team as Swiss pairs it: its points, past opponents, byes, whether it
    withdrew, and the teams it is to be kept apart from (``kept_apart_pairs``)."""
    points = dict(Standing.objects.filter(tournament=tournament, round_number=0)
                  .values_list("team_id", "points"))
    opponents: dict[int, set[int]] = {}
    byes: dict[int, int] = {}
    # annotated: the plugin types a nullable foreign key's column as never null
    pairs: Iterable[tuple[int, int | None]] = Match.objects.filter(
        round__tournament=tournament).values_list("team_a_id", "team_b_id")
    for home, away in pairs:
        if away is None:  # a bye, or a game against the house bot team
            byes[home] = byes.get(home, 0) + 1
            continue
        opponents.setdefault(home, set()).add(away)
        opponents.setdefault(away, set()).add(home)
    avoid: dict[int, set[int]] = {}
    for first, second in kept_apart_pairs(tournament):
        avoid.setdefault(first, set()).add(second)
        avoid.setdefault(second, set()).add(first)
    return [SwissEntry(e.team_id, float(points.get(e.team_id, 0)), e.seed or 10**6 + e.pk,
                       frozenset(opponents.get(e.team_id, ())), byes.get(e.team_id, 0),
                       e.withdrawn, frozenset(avoid.get(e.team_id, ())))
            for e in Entry.objects.filter(tournament=tournament)]


def kept_apart_pairs(tournament: Tournament) -> set[TeamPair]:
    """The pairs of teams the organiser asks the tournament's draws to keep apart: its
    pairings to avoid, and every two entered teams sharing a club it keeps apart (a team
    belongs to its own club if it has one, else to its players' clubs). Three queries at
    most, whatever the field."""
    pairs = {frozenset(pair) for pair in ForbiddenPairing.objects.filter(tournament=tournament)
             .values_list("team_a_id", "team_b_id")}
    clubs = set(tournament.keep_apart_clubs.values_list("pk", flat=True))
    if not clubs:
        return pairs
    members: dict[int, list[int]] = {}
    # annotated: the plugin types a nullable foreign key's column as never null
    rows: Iterable[tuple[int, int | None, int | None, int | None]] = (
        Entry.objects.filter(tournament=tournament).order_by("team_id")
        .values_list("team_id", "team__club_id", "team__player_a__club_id",
                     "team__player_b__club_id"))
    for team, own, club_a, club_b in rows:
        belongs = {own} if own is not None else {c for c in (club_a, club_b) if c is not None}
        for club in belongs & clubs:
            members.setdefault(club, []).append(team)
    pairs.update(frozenset(pair) for teams in members.values()
                 for pair in itertools.combinations(teams, 2))
    return pairs


def paired_rounds(matches: QuerySet[Match]) -> list[list[Pairing]]:
    """``matches`` as pairings, one list a round in round order (a round number with no
    match is not a round), each in table order with its byes last."""
    rounds: dict[int, list[Pairing]] = {}
    # annotated: the plugin types a nullable foreign key's column as never null
    rows: Iterable[tuple[int, int, int | None, bool]] = (
        matches.order_by("round__number", F("table__number").asc(nulls_last=True), "pk")
        .values_list("round__number", "team_a_id", "team_b_id", "bot_opponent"))
    for number, home, away, bot in rows:
        rounds.setdefault(number, []).append(Pairing(home, away, against_bot=bot and away is None))
    return [rounds[number] for number in sorted(rounds)]


def seeded_team_ids(tournament: Tournament) -> list[int]:
    """The teams still in the tournament, best seed first."""
    entries = Entry.objects.filter(tournament=tournament, withdrawn=False)
    return [e.team_id for e in entries.order_by("seed", "id")]


def tournament_format(tournament: Tournament) -> tuple[TournamentFormat, StoredTournament]:
    """The tournament's format and what it reads, for one question or several."""
    return tournament.format_spec, StoredTournament(tournament)


def rounds_total(tournament: Tournament) -> int:
    """How many rounds the tournament has (``PairingError`` when its format cannot say yet,
    e.g. a bracket for fewer than two teams)."""
    spec, data = tournament_format(tournament)
    return spec.rounds_total(data)


def round_bot_match_ids(round: Round) -> list[int]:
    """The matches of a published round with bots in every seat and no result yet. A match
    at a live table is its table's to play, even once bots hold every seat there (its
    players marked absent after it opened): its result comes from that game alone."""
    if round.status != Round.Status.PUBLISHED:
        return []
    return list(Match.objects.filter(round=round, is_bye=False, result__isnull=True,
                                     live_table__isnull=True)
                .exclude(seats__player__isnull=False).values_list("pk", flat=True))


def round_job_kind(round: Round) -> str:
    """The kind of the job that plays a round's bot matches (one kind a round)."""
    return f"play round {round.number}"


def round_job(round: Round) -> Job | None:
    """The newest job that plays the round's bot matches."""
    return (Job.objects.filter(tournament_id=round.tournament_id, kind=round_job_kind(round))
            .first())
