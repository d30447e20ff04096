"""A match's deals: its first dealer and five packs, fixed by its seed when it is paired.

They are secret until the match is over: no serializer, page or player sees the seed or the
packs. The platform plays bot games on them, checks an uploaded record against them, and
shows them to the tournament's organisers to print for a venue table.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.translation import gettext

from config.users import RequestUser
from games.engine import Card, deal_from_seed, dealer_of
from tournaments.models import Match, Round, Seat, Tournament
from tournaments.selectors.boards import first_board
from tournaments.selectors.visibility import boards_hidden_from

from .access import is_player_of, require_organiser
from .errors import TournamentUserError


def match_deals(match: Match) -> tuple[int, list[list[Card]]]:
    return deal_from_seed(match.seed)


@dataclass(frozen=True)
class HandDeal:
    number: int
    dealer: int  # the seat that deals this hand (R3.3)
    pack: list[Card]  # top card first (R4.1)
    board: int | None = None  # a duplicate round's board number: every table plays it


@dataclass(frozen=True)
class MatchDeals:
    match: Match
    first_dealer: int
    hands: list[HandDeal]


def deals_for_organiser(*, tournament: Tournament, matches: list[Match],
                        user: RequestUser) -> tuple[list[MatchDeals], list[Match]]:
    """The deals of ``matches`` (all of ``tournament``) to print, and the matches withheld: an
    organiser who plays in a match does not see its deals before it has a result, nor, in a
    duplicate round (every match dealt the same boards), any match's of that round while its
    boards are secret (``selectors.boards_hidden_from``): as any player of it, not only one
    whose own table still plays (one whose seat a substitute took, or whose table has
    finished, waits for the round as the others do)."""
    require_organiser(user, tournament)
    if tournament.dealing != Tournament.Dealing.PLATFORM:
        raise TournamentUserError(gettext(
            "%(tournament)s is dealt at the venue: its matches have no printed deals")
            % {"tournament": tournament})
    shown, withheld = [], []
    for match in matches:
        if match.is_bye:
            continue
        if (is_player_of(user, match) and not hasattr(match, "result")) or (
                match.round.seed is not None and (_still_to_play(user, match.round)
                                                  or boards_hidden_from(match.round, user))):
            withheld.append(match)
            continue
        first_dealer, packs = match_deals(match)
        first = first_board(match.round.number) if match.round.seed is not None else None
        shown.append(MatchDeals(match, first_dealer, [
            HandDeal(number, dealer_of(first_dealer, number), pack,
                     None if first is None else first + number - 1)
            for number, pack in enumerate(packs, start=1)]))
    return shown, withheld


def _still_to_play(user: RequestUser, round: Round) -> bool:
    if not user.is_authenticated:
        return False
    return Seat.objects.filter(round=round, player__user_id=user.pk,
                               match__result__isnull=True).exists()
