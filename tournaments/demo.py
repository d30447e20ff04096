"""The demo league ``make run`` starts with: an organiser (not a superuser) and a superuser,
eight teams, a Swiss tournament with rounds already played by bots, and the next round
paired and published; and an online cup whose first round is open at a live table, where
two player logins sit as opponents (bots in the other seats), so a newcomer can open two
browsers and play a tournament match against themselves within a minute. The table waits
for them: its clocks, bots and substitutes start when the first of the two sits down. And a
scheduled cup of bots, whose rounds start by themselves a few minutes after the demo is
built, one after the other; it takes entries until its first round's check-in opens, so
the two player logins can enter it together and watch its notifications come by mail (to
their confirmed addresses: the console, under ``make run``).
Other apps add their own parts (``on_new_demo``): a robot duplicate event, say."""

from __future__ import annotations

import random
import secrets
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import TYPE_CHECKING

from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone

from games.bots import make_bot
from games.engine.play import deal_from_seed, play_game
from games.live.models import LiveTable
from tournaments import services
from tournaments.models import (
    Absence,
    Division,
    Entry,
    League,
    MailAddress,
    Match,
    Player,
    Schedule,
    Season,
    Team,
    Tournament,
)
from tournaments.selectors.entries import entries_open_now
from tournaments.services import leagues

if TYPE_CHECKING:
    from django.contrib.auth.models import User

DEMO_NAME = "Demo league"
ORGANISER = "organiser"  # staff, organises the demo league: the scoped view a newcomer sees
SUPERUSER = "admin"  # sees and changes everything
PLAYERS = ["Aino", "Bo", "Cai", "Dana", "Eero", "Frida", "Gus", "Hilla", "Iida", "Jon", "Kaisa",
           "Leo", "Mika", "Noor", "Olli", "Pia"]
TEAMS = ["Jokers Wild", "Push Pull", "Two Up", "Deadwood", "Long Runs", "Set Piece",
         "Stock Brokers", "Discard Pile"]
PLAYED_ROUNDS = 3
ONLINE_NAME = "Demo online cup"
SCHEDULED_NAME = "Demo scheduled cup"
#: The scheduled cup's first round starts this long after the demo is built; the next ones
#: follow each other's end by themselves (bots play every seat of its own teams, at full
#: speed). Its entries are open from the start until round 1's check-in opens, which it
#: does this many minutes before each round: time enough for a newcomer to log in twice,
#: ask a partner and accept.
SCHEDULED_START = timedelta(minutes=8)
SCHEDULED_CHECK_IN_MINUTES = 3
SCHEDULED_INTERVAL_MINUTES = 2
SCHEDULED_PLACES = 8
LEAGUE_NAME = "Demo Push League"
#: The player logins of the online cup: each holds its player's seat at the cup's table.
PLAYER_LOGINS = {"aino": "Aino", "cai": "Cai"}
#: The player logins' confirmed mail addresses are the login at this (reserved) domain.
MAIL_DOMAIN = "example.org"


#: What another app adds to a new demo (the robot duplicate's event), called with the
#: organiser's login once the league is built.
DemoPart = Callable[["User"], None]
_PARTS: list[DemoPart] = []


def on_new_demo(build: DemoPart) -> None:
    """Call ``build`` when ``demo_setup`` builds the demo league; an app registers it in its
    ``AppConfig.ready()``, so that tournaments needs to know none of the apps beside it."""
    if build not in _PARTS:
        _PARTS.append(build)


@dataclass(frozen=True)
class DemoLogin:
    username: str
    password: str | None  # None: kept as it was (set earlier, perhaps changed by the user)
    superuser: bool
    staff: bool = True  # False: a player's login, for the site's pages and tables


@dataclass(frozen=True)
class DemoSetup:
    created: bool  # the league was built by this call
    logins: list[DemoLogin]
    #: until when the scheduled cup takes entries (None: it takes none any more)
    entries_close: datetime | None = None


def demo_setup(*, seed: int = 2026, new_passwords: bool = False,
               restart_online: bool = False) -> DemoSetup:
    """Create the demo league once (later calls leave it as it is) and its logins: an
    organiser who is not a superuser, a superuser, and the online cup's players. A login
    gets a new random password when it is created (or with ``new_passwords``); otherwise
    its password stays, so one the user changed survives. Passwords are never stored in
    clear. ``restart_online``: the online cup's match is dealt afresh and waits for its
    people again (``setup_demo --restart-online``)."""
    logins = [_login(ORGANISER, superuser=False, new_password=new_passwords),
              _login(SUPERUSER, superuser=True, new_password=new_passwords)]
    logins += [_login(username, superuser=False, staff=False, new_password=new_passwords)
               for username in PLAYER_LOGINS]
    created = not Tournament.objects.filter(name__iexact=DEMO_NAME).exists()
    if created:
        _build(seed)
        _build_league()
        # names are unique: an online cup kept from an earlier demo stays as it is
        if not Tournament.objects.filter(name__iexact=ONLINE_NAME).exists():
            _build_online()
        if not Tournament.objects.filter(name__iexact=SCHEDULED_NAME).exists():
            _build_scheduled()
        _confirm_mail_addresses()
        organiser = get_user_model().objects.get(username=ORGANISER)
        for build in _PARTS:
            build(organiser)
    if restart_online:
        _restart_online()
    cup = Tournament.objects.filter(name__iexact=SCHEDULED_NAME).first()
    closes = cup.entries_close if cup is not None and entries_open_now(cup) else None
    return DemoSetup(created, logins, closes)


def _restart_online() -> None:
    """The online cup built afresh: its table, waiting again for its two people, dealt
    anew; whatever was played at the old one goes with it."""
    with transaction.atomic():
        old = Tournament.objects.filter(name__iexact=ONLINE_NAME)
        tables = list(Match.objects.filter(round__tournament__in=old, live_table__isnull=False)
                      .values_list("live_table_id", flat=True))
        old.delete()
        LiveTable.objects.filter(pk__in=tables).delete()
        _build_online()


def _login(username: str, *, superuser: bool, new_password: bool,
           staff: bool = True) -> DemoLogin:
    user, made = get_user_model().objects.get_or_create(username=username)
    user.is_staff, user.is_superuser, user.is_active = staff, superuser, True
    password = None
    if made or new_password or not user.has_usable_password():
        password = secrets.token_urlsafe(9)
        user.set_password(password)
    user.save()
    return DemoLogin(username, password, superuser, staff)


def _build_online() -> None:
    """The online cup: the teams of the two player logins, round 1 published, so its one
    table is open with the two logins as opponents (seats 0 and 1) and bots as partners."""
    organiser = get_user_model().objects.get(username=ORGANISER)
    players = {player.name: player for player in Player.objects.filter(
        name__in=PLAYER_LOGINS.values())}
    with transaction.atomic():
        tournament = Tournament.objects.create(
            name=ONLINE_NAME, format=Tournament.Format.ROUND_ROBIN, play=Tournament.Play.ONLINE,
            bot_level="greedy", wait_for_players=True)  # played when a newcomer sits down
        tournament.organisers.add(organiser)
        for seed_no, (username, name) in enumerate(PLAYER_LOGINS.items(), start=1):
            player = players[name]
            player.user = get_user_model().objects.get(username=username)
            player.save(update_fields=["user"])
            team = Team.objects.get(player_a=player)
            Entry.objects.create(tournament=tournament, team=team, seed=seed_no)
    round = services.round_pair_next(tournament=tournament, user=organiser)
    services.round_publish(round=round, user=organiser)  # opens the live table


def _build_scheduled() -> None:
    """The scheduled cup: a Swiss of the six demo teams without a login among them (so bots
    play every seat, at full speed), its first round a few minutes after the demo is built
    and each next one a couple of minutes after the last table of the one before finished;
    Celery beat's tick (in ``make run``'s own process) runs it. It is open for entries until
    round 1's check-in opens, with places for two teams more (the player logins' own, with
    a bot team for an odd one out), and its players check in for each round: who has not
    plays by bot."""
    organiser = get_user_model().objects.get(username=ORGANISER)
    logged_in = Player.objects.filter(user__isnull=False)
    teams = (Team.objects.filter(name__in=TEAMS).exclude(player_a__in=logged_in)
             .exclude(player_b__in=logged_in).order_by("pk"))
    now = timezone.now()
    starts = now + SCHEDULED_START
    with transaction.atomic():
        tournament = Tournament.objects.create(
            name=SCHEDULED_NAME, format=Tournament.Format.SWISS, rounds_planned=3,
            play=Tournament.Play.ONLINE, bot_level="greedy",
            bye_policy=Tournament.ByePolicy.BOT, tiebreaks=["score_diff", "buchholz"],
            entry_mode=Tournament.EntryMode.OPEN, entries_open=now,
            entries_close=starts - timedelta(minutes=SCHEDULED_CHECK_IN_MINUTES),
            capacity=SCHEDULED_PLACES, check_in_required=True)
        tournament.organisers.add(organiser)
        for seed_no, team in enumerate(teams, start=1):
            Entry.objects.create(tournament=tournament, team=team, seed=seed_no)
        services.schedule_save(schedule=Schedule(
            tournament=tournament, time_zone="Europe/Helsinki", starts_at=starts,
            interval_minutes=SCHEDULED_INTERVAL_MINUTES,
            check_in_opens_minutes=SCHEDULED_CHECK_IN_MINUTES, round_minutes=30,
            at_deadline=Schedule.AtDeadline.BOTS), user=organiser)


def _confirm_mail_addresses() -> None:
    """The player logins get their notifications by mail: an address each, confirmed,
    where they have none (mail under ``make run`` is printed to its console)."""
    for user in get_user_model().objects.filter(username__in=PLAYER_LOGINS,
                                                mail_address__isnull=True):
        email = f"{user.username}@{MAIL_DOMAIN}"
        MailAddress.objects.create(user=user, email=email, confirmed=timezone.now())
        get_user_model().objects.filter(pk=user.pk).update(email=email)


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


def _build_league() -> None:
    """The demo's league: a finished season of two divisions (round robins of four, played
    by bots), and the current season drafted from it (one team up, one down) and confirmed,
    its divisions waiting for their first round."""
    organiser = get_user_model().objects.get(username=ORGANISER)
    teams = [Team.objects.get(name=name) for name in TEAMS]
    with transaction.atomic():
        league = League.objects.create(
            name=LEAGUE_NAME, slug="demo", promote=1, relegate=1,
            description="Two divisions of four teams; each season the winner of division 2 "
                        "goes up and the last of division 1 goes down.")
        league.organisers.add(organiser)
        season = Season.objects.create(league=league, number=1, name="Season 1")
        divisions = []
        for level in (1, 2):
            tournament = Tournament.objects.create(
                name=f"{LEAGUE_NAME} · Season 1 · Division {level}",
                format=Tournament.Format.ROUND_ROBIN, bot_level="greedy",
                tiebreaks=["score_diff", "head_to_head"])
            tournament.organisers.add(organiser)
            Division.objects.create(season=season, tournament=tournament, level=level)
            for seed_no, team in enumerate(teams[4 * level - 4:4 * level], start=1):
                Entry.objects.create(tournament=tournament, team=team, seed=seed_no)
            divisions.append(tournament)
    for tournament in divisions:
        for _number in range(3):  # a round robin of four: three rounds
            round = services.round_pair_next(tournament=tournament, user=organiser)
            services.round_publish(round=round, user=organiser)
            for match in round.matches.filter(is_bye=False).prefetch_related("seats"):
                _play(match, organiser)
            services.round_complete(round=round, user=organiser)
    draft = leagues.season_draft_next(season=season, user=organiser)
    leagues.season_confirm(season=draft, user=organiser)


def _play(match: Match, organiser: User) -> None:
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
