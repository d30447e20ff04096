"""The demo league ``make run`` starts with: an organiser, eight teams, a Swiss tournament
with rounds already played by bots, and the next round paired and published."""

from __future__ import annotations

import random
import secrets
from dataclasses import dataclass

from django.contrib.auth import get_user_model
from django.db import transaction

from games.bots import make_bot
from games.engine.play import deal_from_seed, play_game
from tournaments import services
from tournaments.models import Absence, Entry, Match, Player, Team, Tournament

DEMO_NAME = "Demo league"
ORGANISER = "organiser"
PLAYERS = ["Aino", "Bo", "Cai", "Dana", "Eero", "Frida", "Gus", "Hilla", "Iida", "Jon", "Kaisa",
           "Leo", "Mika", "Noor", "Olli", "Pia"]
TEAMS = ["Jokers Wild", "Push Pull", "Two Up", "Deadwood", "Long Runs", "Set Piece",
         "Stock Brokers", "Discard Pile"]
PLAYED_ROUNDS = 3


@dataclass(frozen=True)
class DemoLogin:
    username: str
    password: str
    created: bool


def demo_setup(*, seed: int = 2026) -> DemoLogin:
    """Create the demo league once (later calls leave it as it is) and return a working
    organiser login: the password is new each time, as it is never stored in clear."""
    login = _organiser_login()
    if not Tournament.objects.filter(name=DEMO_NAME).exists():
        _build(seed)
        return DemoLogin(login.username, login.password, True)
    return login


def _organiser_login() -> DemoLogin:
    user, _ = get_user_model().objects.get_or_create(
        username=ORGANISER, defaults={"is_staff": True, "is_superuser": True})
    password = secrets.token_urlsafe(9)
    user.set_password(password)
    user.save()
    return DemoLogin(ORGANISER, password, False)


def _build(seed: int) -> None:
    rng = random.Random(seed)
    organiser = get_user_model().objects.get(username=ORGANISER)
    with transaction.atomic():
        players = [Player.objects.create(name=name) for name in PLAYERS]
        tournament = Tournament.objects.create(
            name=DEMO_NAME, format=Tournament.Format.SWISS, rounds_planned=5,
            bye_policy=Tournament.ByePolicy.BOT, bot_level="greedy",
            tiebreaks=["score_diff", "buchholz", "head_to_head"])
        tournament.organisers.add(organiser)
        for seed_no, name in enumerate(TEAMS, start=1):
            team = Team.objects.create(name=name, player_a=players[2 * seed_no - 2],
                                       player_b=players[2 * seed_no - 1])
            Entry.objects.create(tournament=tournament, team=team, seed=seed_no)
    for number in range(1, PLAYED_ROUNDS + 2):
        for player in rng.sample(players, 3):  # some players miss each round
            Absence.objects.create(tournament=tournament, round_number=number, player=player)
        round = services.round_pair_next(tournament=tournament, user=organiser)
        services.round_publish(round=round, user=organiser)  # starts the all-bot matches
        if number > PLAYED_ROUNDS:
            break  # the next round waits to be played
        for match in round.matches.filter(is_bye=False).prefetch_related("seats"):
            _play(match, organiser)
        services.round_complete(round=round, user=organiser)  # the ratings follow


def _play(match: Match, organiser: object) -> None:
    """Every all-bot match is played (here, unless a worker already has: the match row is
    locked while it is played, so it is played once); at the other tables bots play in the
    players' seats, and the organiser uploads the game record, as from a real table."""
    seats = sorted(match.seats.all(), key=lambda s: s.position)
    if all(seat.is_bot for seat in seats):
        services.match_play_bots(match_id=match.pk)
        return
    bots = [make_bot("greedy", match.pk * 4 + s.position) for s in seats]
    first_dealer, decks = deal_from_seed(match.seed)  # the match's own deals
    record = play_game(bots, first_dealer, decks, players=[s.player.name if s.player else str(s)
                                                             for s in seats])
    services.match_submit_record(match=match, record=record.to_json(), user=organiser)
