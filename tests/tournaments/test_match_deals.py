"""A record belongs to its match: each match's deals are fixed when it is paired,
an uploaded record must be played on them (or, where the venue deals, the other team
confirms it), and only the tournament's organisers see the deals, to print them."""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from typing import Any

import pytest
from django.apps import apps
from django.core.exceptions import PermissionDenied
from django.test import Client

from games.bots import make_bot
from games.engine import deal_from_seed, play_game
from tournaments import services
from tournaments.models import Match, Result, Tournament

from .factories import UserFactory, tournament_with_teams
from .test_admin import logged_in, published_round, said, url
from .test_results import database_state

pytestmark = pytest.mark.django_db


def played_on(seed: int, first_dealer: int | None = None) -> dict[str, Any]:
    """A complete legal record, no player names, on the deals of ``seed`` (with another
    first dealer if given)."""
    dealer, decks = deal_from_seed(seed)
    return play_game([make_bot("random", seat) for seat in range(4)],
                     dealer if first_dealer is None else first_dealer, decks).to_json()


def seated(match: Match, position: int) -> Any:
    """The user account of the player in ``position`` (made here)."""
    player = match.seats.get(position=position).player
    player.user = UserFactory(is_staff=False)
    player.save()
    return player.user


@dataclass
class Cup:
    organiser: Any
    tournament: Tournament
    match: Match
    other: Match  # another match of the same round

    def player(self, position: int) -> Any:
        return seated(self.match, position)


def cup(**settings: Any) -> Cup:
    organiser = UserFactory()
    tournament = tournament_with_teams(4, organisers=[organiser], **settings)
    match, other = published_round(tournament).matches.all()
    return Cup(organiser, tournament, match, other)


def test_each_match_is_dealt_at_pairing_from_a_seed_of_its_own() -> None:
    game = cup()
    seeds = {game.match.seed, game.other.seed}
    assert len(seeds) == 2 and {game.match.pk, game.other.pk}.isdisjoint(seeds)
    assert all(0 <= seed < 2**63 for seed in seeds)


def test_bots_play_a_match_on_its_own_deals() -> None:
    organiser = UserFactory()
    tournament = tournament_with_teams(2, organisers=[organiser])
    for player in {p for e in tournament.entries.all() for p in (e.team.player_a,
                                                                  e.team.player_b)}:
        tournament.absences.create(round_number=1, player=player)
    match = published_round(tournament).matches.get()
    result = services.match_play_bots(match_id=match.pk)
    first_dealer, decks = deal_from_seed(match.seed)
    assert result is not None and result.record["first_dealer"] == first_dealer
    assert [hand["deck"] for hand in result.record["hands"]] == [
        [card.code for card in deck] for deck in decks]


def test_another_matchs_record_is_refused_naming_the_pack_and_stores_nothing() -> None:
    game = cup()
    copied = played_on(game.other.seed)  # the other match's game, its names dropped
    player = game.player(0)
    before = database_state()
    with pytest.raises(services.ResultRejected) as refused:
        services.match_submit_record(match=game.match, record=copied, user=player)
    assert str(refused.value) == ("hand 1: the pack is not the one this match was dealt: a "
                                  "record must be played on its match's own deals (R4.1)")
    assert refused.value.verdict == "wrong_deal"
    assert database_state() == before


def test_a_record_on_the_matchs_packs_but_another_first_dealer_is_refused() -> None:
    game = cup()
    dealer = (deal_from_seed(game.match.seed)[0] + 1) % 4
    with pytest.raises(services.ResultRejected, match=f"the first dealer is seat {dealer}, "):
        services.match_submit_record(match=game.match, record=played_on(game.match.seed, dealer),
                                     user=game.organiser)
    assert not Result.objects.exists()


def test_a_record_on_the_matchs_own_deals_is_accepted_and_final() -> None:
    game = cup()
    result = services.match_submit_record(match=game.match, record=played_on(game.match.seed),
                                          user=game.player(1))
    assert result.confirmed and result.source == Result.Source.RECORD
    assert Match.objects.get(pk=game.match.pk).status == Match.Status.DONE


def test_where_the_tournament_asks_a_players_record_waits_and_an_organiser_confirms() -> None:
    game = cup(confirm_score_sheets=True)
    result = services.match_submit_record(match=game.match, record=played_on(game.match.seed),
                                          user=game.player(0))
    assert not result.confirmed
    assert Match.objects.get(pk=game.match.pk).status == Match.Status.AWAITING
    services.result_confirm(result=result, user=game.organiser)
    result.refresh_from_db()
    assert result.confirmed and result.confirmed_by == game.organiser


def test_at_a_venue_any_packs_are_accepted_but_wait_for_the_other_team() -> None:
    game = cup(dealing=Tournament.Dealing.VENUE)
    submitter, partner, opponent = game.player(0), game.player(2), game.player(3)
    result = services.match_submit_record(match=game.match, record=played_on(5),
                                          user=submitter)
    assert not result.confirmed
    assert Match.objects.get(pk=game.match.pk).status == Match.Status.AWAITING

    waiting = database_state()
    for same_team in (submitter, partner):
        with pytest.raises(PermissionDenied, match="only a result the other team entered"):
            services.result_confirm(result=result, user=same_team)
    assert database_state() == waiting

    services.result_confirm(result=result, user=opponent)
    result.refresh_from_db()
    assert result.confirmed and result.confirmed_by == opponent
    assert Match.objects.get(pk=game.match.pk).status == Match.Status.DONE


def test_at_a_venue_an_organisers_record_is_final() -> None:
    game = cup(dealing=Tournament.Dealing.VENUE)
    result = services.match_submit_record(match=game.match, record=played_on(5),
                                          user=game.organiser)
    assert result.confirmed


def test_a_player_of_another_match_cannot_confirm() -> None:
    game = cup(dealing=Tournament.Dealing.VENUE)
    result = services.match_submit_record(match=game.match, record=played_on(5),
                                          user=game.player(0))
    with pytest.raises(PermissionDenied):
        services.result_confirm(result=result, user=seated(game.other, 1))
    result.refresh_from_db()
    assert not result.confirmed


# the deals page


def deals_page(client: Client, obj: Any) -> Any:
    return client.get(url(f"{obj._meta.model_name}_deals", obj.pk))


def pack_text(seed: int, hand: int) -> str:
    pack = deal_from_seed(seed)[1][hand - 1]
    return "".join(f"<li>{card.code}</li>" for card in pack)


def test_the_organiser_prints_a_matchs_and_a_rounds_deals_in_dealing_order() -> None:
    game = cup()
    page = deals_page(logged_in(game.organiser), game.match).content.decode()
    first_dealer = deal_from_seed(game.match.seed)[0]
    assert f"First dealer: seat {first_dealer}" in page
    for hand in range(1, 6):
        assert pack_text(game.match.seed, hand) in page
        assert f"Hand {hand}: seat {(first_dealer + hand - 1) % 4} deals" in page
    assert pack_text(game.other.seed, 1) not in page

    round_page = deals_page(logged_in(game.organiser), game.match.round).content.decode()
    assert pack_text(game.match.seed, 5) in round_page
    assert pack_text(game.other.seed, 5) in round_page
    change = logged_in(game.organiser).get(url("round_change", game.match.round_id))
    assert url("round_deals", game.match.round_id) in change.content.decode()


def test_no_one_but_the_tournaments_organisers_reaches_the_deals() -> None:
    game = cup()
    secret = pack_text(game.match.seed, 1)
    player = game.player(0)
    player.is_staff = True  # even a player who may use the admin
    player.save()
    another_organiser = UserFactory()
    tournament_with_teams(2, organisers=[another_organiser])
    for client in (Client(), logged_in(game.player(1)), logged_in(player),
                   logged_in(another_organiser)):
        for obj in (game.match, game.match.round):
            response = deals_page(client, obj)
            assert response.status_code == 302 and secret not in response.content.decode()
    assert secret not in logged_in(another_organiser).get(
        url("match_change", game.match.pk), follow=True).content.decode()


def test_an_organiser_who_plays_sees_no_deals_of_their_own_match_before_its_result() -> None:
    game = cup()
    organiser_player = game.player(0)
    organiser_player.is_staff = True
    organiser_player.save()
    game.tournament.organisers.add(organiser_player)
    page = deals_page(logged_in(organiser_player), game.match.round).content.decode()
    assert pack_text(game.match.seed, 1) not in page
    assert pack_text(game.other.seed, 1) in page
    assert "Left out: a match you play in" in page

    services.match_submit_record(match=game.match, record=played_on(game.match.seed),
                                 user=game.organiser)
    page = deals_page(logged_in(organiser_player), game.match).content.decode()
    assert pack_text(game.match.seed, 1) in page


def test_a_tournament_dealt_at_the_venue_has_no_deals_page() -> None:
    game = cup(dealing=Tournament.Dealing.VENUE)
    client = logged_in(game.organiser)
    response = deals_page(client, game.match)
    assert response.status_code == 302
    assert "is dealt at the venue" in said(client.get(response.url))
    change = client.get(url("match_change", game.match.pk))
    assert url("match_deals", game.match.pk) not in change.content.decode()


def test_the_migration_keeps_a_played_matchs_deals_and_deals_the_others_afresh() -> None:
    migration = importlib.import_module("tournaments.migrations.0003_match_deals")
    game = cup()
    services.match_submit_score_sheet(match=game.match, hand_scores=[[0, 50]] * 5,
                                      out_seats=[0] * 5, user=game.organiser)
    Match.objects.update(seed=0)  # as the column is added, before the data step
    migration.give_seeds(apps, None)
    played, pending = (Match.objects.get(pk=m.pk) for m in (game.match, game.other))
    assert played.seed == played.pk  # bot games were dealt from the pk
    assert pending.seed not in (0, pending.pk)
