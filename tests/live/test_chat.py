"""Chat at a live table over the websocket: the players' lines reach all four and no
spectator, the spectators' reach no player while the game is played, each line is stored
with the table, a bad or refused one gets an error naming its field and stores nothing,
reports reach the organisers, and a secret duplicate round's tables have no chat."""

from __future__ import annotations

from typing import Any

import pytest
from asgiref.sync import async_to_sync

from games.live import chat, frames, kinds
from games.live.models import ChatMessage, ChatReport, LiveTable
from tests.tournaments.factories import UserFactory
from tests.tournaments.test_online import online, publish_first_round
from tournaments import services

from .sockets import TIMEOUT, TableCommunicator, connect_to

pytestmark = [pytest.mark.django_db(transaction=True),
              pytest.mark.usefixtures("layer", "eager_tasks")]


async def hearing(table_id: int, cookie: str | None) -> tuple[TableCommunicator, list[Any]]:
    """A connection (logged in with ``cookie``, or not) that hears the table's talk, and
    the chat lines it was given on connecting."""
    comm = connect_to(table_id, cookie, hears=True)
    connected, _ = await comm.connect(timeout=TIMEOUT)
    assert connected
    first = await next_of(comm, "chat")
    assert first["all"] is True
    return comm, first["lines"]


async def next_of(comm: TableCommunicator, kind: str) -> Any:
    """The next frame of type ``kind`` (or an error), the others read past."""
    while True:
        message = await comm.receive_json_from(timeout=TIMEOUT)
        if message["type"] in (kind, "error"):
            return message


async def say(comm: TableCommunicator, text: str, client_id: str = "m1") -> Any:
    await comm.send_json_to({"type": "chat", "id": client_id, "text": text})
    return await next_of(comm, "chat")


async def no_chat(comm: TableCommunicator) -> bool:
    """No chat line comes (in a moment; everything else comes and goes)."""
    while not await comm.receive_nothing(timeout=0.3):
        if (await comm.receive_json_from(timeout=TIMEOUT))["type"] == "chat":
            return False
    return True


def test_the_players_chat_reaches_both_and_no_spectator(table_of_two: LiveTable, people: list[Any],
                                                        cookies: list[str]) -> None:
    async def run() -> None:
        ann, _ = await hearing(table_of_two.pk, cookies[0])
        bea, _ = await hearing(table_of_two.pk, cookies[1])
        cid, _ = await hearing(table_of_two.pk, cookies[2])
        answer = await say(ann, "good luck <img src=x onerror=alert(1)>")
        line = answer["lines"][0]
        assert (answer["id"], line["seat"], line["channel"], line["author"]) == (
            "m1", 0, "table", people[0].pk)
        assert line["text"] == "good luck <img src=x onerror=alert(1)>"  # as said
        heard = await next_of(bea, "chat")
        assert heard["lines"] == [line] and heard["id"] is None
        assert await no_chat(cid)
        # the spectator's line: to spectators only while the game is played
        spoken = await say(cid, "ann should push")
        assert spoken["lines"][0]["channel"] == "spectators"
        assert await no_chat(ann) and await no_chat(bea)
        # a later connection is given each channel's lines as its reader may read them
        _, players = await hearing(table_of_two.pk, cookies[1])
        _, watchers = await hearing(table_of_two.pk, None)
        assert [x["text"] for x in players] == ["good luck <img src=x onerror=alert(1)>"]
        assert [x["text"] for x in watchers] == ["ann should push"]
        for comm in (ann, bea, cid):
            await comm.disconnect()

    async_to_sync(run)()
    assert list(ChatMessage.objects.values_list("table", "user", "seat", "channel")) == [
        (table_of_two.pk, people[0].pk, 0, "table"),
        (table_of_two.pk, people[2].pk, None, "spectators")]


def test_the_players_read_the_spectators_once_the_game_is_over(table_of_two: LiveTable,
                                                               cookies: list[str]) -> None:
    async def run() -> None:
        cid, _ = await hearing(table_of_two.pk, cookies[2])
        await say(cid, "well played")
        await cid.disconnect()

    async_to_sync(run)()
    assert chat.history(table_of_two.pk, 0) == []
    LiveTable.objects.filter(pk=table_of_two.pk).update(status=LiveTable.Status.RESIGNED)
    assert [line["text"] for line in chat.history(table_of_two.pk, 0)] == ["well played"]


@pytest.mark.parametrize(("message", "field", "says"), [
    ({"type": "chat", "id": "m1", "text": "  \n "}, "text", "empty"),
    ({"type": "chat", "id": "m1", "text": "x" * (frames.MAX_CHAT_CHARS + 1)}, "text",
     f"at most {frames.MAX_CHAT_CHARS} characters"),
    ({"type": "chat", "id": "m1", "text": 5}, "text", "string"),
    ({"type": "chat", "id": "m1"}, "text", "needs the field"),
    ({"type": "chat", "text": "hi"}, "id", "needs the field"),
    ({"type": "chat", "id": "m1", "text": "hi", "to": 2}, None, "no field"),
    ({"type": "report", "id": "r1", "message": "1"}, "message", "whole number"),
    ({"type": "report", "id": "r1", "message": 10**9}, "message", "no chat message"),
])
def test_a_bad_chat_message_gets_an_error_naming_its_field_and_stores_nothing(
        table_of_two: LiveTable, cookies: list[str], message: dict[str, Any], field: str | None,
        says: str) -> None:
    async def run() -> None:
        ann, _ = await hearing(table_of_two.pk, cookies[0])
        await ann.send_json_to(message)
        error = await next_of(ann, "chat")
        assert error["type"] == "error" and error["field"] == field, error
        assert says in error["message"]
        await ann.disconnect()

    async_to_sync(run)()
    assert not ChatMessage.objects.exists() and not ChatReport.objects.exists()


def test_a_visitor_not_logged_in_reads_the_spectators_but_may_not_speak(
        table_of_two: LiveTable) -> None:
    async def run() -> None:
        visitor, _ = await hearing(table_of_two.pk, None)
        error = await say(visitor, "hello")
        assert error["type"] == "error" and "Log in" in error["message"]
        await visitor.disconnect()

    async_to_sync(run)()
    assert not ChatMessage.objects.exists()


def test_a_user_says_at_most_a_burst_of_lines_in_the_window(table_of_two: LiveTable,
                                                            cookies: list[str]) -> None:
    async def run() -> None:
        ann, _ = await hearing(table_of_two.pk, cookies[0])
        for number in range(chat.BURST):
            assert (await say(ann, f"line {number}", f"m{number}"))["type"] == "chat"
        error = await say(ann, "one too many", "over")
        assert error["type"] == "error" and error["id"] == "over"
        assert f"at most {chat.BURST} chat messages in" in error["message"]
        await ann.disconnect()

    async_to_sync(run)()
    assert ChatMessage.objects.count() == chat.BURST


def test_a_report_is_stored_once_for_a_line_its_reporter_reads(
        table_of_two: LiveTable, people: list[Any], cookies: list[str]) -> None:
    async def run() -> None:
        ann, _ = await hearing(table_of_two.pk, cookies[0])
        bea, _ = await hearing(table_of_two.pk, cookies[1])
        cid, _ = await hearing(table_of_two.pk, cookies[2])
        line = (await say(ann, "you are slow"))["lines"][0]
        for _ in range(2):  # twice: one report
            await bea.send_json_to({"type": "report", "id": "r1", "message": line["id"]})
            assert (await next_of(bea, "reported"))["message"] == line["id"]
        await ann.send_json_to({"type": "report", "id": "r2", "message": line["id"]})
        own = await next_of(ann, "reported")
        assert (own["type"], own["field"]) == ("error", "message")
        # a spectator does not read the players' line, so cannot report it
        await cid.send_json_to({"type": "report", "id": "r3", "message": line["id"]})
        unseen = await next_of(cid, "reported")
        assert (unseen["type"], unseen["field"]) == ("error", "message")
        for comm in (ann, bea, cid):
            await comm.disconnect()

    async_to_sync(run)()
    assert list(ChatReport.objects.values_list("message__text", "reporter")) == [
        ("you are slow", people[1].pk)]


def test_a_secret_duplicate_rounds_table_has_no_chat_until_it_is_released(
        people: list[Any], cookies: list[str]) -> None:
    organiser = UserFactory()
    tournament = online(organisers=[organiser], duplicate="matchpoints")
    home = tournament.entries.order_by("seed").first().team
    home.player_a.user = people[0]
    home.player_a.save()
    match = publish_first_round(tournament, organiser)
    table = LiveTable.objects.get(match=match)
    ChatMessage.objects.create(table=table, channel="table", user=people[0], seat=0,
                               text="said before")  # as if the round had been open once
    assert not kinds.chat_open(table)

    async def refused() -> None:
        ann, lines = await hearing(table.pk, cookies[0])
        assert lines == []
        error = await say(ann, "I hold three jokers")
        assert error["type"] == "error" and "closed" in error["message"]
        await ann.disconnect()

    async_to_sync(refused)()
    assert list(ChatMessage.objects.values_list("text", flat=True)) == ["said before"]
    services.round_release_boards(round=match.round, user=organiser)

    async def open_again() -> None:
        ann, lines = await hearing(table.pk, cookies[0])
        assert [line["text"] for line in lines] == ["said before"]
        assert (await say(ann, "now we may"))["type"] == "chat"
        await ann.disconnect()

    async_to_sync(open_again)()
