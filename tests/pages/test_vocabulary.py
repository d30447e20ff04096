"""The game's words come from one place: each bot level of the registry (games.bots.BOTS),
each contract of the engine (CONTRACTS) and each card is named by games.vocabulary wherever
people see it: the admin's tournament and seat forms, the "Play now" picker, a live table,
a match page and its replay, the engine benchmark."""

from __future__ import annotations

import html
import json
import re
from typing import Any, get_args

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation

from bench.engine import ways_situations
from games.bots import BOTS, BotLevel, make_bot
from games.bots.greedy import GreedyBot
from games.engine.cards import RANK_CHARS, SUITS
from games.engine.melds import Kind
from games.engine.play import deal_from_seed, play_game
from games.engine.state import CONTRACTS
from games.live import service
from games.replay_text import replay_messages, replay_view
from games.vocabulary import contract_words, meld_kinds, rank_names, suit_names
from tests.pages import organiser, published_round
from tests.tournaments.factories import UserFactory, tournament_with_teams
from tournaments import services
from tournaments.models import Absence, Club, Match, Result, Team

# A level no module but the registry knows: it plays as the greedy bot.
CAUTIOUS = BotLevel("cautious", GreedyBot, "cautious", "never hurries")


@pytest.fixture
def cautious(monkeypatch: pytest.MonkeyPatch) -> BotLevel:
    monkeypatch.setitem(BOTS, CAUTIOUS.name, CAUTIOUS)
    return CAUTIOUS


def options(page: str, name: str) -> dict[str, str]:
    """The options of the page's ``<select name=name>``: value -> label as shown."""
    found = re.search(rf'<select name="{re.escape(name)}"[^>]*>(.*?)</select>', page, re.S)
    assert found, f"the page has a {name} menu"
    return {value: html.unescape(label.strip()) for value, label in
            re.findall(r'<option value="([^"]*)"[^>]*>([^<]*)</option>', found.group(1))}


def logged_in(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


def labels() -> dict[str, str]:
    return {name: level.label for name, level in BOTS.items()}


# -- bot levels ------------------------------------------------------------------------------


@pytest.mark.django_db
def test_it_offers_every_registered_level_with_its_label_in_the_admin(
        cautious: BotLevel) -> None:
    user = UserFactory()
    client = logged_in(user)
    tournament = tournament_with_teams(2, organisers=[user])
    services.round_pair_next(tournament=tournament, user=user)
    match = Match.objects.get()

    add = client.get(reverse("admin:tournaments_tournament_add")).content.decode()
    change = client.get(reverse("admin:tournaments_match_change", args=[match.pk]))

    assert options(add, "bot_level") == labels()
    seat_menu = options(change.content.decode(), "seats-0-bot_level")
    assert seat_menu == {"": "---------", **labels()}
    assert seat_menu[cautious.name] == "cautious"


@pytest.mark.django_db
def test_it_offers_every_registered_level_described_to_a_player(cautious: BotLevel) -> None:
    page = logged_in(UserFactory()).get(reverse("home")).content.decode()

    assert options(page, "bot") == {name: f"{level.label}: {level.description}"
                                    for name, level in BOTS.items()}


@pytest.mark.django_db
def test_a_live_table_of_a_new_level_says_which_bots_play(cautious: BotLevel) -> None:
    user = UserFactory()
    table = service.create_practice_table(user, cautious.name, seat=0, seed=3)

    page = logged_in(user).get(reverse("live:table", args=[table.pk])).content.decode()

    assert "bots' level: cautious: never hurries." in page


def bot_match(level: str) -> Match:
    """A match whose four players all miss round 1, so bots of ``level`` play it."""
    user = organiser()
    tournament = tournament_with_teams(2, organisers=[user], bot_level=level)
    for team in Team.objects.filter(entries__tournament=tournament):
        for player in (team.player_a, team.player_b):
            Absence.objects.create(tournament=tournament, round_number=1, player=player)
    match = published_round(tournament).matches.get()
    if services.match_play_bots(match_id=match.pk) is None:  # played on publishing already
        assert Result.objects.filter(match=match).exists()
    return match


@pytest.mark.django_db
def test_a_match_of_a_new_level_names_its_bots_by_the_registry_and_its_replay_too(
        client: Client, cautious: BotLevel) -> None:
    match = bot_match(cautious.name)

    page = client.get(reverse("tournaments:match_detail", args=[match.pk])).content.decode()

    found = re.search(r'<script id="replay-messages" type="application/json">(.*?)</script>',
                      page, re.S)
    assert found, "the match page has its replay"
    assert json.loads(found.group(1))["players"] == ["Bot (cautious)"] * 4
    assert page.count("Bot (cautious)") >= 4 and "Bot (greedy)" not in page


@pytest.mark.django_db
def test_in_finnish_every_place_says_the_translated_label(finnish: None) -> None:
    user = UserFactory()
    client = logged_in(user)
    fi = {"accept-language": "fi"}

    add = client.get(reverse("admin:tournaments_tournament_add"), headers=fi).content.decode()
    home = client.get(reverse("home"), headers=fi).content.decode()
    match = bot_match("greedy")
    page = client.get(reverse("tournaments:match_detail", args=[match.pk]),
                      headers=fi).content.decode()
    practice = service.create_practice_table(user, "search", seat=0, seed=3)
    table = client.get(reverse("live:table", args=[practice.pk]), headers=fi).content.decode()

    assert options(add, "bot_level")["greedy"] == "ahne"
    assert options(home, "bot")["greedy"] == "ahne: nyrkkisäännöin pelaava"
    assert "Botti (ahne)" in page
    assert "bottien taso: hakeva: " in table
    assert options(table, "bot")["search"].startswith("hakeva: ")  # Play again
    assert ">search<" not in table and "search:" not in table


# -- contracts, melds and cards --------------------------------------------------------------


def test_each_contract_is_said_from_its_melds_in_the_engine() -> None:
    assert [contract_words(hand) for hand in CONTRACTS] == [
        "two sets of 3", "a set of 3 and a run of 4", "two runs of 4", "three sets of 3",
        "two runs of 5"]


def test_a_changed_contract_is_said_as_it_now_is(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(CONTRACTS, 2, (("run", 3), ("set", 4), ("run", 3)))

    assert contract_words(2) == "two runs of 3 and a set of 4"
    assert replay_messages(["A", "B"], ["0", "1", "2", "3"])["contracts"]["2"] == \
        "two runs of 3 and a set of 4"
    assert "contract 2 (two runs of 3 and a set of 4)" in [
        label for label, *_rest in ways_situations()]


def test_the_contracts_speak_finnish(finnish: None) -> None:
    with translation.override("fi"):
        assert contract_words(1) == "kaksi 3 kortin ryhmää"
        assert contract_words(2) == "3 kortin ryhmä ja 4 kortin suora"


def test_the_suit_of_clubs_and_a_club_of_players_are_two_words_in_finnish(
        finnish: None) -> None:
    with translation.override("fi"):
        assert suit_names()["C"] == "risti"
        assert str(Club._meta.verbose_name_plural) == "seurat"


def test_the_replay_says_the_contract_of_each_deal_and_names_cards_by_the_vocabulary() -> None:
    first_dealer, decks = deal_from_seed(5)
    record = play_game([make_bot("random", seat) for seat in range(4)], first_dealer, decks)
    view = replay_view(record.to_json(), ["A", "B"], [(f"P{s}", True) for s in range(4)])

    for hand in view["hands"]:
        assert f"Contract: {contract_words(hand['hand'])}." in hand["deal"]
    messages = view["messages"]
    assert messages["ranks"] == rank_names() and messages["suits"] == suit_names()
    assert {kind: messages[kind] for kind in get_args(Kind)} == meld_kinds()


def test_every_rank_suit_and_kind_of_the_engine_has_a_name() -> None:
    assert list(rank_names()) == list(RANK_CHARS[1:])
    assert list(suit_names()) == list(SUITS)
    assert rank_names()["T"] == "10" and rank_names()["Q"] == "queen"
    assert list(meld_kinds()) == list(get_args(Kind))
