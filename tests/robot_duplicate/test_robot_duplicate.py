"""Robot duplicate events (robot_duplicate/services.py, selectors.py and the pure ranking in
tournaments/duplicate/robot.py): each entrant plays the event's boards at a table
of their own with bots in the other seats, within the window; the bots play alike at every
table; nothing shows until the window has closed and every table has finished; nobody
plays the boards twice; a board a bot finished for a person is marked and scored as the
event says."""

from __future__ import annotations

import random
from datetime import timedelta
from fractions import Fraction
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from games.live import director, service
from games.live.models import LiveSeat, LiveTable
from robot_duplicate import selectors, services
from robot_duplicate.models import RobotEntry, RobotEvent
from tests.tournaments.factories import UserFactory
from tournaments.duplicate.robot import EntryGame, ranking
from tournaments.services import TournamentUserError

# --- the pure ranking, worked by hand ---------------------------------------------------

# Three entrants' hand scores (theirs, the bots'); results (bots' minus theirs) per board:
#   A: 50 30 -40 20 -10   B: 50 -20 60 20 30   C: 10 40 60 -30 70
GAMES = [EntryGame(1, [(0, 50), (0, 30), (40, 0), (0, 20), (10, 0)], [False] * 5),
         EntryGame(2, [(0, 50), (20, 0), (0, 60), (0, 20), (0, 30)], [False] * 5),
         EntryGame(3, [(0, 10), (0, 40), (0, 60), (30, 0), (0, 70)],
                   [False, False, False, False, True])]


def test_entrants_are_ranked_on_matchpoints_in_the_one_direction_people_held() -> None:
    # matchpoints of 4 a board: A 3 2 0 3 0 = 8 (40%), B 3 0 3 3 2 = 11 (55%),
    # C 0 4 3 0 4 = 11 (55%): B and C share first place, A is third
    placings = ranking(GAMES, bot_boards_played=True)
    assert [(p.entry, p.rank, p.percentage, p.boards) for p in placings] == [
        (2, 1, 55, 5), (3, 1, 55, 5), (1, 3, 40, 5)]


def test_a_board_a_bot_finished_may_count_as_not_played() -> None:
    # C's board 5 left out: A and B compared between them there (Neuberg: 2 of 3 expected,
    # S = (3/2)(s + 1) - 1: A's 0 -> 1/2, B's 2 -> 7/2, of a top of 4).
    placings = {p.entry: p for p in ranking(GAMES, bot_boards_played=False)}
    assert placings[3].boards == 4 and placings[1].boards == placings[2].boards == 5
    a = (Fraction(3, 4) + Fraction(2, 4) + 0 + Fraction(3, 4) + Fraction(1, 8)) * 100 / 5
    b = (Fraction(3, 4) + 0 + Fraction(3, 4) + Fraction(3, 4) + Fraction(7, 8)) * 100 / 5
    c = (0 + 1 + Fraction(3, 4) + 0) * 100 / 4
    assert (placings[1].percentage, placings[2].percentage, placings[3].percentage) == (a, b, c)
    assert [p.entry for p in ranking(GAMES, bot_boards_played=False)] == [2, 3, 1]


# --- the event, on the database ---------------------------------------------------------



class Act:
    """A person's action, with the bots answering at once: ``capture`` is the on-commit hook
    (``captureOnCommitCallbacks``) that runs the work a service enqueues after its commit."""

    def __init__(self, capture: Any) -> None:
        self.capture = capture

    def __call__(self, table_id: int, seat: int, text: str, client_id: str) -> int:
        with self.capture(execute=True):
            return service.table_act(table_id, seat, text, client_id)

    def bot(self, table_id: int, seq: int) -> None:
        with self.capture(execute=True):
            assert service.bot_move(table_id, seq) is not None


@pytest.fixture
def act(eager_tasks: None, django_capture_on_commit_callbacks: Any, settings: Any) -> Act:
    """A person's action, with the bots answering at once (their tasks in-process)."""
    settings.LIVE_BOT_PAUSE_SECONDS = 0
    return Act(django_capture_on_commit_callbacks)


def open_event(**kwargs: Any) -> RobotEvent:
    now = timezone.now()
    organiser = UserFactory()
    event = RobotEvent.objects.create(**{
        "name": f"Robot {organiser.pk}", "opens": now - timedelta(hours=1),
        "closes": now + timedelta(hours=23), "bot_level": "greedy", "grace_seconds": None,
        **kwargs})
    event.organisers.add(organiser)
    return event


def person(name: str) -> Any:
    return get_user_model().objects.create_user(name, password=f"pw-{name}-123")


def play(table_id: int, act: Any, choose: random.Random, seats: tuple[int, ...] = (0,),
         hands: int = 5) -> None:
    """The people at ``seats`` play their turns (each a legal action ``choose`` picks, as a
    person might) until ``hands`` hands are over; a bot's turn left waiting is played as
    the worker would."""
    while True:
        table = LiveTable.objects.get(pk=table_id)
        if table.status != LiveTable.Status.PLAYING:
            return
        mover = service.to_move(table)
        assert mover is not None
        # its view now, with no events: from 0 each turn would read the whole game again
        view = service.update_since(table_id, mover, table.seq).view
        if len(view["scores"]) >= hands:
            return
        if mover in seats:
            act(table_id, mover, choose.choice(view["legal"]), f"p{table.seq}")
        else:
            act.bot(table_id, table.seq)


def enter_and_play(event: RobotEvent, user: Any, act: Any, strategy: int,
                   django_capture_on_commit_callbacks: Any, hands: int = 5) -> RobotEntry:
    with django_capture_on_commit_callbacks(execute=True):
        entry = services.robot_enter(event=event, user=user)
    assert entry.live_table_id is not None
    service.begin(entry.live_table_id)
    play(entry.live_table_id, act, random.Random(strategy), hands=hands)
    if hands < 5:  # the person leaves: their substitute finishes the game
        with django_capture_on_commit_callbacks(execute=True):
            director.pin(entry.live_table_id, 0)
    entry.refresh_from_db()
    return entry


@pytest.mark.django_db
def test_three_entrants_play_the_same_boards_and_are_ranked_once_the_window_closes(
        act: Any, django_capture_on_commit_callbacks: Any) -> None:
    event = open_event(bot_level="random")  # bots whose every move is drawn by chance
    anna, bea, cai = person("anna"), person("bea"), person("cai")
    first = enter_and_play(event, anna, act, 1, django_capture_on_commit_callbacks)
    table = LiveTable.objects.get(pk=first.live_table_id)
    assert table.seed == event.seed and table.reports_to == "robot-duplicate"
    seats = list(LiveSeat.objects.filter(table=table).order_by("seat"))
    assert [(s.user_id, s.bot) for s in seats] == [
        (anna.pk, ""), (None, "random"), (None, "random"), (None, "random")]
    assert first.finished is not None and len(first.hand_scores) == 5
    assert first.bot_hands == [False] * 5 and first.record is not None

    # the same person's choices at another table: the bots draw the same moves (their
    # chance comes from the deals and the turn), so the game is the same
    same = enter_and_play(event, bea, act, 1, django_capture_on_commit_callbacks)
    assert same.record["hands"] == first.record["hands"]
    # cai plays the first hand and leaves: a bot finishes the rest, marked
    left = enter_and_play(event, cai, act, 2, django_capture_on_commit_callbacks, hands=1)
    # marked: every later hand where cai's seat acted (a hand a bot goes out in before
    # seat 0's first turn has no action of cai's, so nobody finished it for them)
    acted = [any(a["seat"] == 0 for a in hand["actions"]) for hand in left.record["hands"]]
    assert left.finished is not None and acted[0] and any(acted[1:])
    assert left.bot_hands == [False, *acted[1:]]
    bot_boards = [n for n, by_bot in enumerate(left.bot_hands, start=1) if by_bot]

    # the window is open: nobody who played, nor anyone else, sees the boards' results
    for who in (anna, bea, cai, None):
        assert selectors.robot_hidden_from(event, who)
        client = Client()
        if who is not None:
            client.force_login(who)
        page = client.get(reverse("robot_duplicate:detail", args=[event.pk])).content.decode()
        assert "3 tables have finished" in page and "Board 1</th>" not in page
        other = same.live_table_id if who == anna else first.live_table_id
        assert client.get(f"/tables/{other}/").status_code == 403
    organiser = event.organisers.get()
    assert not selectors.robot_hidden_from(event, organiser)

    RobotEvent.objects.filter(pk=event.pk).update(closes=timezone.now() - timedelta(seconds=1))
    event.refresh_from_db()
    lines = selectors.robot_ranking(event)
    assert [line.entry.pk for line in lines if line.entry.pk != left.pk][0] in (first.pk, same.pk)
    by_entry = {line.entry.pk: line for line in lines}
    assert by_entry[first.pk].percentage == by_entry[same.pk].percentage  # alike, level
    assert by_entry[first.pk].rank == by_entry[same.pk].rank
    assert by_entry[left.pk].bot_boards == bot_boards
    assert all(len([s for s in line.boards if s is not None]) == 5 for line in lines)
    page = Client().get(reverse("robot_duplicate:detail", args=[event.pk])).content.decode()
    assert "Board 1</th>" in page and "cai" in page
    assert f'href="/tables/{first.live_table_id}/replay/">Replay</a>' in page
    assert Client().get(f"/tables/{first.live_table_id}/").status_code == 200

    # as not played, cai's boards the bot finished are left out (Neuberg for the rest)
    RobotEvent.objects.filter(pk=event.pk).update(bot_boards=RobotEvent.BotBoards.NOT_PLAYED)
    event.refresh_from_db()
    scored = {line.entry.pk: len([s for s in line.boards if s is not None])
              for line in selectors.robot_ranking(event)}
    assert scored == {first.pk: 5, same.pk: 5, left.pk: 5 - len(bot_boards)}


@pytest.mark.django_db
def test_nobody_plays_the_boards_twice_nor_outside_the_window(
        django_capture_on_commit_callbacks: Any) -> None:
    event = open_event(kind=RobotEvent.Kind.PAIRS)
    anna, bea, cai = person("anna"), person("bea"), person("cai")
    with pytest.raises(TournamentUserError, match="with a partner"):
        services.robot_enter(event=event, user=anna)
    with pytest.raises(TournamentUserError, match="another person"):
        services.robot_enter(event=event, user=anna, partner=anna)
    invitation = services.robot_enter(event=event, user=anna, partner=bea)
    assert invitation.awaiting_partner and invitation.live_table_id is None
    with django_capture_on_commit_callbacks(execute=True):
        entry = services.robot_answer(entry=invitation, user=bea, accept=True)
    assert entry is not None and not entry.awaiting_partner
    assert list(LiveSeat.objects.filter(table_id=entry.live_table_id).order_by("seat")
                .values_list("user_id", flat=True)) == [anna.pk, None, bea.pk, None]
    for user, partner, name in ((anna, cai, "anna"), (bea, cai, "bea")):
        with pytest.raises(TournamentUserError, match=f"{name} has already played"):
            services.robot_enter(event=event, user=user, partner=partner)
    with pytest.raises(TournamentUserError, match="No invitation was sent: “bea”"):
        services.robot_enter(event=event, user=cai, partner=bea)
    with pytest.raises(TournamentUserError, match="organiser"):
        services.robot_enter(event=event, user=event.organisers.get(), partner=cai)
    assert RobotEntry.objects.count() == 1 and LiveTable.objects.count() == 1

    RobotEvent.objects.filter(pk=event.pk).update(closes=timezone.now())
    event.refresh_from_db()
    with pytest.raises(TournamentUserError, match="has closed"):
        services.robot_enter(event=event, user=cai, partner=person("dan"))
    later = open_event(opens=timezone.now() + timedelta(hours=1),
                       closes=timezone.now() + timedelta(hours=2))
    with pytest.raises(TournamentUserError, match="opens at"):
        services.robot_enter(event=later, user=cai)
    assert RobotEntry.objects.count() == 1


@pytest.mark.django_db
def test_the_play_button_says_what_is_wrong_and_changes_nothing() -> None:
    event = open_event(kind=RobotEvent.Kind.PAIRS)
    anna = person("anna")
    client = Client()
    url = reverse("robot_duplicate:play", args=[event.pk])
    response = client.post(url)
    assert response.status_code == 302 and reverse("login") in response["Location"]
    client.force_login(anna)
    response = client.post(url, {"partner": "nobody-here"})
    assert response.status_code == 400
    assert "No invitation was sent: “nobody-here” is not someone" in response.content.decode()
    response = client.post(url, {"partner": "a\x00b"})
    assert response.status_code == 400
    assert "Partner: Null characters are not allowed." in response.content.decode()
    response = client.post(url)
    assert response.status_code == 400 and "name yours" in response.content.decode()
    assert client.get(url).status_code == 405
    assert not RobotEntry.objects.exists()
