"""What the public may see: the one rule the pages and the API both follow.

* **Rounds.** Published and complete rounds are public. A draft round (and its matches) is
  seen only by the tournament's organisers (superusers organise every tournament).
* **Results.** A result is public once it is confirmed: a bot game at once; an uploaded
  record or an entered score sheet at once, or, when the tournament asks for confirmation
  (and for a player's record when the venue deals), once the other team or another
  organiser confirms it. Until then the public sees that the match is
  *awaiting confirmation* (its status) and nothing of the result: no scores, no winner, no
  game record. The tournament's organisers and the match's players also see an
  unconfirmed result, flagged ``confirmed: false``, in the API (organisers confirm it in
  the admin, the other team's players through the API).
* **Duplicate rounds.** No player may see a board before playing it. While a duplicate
  round is played its boards, its game records, its replays, its live tables (in play or
  finished) and every result on it (a match's total too: it is the sum of its boards) are
  hidden from everyone but the tournament's organisers, whatever the rest of this rule
  would show (:func:`boards_hidden_from`); the standings leave the round out. They are
  shown once every table of the round has a confirmed result, once the round is closed, or
  when an organiser releases them (``Round.boards_released``). An organiser who plays in
  the round is a player here (:func:`plays_in`): its boards, games and results are withheld
  from them as from any player, the printed deals too (``services.deals``).
* **Games.** Whatever shows a game (a live table in play or finished, its record, replay,
  hand or running score, on a page, a fragment, the API or a websocket) asks
  :func:`may_see_game`; the live tables' watch policies (``services.online``,
  ``robot_duplicate.services``) are built on it and on the robot events' own secrecy.
* **Standings**, ratings and who advances in a knockout count confirmed results only (the
  derived rows are computed from them; see ``services.derived``); the standings and the
  ratings leave out, besides, the games bots played too much of for people (``counted``).

The public pages show the public view to everyone, organisers included (as they never show
drafts); the API applies the rule to whoever asks. Every read of a result for display goes
through :func:`visible_result`, so no page or endpoint can show an unconfirmed score by
forgetting a filter.
"""

from __future__ import annotations

from django.db.models import Count, Q, QuerySet

from config.users import RequestUser
from tournaments.models import Match, Result, Round, Tournament

PUBLIC_ROUNDS = (Round.Status.PUBLISHED, Round.Status.COMPLETE)


def organised_tournaments(user: RequestUser | None) -> QuerySet[Tournament]:
    """The tournaments whose drafts and unconfirmed results ``user`` may see."""
    if user is None or not user.is_authenticated:
        return Tournament.objects.none()
    if user.is_superuser:
        return Tournament.objects.all()
    return Tournament.objects.filter(organisers=user)


def _round_visible(user: RequestUser | None, prefix: str = "") -> Q:
    public = Q(**{f"{prefix}status__in": PUBLIC_ROUNDS})
    return public | Q(**{f"{prefix}tournament__in": organised_tournaments(user).values("pk")})


def visible_rounds(user: RequestUser | None = None) -> QuerySet[Round]:
    return Round.objects.filter(_round_visible(user)).select_related("tournament")


def visible_matches(user: RequestUser | None = None) -> QuerySet[Match]:
    return (Match.objects.filter(_round_visible(user, "round__"))
            .select_related("round__tournament", "table", "team_a", "team_b", "result"))


def maybe_secret(prefix: str = "") -> Q:
    """Rows (reached through ``prefix``, a lookup ending in ``__``) of duplicate rounds
    neither completed nor released: the secret ones (:func:`boards_hidden`) and those whose
    last result has just come in. For lists that need no exact answer, in one query."""
    return (Q(**{f"{prefix}seed__isnull": False, f"{prefix}boards_released": False})
            & ~Q(**{f"{prefix}status": Round.Status.COMPLETE}))


def hidden_rounds() -> QuerySet[Round]:
    """Every round whose boards are still secret (:func:`boards_hidden`), in one query."""
    waiting = Count("matches", filter=Q(matches__is_bye=False)
                    & ~Q(matches__result__confirmed=True))
    return Round.objects.filter(maybe_secret()).annotate(waiting=waiting).filter(waiting__gt=0)


def boards_hidden(round: Round) -> bool:
    """Whether a duplicate ``round``'s boards, records and results are still secret: not
    released, not closed, and a table (a match that is not a bye) still without a
    confirmed result. Never for a round whose matches have their own deals."""
    if round.seed is None or round.boards_released or round.status == Round.Status.COMPLETE:
        return False
    return round.matches.filter(is_bye=False).exclude(result__confirmed=True).exists()


def plays_q(user: RequestUser | None, prefix: str = "") -> Q | None:
    """The matches (reached through ``prefix``, a lookup ending in ``__``) ``user`` plays
    in: a player of a team it pairs, or one seated at it (a substitute's seat still belongs
    to its team's player); None for the public, who play in none."""
    if user is None or not user.is_authenticated:
        return None
    return (Q(**{f"{prefix}team_a__player_a__user": user})
            | Q(**{f"{prefix}team_a__player_b__user": user})
            | Q(**{f"{prefix}team_b__player_a__user": user})
            | Q(**{f"{prefix}team_b__player_b__user": user})
            | Q(**{f"{prefix}seats__player__user": user}))


def plays_in(round: Round, user: RequestUser | None) -> bool:
    """Whether ``user`` plays in ``round`` (:func:`plays_q`)."""
    plays = plays_q(user)
    return plays is not None and round.matches.filter(plays).exists()


def secret_rounds_played_by(user: RequestUser | None) -> QuerySet[Round]:
    """The secret rounds (:func:`hidden_rounds`) ``user`` plays in (:func:`plays_in`), in
    one query: the admin shows an organiser nothing of their games, as it is a player."""
    plays = plays_q(user, "matches__")
    if plays is None:
        return Round.objects.none()
    return Round.objects.filter(plays, pk__in=hidden_rounds().values("pk")).distinct()


def boards_hidden_from(round: Round, user: RequestUser | None) -> bool:
    """Whether ``user`` (None: the public) may not yet see ``round``'s boards and what was
    played on them: they are secret, and the user does not direct the round from outside
    it. An organiser who plays in the round is one of its players here: the boards of the
    other tables are the ones still to come to their own."""
    if not boards_hidden(round):
        return False
    organiser = organised_tournaments(user).filter(pk=round.tournament_id).exists()
    return not organiser or plays_in(round, user)


def may_see_game(match: Match, user: RequestUser | None) -> bool:
    """The one rule for anything of ``match``'s game that is not its result: its live
    table (in play or finished), its record and replay, the hand and score it stands at.
    A secret duplicate round's games are shown to nobody but the organisers who do not
    play in it (:func:`boards_hidden_from`); a seat at the table itself is the live
    table's own business (it shows a seat its hand whatever this says). Results ask
    :func:`visible_result`, which asks this first."""
    return not boards_hidden_from(match.round, user)


def shown_status(match: Match, user: RequestUser | None = None) -> str:
    """The match's status as ``user`` (None: the public) may see it: every match of a
    secret duplicate round is *being played*, finished or not, as the round's page shows it
    (:func:`may_see_game`: even that a table has finished is the round's secret)."""
    return match.status if may_see_game(match, user) else Match.Status.PLAYING


def rounds_hidden_from(user: RequestUser | None) -> QuerySet[Round]:
    """The rounds whose boards ``user`` may not see (:func:`boards_hidden_from`), in one
    query: the secret ones, but those they direct from outside."""
    directed = organised_tournaments(user).values("pk")
    return hidden_rounds().filter(~Q(tournament__in=directed)
                                  | Q(pk__in=secret_rounds_played_by(user).values("pk")))


def visible_result(match: Match, user: RequestUser | None = None, *,
                   game_shown: bool | None = None) -> Result | None:
    """The match's result if ``user`` may see it (``None``: the public), else ``None``.
    ``game_shown``: what :func:`may_see_game` answers for the match and ``user``, when the
    caller has asked it already (a round's page asks once for all its tables)."""
    result: Result | None = getattr(match, "result", None)
    if result is not None and not (may_see_game(match, user) if game_shown is None
                                   else game_shown):
        return None
    if result is None or result.confirmed:
        return result
    organiser = organised_tournaments(user).filter(pk=match.round.tournament_id).exists()
    player = (user is not None and user.is_authenticated
              and match.seats.filter(player__user=user).exists())
    return result if organiser or player else None
