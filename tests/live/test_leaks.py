"""The leak test: whole games with a scripted human and three bots; every message to
every client (the human's two tabs, a spectator) is checked against the full state."""

import json
import random
import re
from typing import Any

import pytest
from asgiref.sync import async_to_sync

from games.engine import GameState, deal_from_seed, parse_action, penalty
from games.live import service
from games.live.models import LiveTable

from .sockets import ack_of, answer_of, joined, session_cookie, update_at

pytestmark = [pytest.mark.django_db(transaction=True),
              pytest.mark.usefixtures("layer", "eager_tasks", "frames_unlimited")]

# a card code in any text (not a wild's stand-in after "=", which names no card)
CARD = re.compile(r"(?<![=\w])(?:[A2-9TJQK][SHDC]|JK)(?!\w)")


class Truth:
    """The full state after every sequence number, replayed with the engine itself."""

    def __init__(self, seed: int, texts: list[str]) -> None:
        first_dealer, decks = deal_from_seed(seed)
        game = GameState(first_dealer)
        game.deal(decks[0])
        self.hands: dict[int, list[list[str]]] = {}
        self.events: dict[int, Any] = {}
        self.public: dict[int, set[str]] = {}  # every card shown to all up to here
        self.pushed_to: dict[int, list[set[str]]] = {}  # stock cards each seat received
        # each ended hand's number: the number of its last action, the cards left in each
        # hand and their penalty points (R2.4)
        self.ended: dict[int, tuple[int, list[list[str]], list[int]]] = {}
        public = {c.code for c in game.hand.discard + list(game.hand.buried)}
        pushed: list[set[str]] = [set(), set(), set(), set()]
        self.hands[0] = [[c.code for c in h] for h in game.hand.hands]
        self.public[0], self.pushed_to[0] = set(public), [set(), set(), set(), set()]
        for seq, text in enumerate(texts, 1):
            game.apply(parse_action(text))
            hand = game.hand
            event = hand.history[-1]
            public |= set(CARD.findall(text)) | {c.code for c in hand.discard}
            if event.card is not None:
                public.add(event.card.code)
            if event.private is not None:  # R6.3: for the pusher's left only
                pushed[(event.action.seat + 1) % 4].add(event.private.code)
            self.hands[seq] = [[c.code for c in h] for h in hand.hands]
            self.events[seq] = event
            if game.to_move is None:  # the hand ended: every hand's cards are public now
                self.ended[hand.hand_no] = (seq, self.hands[seq],
                                            [penalty(h) for h in hand.hands])
                public |= {code for cards in self.hands[seq] for code in cards}
            if game.to_move is None and not game.is_over:
                game.deal(decks[len(game.results)])
                public |= {c.code for c in game.hand.discard + list(game.hand.buried)}
                self.hands[seq] = [[c.code for c in h] for h in game.hand.hands]
            self.public[seq] = set(public)
            self.pushed_to[seq] = [set(p) for p in pushed]

    def check(self, message: Any, seat: int | None, seq: int) -> None:
        """``message``, received by ``seat`` (``None``: a spectator) when the table was at
        ``seq`` or later, shows nothing that seat may not see."""
        allowed = set(self.public[seq])
        if seat is not None:
            allowed |= set(self.hands[seq][seat]) | self.pushed_to[seq][seat]
        shown = set(CARD.findall(json.dumps(message)))
        assert shown <= allowed, f"seat {seat} was shown {shown - allowed}: {message}"
        if message["type"] == "hand_log":  # asked at the game's end (seq: its last)
            result = message["result"]
            self._check_events(message["events"], seat, seq,
                               [] if result is None else [(message["hand"], result)])
            return
        if message["type"] != "update":
            return
        view = message["view"]
        if seat is None:
            assert not {"hand", "taken", "pending", "legal"} & set(view)
        else:
            assert view["hand"] == self.hands[view["seq"]][seat]
        last = view.get("last_hand")
        self._check_events(message["events"] + view.get("log", []), seat, view["seq"],
                           [] if last is None else [(last["hand_no"], last)])

    def _check_events(self, events: list[Any], seat: int | None, seq: int,
                      results: list[tuple[int, Any]]) -> None:
        """Each event as ``seat`` saw it, and each hand's result (those of ``results`` and
        the hand-ending events') only once that hand ended, at ``seq`` or before, with the
        cards each seat had left and their penalty points (R2.4)."""
        results = results + [(event["hand_no"], event["hand_result"]) for event in events
                             if "hand_result" in event]
        for hand_no, result in results:
            end, hands, penalties = self.ended[hand_no]
            assert end <= seq and result["hands"] == hands, (hand_no, result)
            assert result["penalties"] == penalties
        for event in events:
            truth = self.events[event["seq"]]
            assert event["card"] == (truth.card.code if truth.card else None)
            receives = seat is not None and seat == (truth.action.seat + 1) % 4
            if receives and truth.private is not None:
                assert event["private"] == truth.private.code
            else:
                assert "private" not in event


def check_finished(table: LiveTable, final: int, received: dict[str, list[Any]],
                   seat_of: Any) -> None:
    """The game at ``table`` ended at ``final``, and every message each client (by name;
    ``seat_of(name)`` its seat, None for a spectator) received shows nothing it may not
    see, no error and never the seed."""
    table.refresh_from_db()
    assert table.status == LiveTable.Status.FINISHED and table.seq == final
    truth = Truth(table.seed, list(table.actions.order_by("seq").values_list("action",
                                                                            flat=True)))
    for name, messages in received.items():
        seat = seat_of(name)
        assert all(m["type"] != "error" for m in messages), name
        last = 0
        for message in messages:
            last = message["view"]["seq"] if message["type"] == "update" else last
            truth.check(message, seat, last)
            assert str(table.seed) not in json.dumps(message)


@pytest.mark.parametrize("seed", [7_000_000_007, 202_612_011_705])
def test_no_client_ever_sees_a_card_it_may_not(player: Any, seed: int) -> None:
    human = 3
    table = service.create_practice_table(player, "greedy", seat=human, seed=seed)
    cookie = session_cookie(player)
    rng = random.Random(seed)
    received: dict[str, list[Any]] = {"tab1": [], "tab2": [], "spectator": []}

    async def run() -> int:
        tab1, first = await joined(table.pk, cookie)
        tab2, second = await joined(table.pk, cookie)
        spectator, public = await joined(table.pk)
        received["tab1"].append(first)
        received["tab2"].append(second)
        received["spectator"].append(public)
        view = first["view"]
        n = 0
        while view["status"] == LiveTable.Status.PLAYING:
            if view["to_move"] != human:  # the bots' first moves came before the join
                await tab1.send_json_to({"type": "resume", "since": view["seq"]})
                view = (await update_at(tab1, view["seq"], received["tab1"]))["view"]
                continue
            await tab1.send_json_to({"type": "act", "action": rng.choice(view["legal"]),
                                     "id": f"h{n}"})
            view = (await ack_of(tab1, f"h{n}", received["tab1"]))["view"]
            n += 1
        final: int = view["seq"]
        for name, comm in (("tab2", tab2), ("spectator", spectator)):
            # a notice may have been dropped: ask for the rest, as a client does
            await comm.send_json_to({"type": "resume", "since": 0})
            await update_at(comm, final, received[name])
            for hand in range(1, 6):  # every hand's log, as this connection saw it
                await comm.send_json_to({"type": "hand_log", "id": f"l{hand}", "hand": hand})
                received[name].append(await answer_of(comm, "hand_log", f"l{hand}"))
            await comm.disconnect()
        await tab1.disconnect()
        return final

    check_finished(table, async_to_sync(run)(), received,
                   lambda name: None if name == "spectator" else human)


def _online_table(organiser: Any) -> tuple[LiveTable, list[Any], Any]:
    """A published online round's table with a person in every seat; the table, the four
    people (seat 0 first) and the tournament."""
    from django.contrib.auth import get_user_model

    from tests.tournaments.test_online import online, publish_first_round

    tournament = online(organisers=[organiser], turn_seconds=None)
    home, away = (entry.team for entry in tournament.entries.order_by("seed"))
    people = {}
    for position, player in enumerate((home.player_a, away.player_a, home.player_b,
                                       away.player_b)):
        player.user = get_user_model().objects.create_user(f"p{position}", password="pw-12345678")
        player.save()
        people[position] = player.user
    match = publish_first_round(tournament, organiser)
    table = LiveTable.objects.get(match=match)
    return table, [people[s] for s in range(4)], tournament


def test_four_people_spectators_and_the_director_see_no_card_they_may_not() -> None:
    """A whole game of four people at an online round's table (each one connection),
    two spectators (one logged out, one the organiser) and the director's view and the
    round page read now and then: every message and page against the full state; the
    director's view and the round page show no card at all while the game is played."""
    from django.test import Client
    from django.urls import reverse

    from tests.tournaments.factories import UserFactory

    organiser = UserFactory()
    table, people, tournament = _online_table(organiser)
    rng = random.Random(20261202)
    names = [f"seat{s}" for s in range(4)] + ["spectator", "organiser"]
    received: dict[str, list[Any]] = {name: [] for name in names}
    director, public = Client(), Client()
    director.force_login(organiser)
    pages: list[str] = []
    cookies = [session_cookie(person) for person in people] + [None, session_cookie(organiser)]

    def read_pages() -> None:
        pages.append(director.get(reverse("admin:tournaments_tournament_director_live",
                                          args=[tournament.pk])).content.decode())
        pages.append(public.get(reverse("tournaments:round_live",
                                        args=[tournament.pk, 1])).content.decode())

    async def run() -> int:
        from channels.db import database_sync_to_async

        comms = {}
        for name, cookie in zip(names, cookies, strict=True):
            comms[name], first = await joined(table.pk, cookie)
            received[name].append(first)
        view = received["seat0"][0]["view"]
        n = 0
        while view["status"] == LiveTable.Status.PLAYING:
            name = f"seat{view['to_move']}"
            mover = comms[name]
            await mover.send_json_to({"type": "resume", "since": view["seq"]})
            view = (await update_at(mover, view["seq"], received[name]))["view"]
            await mover.send_json_to({"type": "act", "action": rng.choice(view["legal"]),
                                      "id": f"h{n}"})
            view = (await ack_of(mover, f"h{n}", received[name]))["view"]
            # the pages now and then: every 80th move is some ten reads of each in a game
            # (650 to 900 moves of these random choices), two renders a read
            if n % 80 == 0 and view["status"] == LiveTable.Status.PLAYING:
                await database_sync_to_async(read_pages)()
            n += 1
        final: int = view["seq"]
        for name, comm in comms.items():
            await comm.send_json_to({"type": "resume", "since": 0})
            await update_at(comm, final, received[name])
            await comm.disconnect()
        return final

    check_finished(table, async_to_sync(run)(), received,
                   lambda name: int(name[-1]) if name.startswith("seat") else None)
    assert len(pages) >= 4 and all("Hand " in page for page in pages)
    for page in pages:
        assert not CARD.findall(page), CARD.findall(page)
