"""Players entering by themselves (services.entries): the ask, the partner's answer, the
places, the waiting list, approval, withdrawing; every refusal says why and stores
nothing."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.utils import timezone

from tournaments import services
from tournaments.models import Entry, EntryRequest, Notification, Team, Tournament
from tournaments.notice_words import notice_text

from .entering import enter_team, open_tournament, player_with_login, stored
from .factories import TeamFactory, UserFactory

pytestmark = pytest.mark.django_db

State = EntryRequest.State


def refused(tournament: Tournament, message: str, step: object) -> None:
    """``step()`` is refused with ``message`` (a part of it) and the database is as before."""
    before = stored(tournament)
    with pytest.raises(services.TournamentUserError) as caught:
        step()  # type: ignore[operator]
    assert message in str(caught.value)
    assert stored(tournament) == before


# ---------------------------------------------------------------- the ask and the answer


def test_it_enters_a_team_only_when_the_partner_accepts() -> None:
    tournament = open_tournament()
    aino, bo = player_with_login("Aino"), player_with_login("Bo")

    ask = services.entry_ask(tournament=tournament, partner_handle=f"@{bo[0].handle}",
                             user=aino[1])

    assert ask.state == State.ASKED and not Entry.objects.filter(tournament=tournament)
    told = Notification.objects.get(user=bo[1])
    assert told.kind == Notification.Kind.PARTNER_ASKS
    assert told.link == f"/entries/{ask.pk}/"
    assert told.params["asker"] == "Aino" and told.params["tournament"] == tournament.name

    done = services.entry_answer(request=ask, accept=True, user=bo[1])

    assert done.state == State.ENTERED
    entry = Entry.objects.get(tournament=tournament)
    assert {entry.team.player_a, entry.team.player_b} == {aino[0], bo[0]}
    assert entry.team.name == "Aino & Bo"
    for user in (aino[1], bo[1]):
        assert Notification.objects.get(user=user, kind=Notification.Kind.ENTRY
                                        ).params["state"] == "entered"


def test_the_notifications_of_an_entry_say_who_asks_and_what_became_of_it() -> None:
    """The page, the websocket push and the mail word a notification from its values
    (notice_words): the ask names the asker, the answer says the team is entered."""
    tournament = open_tournament(name="Spring Pairs")
    aino, bo = player_with_login("Aino"), player_with_login("Bo")

    enter_team(tournament, aino, bo)

    asked = Notification.objects.get(user=bo[1], kind=Notification.Kind.PARTNER_ASKS)
    assert notice_text(asked.kind, asked.params) == \
        "Aino asks you to enter Spring Pairs with them."
    for user in (aino[1], bo[1]):
        entered = Notification.objects.get(user=user, kind=Notification.Kind.ENTRY)
        assert notice_text(entered.kind, entered.params) == \
            "The entry of Aino & Bo to Spring Pairs is accepted."


def test_it_uses_the_two_players_existing_team() -> None:
    tournament = open_tournament()
    aino, bo = player_with_login(), player_with_login()
    team = TeamFactory(player_a=bo[0], player_b=aino[0])

    enter_team(tournament, aino, bo)

    assert Entry.objects.get(tournament=tournament).team == team


def test_a_new_team_gets_a_free_name() -> None:
    tournament = open_tournament()
    aino, bo = player_with_login("Aino"), player_with_login("Bo")
    TeamFactory(name="Aino & Bo")  # two other players of the same names

    enter_team(tournament, aino, bo)

    assert Entry.objects.get(tournament=tournament).team.name == "Aino & Bo (2)"


def test_a_declined_request_enters_nobody_and_tells_the_asker() -> None:
    tournament = open_tournament()
    aino, bo = player_with_login(), player_with_login()
    ask = services.entry_ask(tournament=tournament, partner_handle=bo[0].handle, user=aino[1])

    services.entry_answer(request=ask, accept=False, user=bo[1])

    ask.refresh_from_db()
    assert ask.state == State.DECLINED and not Entry.objects.exists()
    assert Notification.objects.get(user=aino[1]).params["state"] == "declined"
    # the asker is free to ask someone else
    services.entry_ask(tournament=tournament, partner_handle=player_with_login()[0].handle,
                       user=aino[1])


def test_only_the_named_partner_answers_and_only_once() -> None:
    tournament = open_tournament()
    aino, bo, cai = player_with_login(), player_with_login(), player_with_login()
    ask = services.entry_ask(tournament=tournament, partner_handle=bo[0].handle, user=aino[1])
    before = stored(tournament)

    for stranger in (cai[1], aino[1], UserFactory()):
        with pytest.raises(PermissionDenied, match="only the partner it names"):
            services.entry_answer(request=ask, accept=True, user=stranger)
    assert stored(tournament) == before

    services.entry_answer(request=ask, accept=True, user=bo[1])
    refused(tournament, "answered or withdrawn already",
            lambda: services.entry_answer(request=ask, accept=False, user=bo[1]))


def test_a_handle_nobody_has_is_answered_and_stored_as_any_other() -> None:
    tournament = open_tournament()
    aino, bo = player_with_login(), player_with_login()
    cai = player_with_login()

    real = services.entry_ask(tournament=tournament, partner_handle=bo[0].handle, user=aino[1])
    ghost = services.entry_ask(tournament=tournament, partner_handle="nobody-has-this",
                               user=cai[1])

    # the same row, but for the handle typed: nothing stored tells them apart
    def shape(ask: EntryRequest) -> tuple[object, ...]:
        ask.refresh_from_db()
        return (ask.state, ask.partner_id, ask.team_id, ask.number, ask.answered)

    assert shape(real) == shape(ghost) == (State.ASKED, None, None, None, None)
    assert not Notification.objects.filter(key=f"entry-request:{ghost.pk}").exists()


# ---------------------------------------------------------------- refusals


def test_entering_outside_the_window_is_refused() -> None:
    now = timezone.now()
    aino, bo = player_with_login(), player_with_login()
    early = open_tournament(entries_open=now + timedelta(hours=1),
                            entries_close=now + timedelta(days=1))
    late = open_tournament(entries_open=now - timedelta(days=2),
                           entries_close=now - timedelta(days=1))
    for tournament, words in ((early, "open at"), (late, "closed at")):
        refused(tournament, words, lambda t=tournament: services.entry_ask(
            tournament=t, partner_handle=bo[0].handle, user=aino[1]))


def test_accepting_after_the_window_closed_is_refused() -> None:
    tournament = open_tournament()
    aino, bo = player_with_login(), player_with_login()
    ask = services.entry_ask(tournament=tournament, partner_handle=bo[0].handle, user=aino[1])
    Tournament.objects.filter(pk=tournament.pk).update(
        entries_close=timezone.now() - timedelta(minutes=1))

    refused(tournament, "closed at",
            lambda: services.entry_answer(request=ask, accept=True, user=bo[1]))


def test_an_invite_only_tournament_takes_no_entries() -> None:
    tournament = open_tournament(entry_mode=Tournament.EntryMode.INVITE)
    aino, bo = player_with_login(), player_with_login()
    refused(tournament, "takes no entries from players", lambda: services.entry_ask(
        tournament=tournament, partner_handle=bo[0].handle, user=aino[1]))


def test_a_started_tournament_takes_no_entries() -> None:
    tournament = open_tournament()
    tournament.rounds.create(number=1)
    aino, bo = player_with_login(), player_with_login()
    refused(tournament, "has started", lambda: services.entry_ask(
        tournament=tournament, partner_handle=bo[0].handle, user=aino[1]))


def test_entering_with_yourself_is_refused() -> None:
    tournament = open_tournament()
    aino = player_with_login()
    refused(tournament, "cannot enter with yourself", lambda: services.entry_ask(
        tournament=tournament, partner_handle=aino[0].handle.upper(), user=aino[1]))


def test_a_handle_that_cannot_be_one_is_refused() -> None:
    tournament = open_tournament()
    aino = player_with_login()
    refused(tournament, "letters, digits, hyphens", lambda: services.entry_ask(
        tournament=tournament, partner_handle="no such thing!", user=aino[1]))


def test_asking_twice_is_refused() -> None:
    tournament = open_tournament()
    aino, bo, cai = player_with_login(), player_with_login(), player_with_login()
    services.entry_ask(tournament=tournament, partner_handle=bo[0].handle, user=aino[1])
    refused(tournament, f"already asked @{bo[0].handle}", lambda: services.entry_ask(
        tournament=tournament, partner_handle=cai[0].handle, user=aino[1]))


def test_entering_when_entered_is_refused() -> None:
    tournament = open_tournament()
    aino, bo, cai = player_with_login(), player_with_login(), player_with_login()
    enter_team(tournament, aino, bo)
    refused(tournament, "You are already entered", lambda: services.entry_ask(
        tournament=tournament, partner_handle=cai[0].handle, user=aino[1]))


@pytest.mark.parametrize("partner_state", ["entered", "waiting", "asking", "by organisers"])
def test_a_partner_already_in_a_team_of_the_tournament_is_refused(partner_state: str) -> None:
    tournament = open_tournament(capacity=2, waiting_list=True)
    aino, bo, cai, dan = (player_with_login() for _ in range(4))
    if partner_state == "by organisers":
        Entry.objects.create(tournament=tournament, team=TeamFactory(player_a=bo[0]))
    elif partner_state == "asking":
        services.entry_ask(tournament=tournament, partner_handle=dan[0].handle, user=bo[1])
    else:
        if partner_state == "waiting":
            for _ in range(2):
                enter_team(tournament, player_with_login(), player_with_login())
        enter_team(tournament, cai, bo)
        assert EntryRequest.objects.get(partner=bo[0]).state == partner_state
    words = "has already asked someone" if partner_state == "asking" else "already"
    refused(tournament, words, lambda: services.entry_ask(
        tournament=tournament, partner_handle=bo[0].handle, user=aino[1]))


def test_a_full_tournament_without_a_waiting_list_is_refused() -> None:
    tournament = open_tournament(capacity=2)
    for _ in range(2):
        enter_team(tournament, player_with_login(), player_with_login())
    aino, bo = player_with_login(), player_with_login()
    refused(tournament, "is full (2 teams) and has no waiting list", lambda: services.entry_ask(
        tournament=tournament, partner_handle=bo[0].handle, user=aino[1]))


def test_accepting_when_the_last_place_went_meanwhile_is_refused() -> None:
    tournament = open_tournament(capacity=2)
    aino, bo = player_with_login(), player_with_login()
    ask = services.entry_ask(tournament=tournament, partner_handle=bo[0].handle, user=aino[1])
    for _ in range(2):
        enter_team(tournament, player_with_login(), player_with_login())
    refused(tournament, "is full", lambda: services.entry_answer(request=ask, accept=True,
                                                                 user=bo[1]))
    assert EntryRequest.objects.get(pk=ask.pk).state == State.ASKED


def test_accepting_while_asking_someone_else_is_refused() -> None:
    tournament = open_tournament()
    aino, bo, cai = player_with_login(), player_with_login(), player_with_login()
    ask = services.entry_ask(tournament=tournament, partner_handle=bo[0].handle, user=aino[1])
    services.entry_ask(tournament=tournament, partner_handle=cai[0].handle, user=bo[1])
    refused(tournament, "withdraw that request first",
            lambda: services.entry_answer(request=ask, accept=True, user=bo[1]))


def test_a_login_without_a_player_enters_nothing() -> None:
    tournament = open_tournament()
    bo = player_with_login()
    before = stored(tournament)
    with pytest.raises(PermissionDenied, match="linked to no player"):
        services.entry_ask(tournament=tournament, partner_handle=bo[0].handle,
                           user=UserFactory())
    assert stored(tournament) == before


# ---------------------------------------------------------------- places and waiting


def test_a_full_tournament_puts_the_next_team_on_the_waiting_list_in_order() -> None:
    tournament = open_tournament(capacity=2, waiting_list=True)
    teams = [enter_team(tournament, player_with_login(), player_with_login()) for _ in range(4)]

    assert [t.state for t in teams] == ["entered", "entered", "waiting", "waiting"]
    assert Entry.objects.filter(tournament=tournament).count() == 2
    third = Notification.objects.filter(kind=Notification.Kind.ENTRY,
                                        key=f"entry-request:{teams[3].pk}:waiting")
    assert {n.params["position"] for n in third} == {2}


def test_a_withdrawal_before_the_start_moves_the_first_waiting_team_up() -> None:
    tournament = open_tournament(capacity=2, waiting_list=True)
    pairs = [(player_with_login(), player_with_login()) for _ in range(4)]
    teams = [enter_team(tournament, a, b) for a, b in pairs]

    services.entry_withdraw(tournament=tournament, user=pairs[0][1][1])  # the partner

    states = [EntryRequest.objects.get(pk=t.pk).state for t in teams]
    assert states == ["withdrawn", "entered", "entered", "waiting"]
    assert set(Entry.objects.filter(tournament=tournament).values_list("team_id", flat=True)) \
        == {teams[1].team_id, teams[2].team_id}
    moved = Notification.objects.filter(key=f"entry-request:{teams[2].pk}:moved_up")
    assert {n.user_id for n in moved} == {pairs[2][0][1].pk, pairs[2][1][1].pk}
    assert Notification.objects.get(key=f"entry-request:{teams[0].pk}:withdrawn"
                                    ).user == pairs[0][0][1]  # the other player is told


def test_withdrawing_after_the_start_is_for_the_organisers() -> None:
    tournament = open_tournament()
    aino, bo = player_with_login(), player_with_login()
    enter_team(tournament, aino, bo)
    tournament.rounds.create(number=1)
    refused(tournament, "only its organisers can withdraw",
            lambda: services.entry_withdraw(tournament=tournament, user=aino[1]))


def test_withdrawing_with_nothing_to_withdraw_is_refused() -> None:
    tournament = open_tournament()
    aino = player_with_login()
    refused(tournament, "no entry or request",
            lambda: services.entry_withdraw(tournament=tournament, user=aino[1]))


def test_an_asker_withdraws_an_unanswered_request() -> None:
    tournament = open_tournament()
    aino, bo = player_with_login(), player_with_login()
    ask = services.entry_ask(tournament=tournament, partner_handle=bo[0].handle, user=aino[1])

    services.entry_withdraw(tournament=tournament, user=aino[1])

    assert EntryRequest.objects.get(pk=ask.pk).state == State.WITHDRAWN
    refused(tournament, "answered or withdrawn already",
            lambda: services.entry_answer(request=ask, accept=True, user=bo[1]))


def test_raising_the_places_moves_waiting_teams_up() -> None:
    organiser = UserFactory()
    tournament = open_tournament(capacity=2, waiting_list=True, organisers=[organiser])
    teams = [enter_team(tournament, player_with_login(), player_with_login()) for _ in range(3)]
    Tournament.objects.filter(pk=tournament.pk).update(capacity=3)

    assert services.entries_move_up(tournament=tournament, user=organiser) == 1
    assert EntryRequest.objects.get(pk=teams[2].pk).state == State.ENTERED
    with pytest.raises(PermissionDenied):
        services.entries_move_up(tournament=tournament, user=UserFactory())


# ---------------------------------------------------------------- approval


def test_approval_mode_waits_for_an_organiser() -> None:
    organiser = UserFactory()
    tournament = open_tournament(entry_mode=Tournament.EntryMode.APPROVAL, capacity=2,
                                 waiting_list=True, organisers=[organiser])
    pairs = [(player_with_login(), player_with_login()) for _ in range(4)]
    teams = [enter_team(tournament, a, b) for a, b in pairs]
    assert {t.state for t in teams} == {"awaiting"} and not Entry.objects.exists()
    assert Notification.objects.filter(key=f"entry-request:{teams[0].pk}:awaiting").count() == 2

    with pytest.raises(PermissionDenied):
        services.entry_approve(request=teams[0], user=UserFactory())
    states = [services.entry_approve(request=t, user=organiser).state for t in teams[:3]]
    services.entry_refuse(request=teams[3], user=organiser)

    assert states == ["entered", "entered", "waiting"]
    assert Entry.objects.filter(tournament=tournament).count() == 2
    assert EntryRequest.objects.get(pk=teams[3].pk).state == State.REFUSED
    refusal = Notification.objects.filter(key=f"entry-request:{teams[3].pk}:refused")
    assert {n.user_id for n in refusal} == {pairs[3][0][1].pk, pairs[3][1][1].pk}
    refused(tournament, "is not awaiting approval",
            lambda: services.entry_approve(request=teams[0], user=organiser))


def test_approving_into_a_full_tournament_without_a_waiting_list_is_refused() -> None:
    organiser = UserFactory()
    tournament = open_tournament(entry_mode=Tournament.EntryMode.APPROVAL, capacity=2,
                                 organisers=[organiser])
    teams = [enter_team(tournament, player_with_login(), player_with_login()) for _ in range(3)]
    for team in teams[:2]:
        services.entry_approve(request=team, user=organiser)
    refused(tournament, "is full", lambda: services.entry_approve(request=teams[2],
                                                                  user=organiser))


# ---------------------------------------------------------------- the tournament's settings


def test_a_tournament_open_for_entries_needs_its_window() -> None:
    tournament = Tournament(name="Window cup", entry_mode=Tournament.EntryMode.OPEN)
    with pytest.raises(ValidationError) as caught:
        tournament.clean()
    assert set(caught.value.message_dict) == {"entries_open", "entries_close"}
    now = timezone.now()
    tournament.entries_open, tournament.entries_close = now, now - timedelta(hours=1)
    with pytest.raises(ValidationError, match="close after they open"):
        tournament.clean()


def test_a_team_of_the_register_is_not_renamed() -> None:
    aino, bo = player_with_login("Aino"), player_with_login("Bo")
    TeamFactory(name="Old pair", player_a=aino[0], player_b=bo[0])
    enter_team(open_tournament(), aino, bo)
    assert Team.objects.filter(name="Old pair").count() == 1
    assert not Team.objects.filter(name__startswith="Aino & Bo").exists()
