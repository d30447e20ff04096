"""Who plays, in what, when, and with what result: players, teams, tournaments, their
rounds, matches, seats and results (the source of truth the derived rows come from)."""

from __future__ import annotations

import secrets
from typing import TYPE_CHECKING, Any

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models import Q
from django.db.models.functions import Lower
from django.utils.text import slugify
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from games.vocabulary import bot_label, bot_level_choices
from tournaments.formats import TournamentFormat, format_of, formats
from tournaments.formats.ties import DECIDED_BY_LABELS, TIE_RULES
from tournaments.standings import TIEBREAKS, ScoringRule

if TYPE_CHECKING:  # leagues.py imports this module: the club model is named for mypy only
    from .leagues import Club

# the bots' registry (games.bots) with its labels; a callable, so a new level needs no migration
BOT_LEVELS = bot_level_choices


HANDLE_LENGTH = 40
#: The kind of live table a tournament match is played at (``LiveTable.reports_to``).
LIVE_TABLE_KIND = "tournament-match"


def new_handle(name: str) -> str:
    """A free handle made from ``name``: ``aino``, else ``aino-2``, ``aino-3``, ..."""
    stem = slugify(name)[:HANDLE_LENGTH - 6].strip("-") or "player"
    taken = set(Player.objects.filter(handle__startswith=stem).values_list("handle", flat=True))
    handle, number = stem, 1
    while handle in taken:
        number += 1
        handle = f"{stem}-{number}"
    return handle


class Player(models.Model):
    """A player. Names may repeat; the handle is unique and is shown beside the name wherever
    two players could be confused (the admin's lists and choices, the player's page)."""

    name = models.CharField(_("name"), max_length=100)
    handle = models.SlugField(
        _("handle"), max_length=HANDLE_LENGTH, unique=True, blank=True,
        error_messages={"unique": _("Another player already has this handle.")},
        help_text=_("Unique: letters, digits, hyphens and underscores. Left empty, it is made "
                    "from the name."))
    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL,
                                null=True, blank=True, related_name="player",
                                verbose_name=_("user account"))
    rating_mu = models.FloatField(_("rating μ (mean)"), default=25.0)
    rating_sigma = models.FloatField(_("rating σ (uncertainty)"), default=25.0 / 3)
    club = models.ForeignKey("Club", on_delete=models.SET_NULL, null=True, blank=True,
                             related_name="players", verbose_name=_("club"))

    class Meta:
        verbose_name = _("player")
        verbose_name_plural = _("players")
        ordering = ["name"]

    def __str__(self) -> str:
        return f"{self.name} (@{self.handle})" if self.handle else self.name

    def save(self, *args: Any, **kwargs: Any) -> None:
        if not self.handle:
            self.handle = new_handle(self.name)
        super().save(*args, **kwargs)


class Team(models.Model):
    name = models.CharField(_("name"), max_length=100, unique=True,
                            error_messages={"unique": _("There is already a team of this name.")})
    player_a = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+",
                                 verbose_name=_("player A"))
    player_b = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+",
                                 verbose_name=_("player B"))
    club = models.ForeignKey(
        "Club", on_delete=models.SET_NULL, null=True, blank=True, related_name="teams",
        verbose_name=_("club"),
        help_text=_("Empty: the team belongs to its players' clubs."))

    class Meta:
        verbose_name = _("team")
        verbose_name_plural = _("teams")
        ordering = ["name"]
        constraints = [
            models.CheckConstraint(
                condition=~Q(player_a=models.F("player_b")), name="team_two_different_players",
                violation_error_message=_("A team needs two different players.")),
        ]

    def __str__(self) -> str:
        return self.name


class Tournament(models.Model):
    # one choice per registered format (tournaments/formats/__init__.py)
    # the stubs know only the lookup of a member, not the functional form that makes a class
    Format = models.TextChoices(  # type: ignore[call-overload]
        "Format", [(f.key.upper(), (f.key, f.label)) for f in formats()])

    class Status(models.TextChoices):
        UPCOMING = "upcoming", _("upcoming")
        RUNNING = "running", _("running")
        FINISHED = "finished", _("finished")

    class ByePolicy(models.TextChoices):
        BYE = "bye", _("a bye")
        BOT = "bot", _("a match against the bot team")

    class Dealing(models.TextChoices):
        PLATFORM = "platform", _("the platform deals (printed deals at a venue)")
        VENUE = "venue", _("the venue deals freely")

    class Play(models.TextChoices):
        VENUE = "venue", _("at the venue (score sheets and uploaded records)")
        ONLINE = "online", _("online, at live tables on the site")

    class Duplicate(models.TextChoices):
        # the values are the standings metrics' keys (standings.duplicate_metrics)
        OFF = "", _("no: each match has its own deals")
        MATCHPOINTS = "matchpoints", _("yes, ranked on matchpoints")
        BUTLER = "butler", _("yes, ranked on Butler")
        CROSS = "cross_diff", _("yes, ranked on cross-difference")

    class Spectators(models.TextChoices):
        ANYONE = "anyone", _("anyone")
        PLAYERS = "players", _("the tournament's players (logged in) and its organisers")
        NOBODY = "nobody", _("nobody but its organisers")

    name = models.CharField(_("name"), max_length=200)
    organisers = models.ManyToManyField(settings.AUTH_USER_MODEL, related_name="organised",
                                        verbose_name=_("organisers"))
    format = models.CharField(_("format"), max_length=20, choices=Format.choices,
                              default=Format.SWISS)
    status = models.CharField(_("status"), max_length=10, choices=Status.choices,
                              default=Status.UPCOMING)
    starts_on = models.DateField(_("starts on"), null=True, blank=True,
                                 help_text=_("Shown to players, e.g. on the home page."))
    ends_on = models.DateField(_("ends on"), null=True, blank=True)
    rounds_planned = models.PositiveSmallIntegerField(
        _("rounds planned"), default=5, validators=[MinValueValidator(1), MaxValueValidator(99)],
        help_text=_("Swiss only: how many rounds; the other formats know their own."))
    points_win = models.DecimalField(_("points for a win"), max_digits=4, decimal_places=1,
                                     default=2)
    points_draw = models.DecimalField(_("points for a draw"), max_digits=4, decimal_places=1,
                                      default=1)
    points_loss = models.DecimalField(_("points for a loss"), max_digits=4, decimal_places=1,
                                      default=0)
    points_bye = models.DecimalField(_("points for a bye"), max_digits=4, decimal_places=1,
                                     default=2)

    @property
    def scoring(self) -> ScoringRule:
        """The points above as the standings count them, exact: the stored Decimals become
        fractions (0.1 is exactly a tenth)."""
        return ScoringRule(win=self.points_win, draw=self.points_draw, loss=self.points_loss,
                           bye=self.points_bye)

    tiebreaks = models.JSONField(_("tie-breaks"), default=list, blank=True,
                                 help_text=_("Ordered tie-break keys, e.g. "
                                             '["score_diff", "buchholz", "head_to_head"].'))
    bye_policy = models.CharField(_("bye policy"), max_length=3, choices=ByePolicy.choices,
                                  default=ByePolicy.BYE)
    bot_level = models.CharField(_("bot level"), max_length=10, choices=BOT_LEVELS,
                                 default="greedy")
    knockout_tie_rule = models.CharField(
        _("knockout tie rule"), max_length=40,
        choices=[(rule, DECIDED_BY_LABELS[rule]) for rule in TIE_RULES],
        default=TIE_RULES[0],
        help_text=_("A bracket: how a drawn game is decided; the other rules follow in order, "
                    "ending with the better seed."))
    third_place_match = models.BooleanField(_("third place match"), default=False)
    confirm_score_sheets = models.BooleanField(
        _("confirm score sheets"), default=False,
        help_text=_("Each entered score sheet and uploaded game record waits for "
                    "confirmation: by a player of the other team when a player entered it, "
                    "or by another organiser."))
    play = models.CharField(
        _("played"), max_length=10, choices=Play.choices, default=Play.VENUE,
        help_text=_("Online: publishing a round opens a live table for each match, seated as "
                    "paired (a player without a login, or absent, gets a bot), and the game's "
                    "result is the match's."))
    spectators = models.CharField(
        _("who may watch a table in play"), max_length=10, choices=Spectators.choices,
        default=Spectators.ANYONE,
        help_text=_("Online: who may watch a round's live tables while they are played (the "
                    "public view: no hand is shown); seated players always see their own."))
    turn_seconds = models.PositiveIntegerField(
        _("time per turn (seconds)"), null=True, blank=True, default=60,
        validators=[MinValueValidator(5)],
        help_text=_("Online: each person's time for a turn; a longer turn spends their "
                    "reserve, and when both are gone their bot plays that turn. Empty: no "
                    "clock."))
    reserve_seconds = models.PositiveIntegerField(
        _("reserve per player (seconds)"), null=True, blank=True, default=300,
        help_text=_("Online: extra time each person has for the whole game, spent only "
                    "where a turn outlasts its time. Empty: none."))
    grace_seconds = models.PositiveIntegerField(
        _("substitute after (seconds)"), null=True, blank=True, default=60,
        validators=[MinValueValidator(30)],
        help_text=_("Online: a player who has not come to their table this long after the "
                    "round was published, or whose connection is gone this long, gets a bot "
                    "for the turns they miss, and takes the seat back on returning. Empty: "
                    "never (their clock still runs)."))
    wait_for_players = models.BooleanField(
        _("tables wait for their first player"), default=False,
        help_text=_("Online: a table's clocks, its bots and the substitutes' grace wait until "
                    "the first of its players opens it (for a friendly cup; a table that "
                    "nobody opens is never played)."))
    bot_share_limit = models.PositiveSmallIntegerField(
        _("leave out games bots played more than this share of (%)"), null=True, blank=True,
        validators=[MinValueValidator(1), MaxValueValidator(100)],
        help_text=_("Online: a game where a bot played more than this percentage of the "
                    "actions of a seat a person holds (for a player who left or ran out of "
                    "time) counts in neither the standings nor the ratings; it is still "
                    "shown, marked. Empty: every game counts."))
    dealing = models.CharField(
        _("dealing"), max_length=10, choices=Dealing.choices, default=Dealing.PLATFORM,
        help_text=_("Platform: each match has its own packs, fixed when it is paired; an "
                    "uploaded record must be played on them (print them for a venue table). "
                    "Venue: any packs, and a record a player uploads waits for the other "
                    "team to confirm it."))
    duplicate = models.CharField(
        _("duplicate"), max_length=20, choices=Duplicate.choices, default=Duplicate.OFF,
        blank=True,
        help_text=_("Duplicate: every match of a round is dealt the same five boards, and "
                    "each team is compared on them with the teams that held the same seats "
                    "(docs/duplicate-scoring.md); the standings rank on the chosen measure "
                    "before points. The boards and every result on them stay hidden from "
                    "all but the organisers until every table of the round has finished or "
                    "an organiser releases them. Needs the platform to deal."))

    check_in_required = models.BooleanField(
        _("players must check in"), default=False,
        help_text=_("A player not checked in for a round when it is paired is absent, and a "
                    "bot plays in their seat."))
    # annotated: the plugin cannot type a relation named by a string with no reverse name
    keep_apart_clubs: models.ManyToManyField[Club, Any] = models.ManyToManyField(
        "Club", blank=True, related_name="+", verbose_name=_("keep these clubs' teams apart"),
        help_text=_("Swiss pairs two teams of one of these clubs only when no draw keeps "
                    "them apart (a team belongs to its own club, else to its players')."))
    check_in_closes = models.DateTimeField(
        _("self check-in open until"), null=True, blank=True,
        help_text=_("Until then, players check themselves in for the next round on their "
                    "player page. Empty: only organisers check players in."))

    class EntryMode(models.TextChoices):
        INVITE = "invite", _("invite only: the organisers enter the teams")
        OPEN = "open", _("open: a team that enters gets a place while there is one")
        APPROVAL = "approval", _("open, with the organisers' approval of each team")

    entry_mode = models.CharField(
        _("entries"), max_length=10, choices=EntryMode.choices, default=EntryMode.INVITE,
        help_text=_("Open or with approval: between the two times below, a player with a "
                    "login enters a team by naming a partner, who accepts on the site "
                    "(services.entries)."))
    entries_open = models.DateTimeField(_("entries open"), null=True, blank=True)
    entries_close = models.DateTimeField(_("entries close"), null=True, blank=True)
    capacity = models.PositiveSmallIntegerField(
        _("places (teams)"), null=True, blank=True,
        validators=[MinValueValidator(2), MaxValueValidator(9999)],
        help_text=_("How many teams may enter, those the organisers enter too. Empty: no "
                    "limit."))
    waiting_list = models.BooleanField(
        _("waiting list"), default=False,
        help_text=_("When every place is taken, a team that enters waits, first come first "
                    "served, and moves up when a team withdraws before the first round."))

    class Meta:
        verbose_name = _("tournament")
        verbose_name_plural = _("tournaments")
        ordering = ["-id"]
        # One name, one tournament, whatever its letters' case: the pages, the API and the
        # admin's choices show tournaments by name (clean() says so on the name field).
        constraints = [models.UniqueConstraint(
            Lower("name"), name="tournament_name_unique",
            violation_error_message=_("There is already a tournament of this name."))]

    def __str__(self) -> str:
        return self.name

    @property
    def format_spec(self) -> TournamentFormat:
        """What the tournament's format answers: its rounds, pairings, bracket and pages."""
        return format_of(self.format)

    def clean(self) -> None:
        """The tie-breaks must be known metric keys, each once (see standings.TIEBREAKS);
        a tournament ends on or after the day it starts; no other tournament has its name
        (in any case of letters: the database's constraint, said on the name's field)."""
        if self.starts_on and self.ends_on and self.ends_on < self.starts_on:
            raise ValidationError({"ends_on": _("A tournament cannot end before it starts.")})
        if self.name and (Tournament.objects.filter(name__iexact=self.name)
                          .exclude(pk=self.pk).exists()):
            raise ValidationError({"name": _(
                "There is already a tournament named “%(name)s”: give this one another "
                "name (add the year or the place, say).") % {"name": self.name}})
        if self.duplicate and self.format and "duplicate" not in self.format_spec.settings:
            raise ValidationError({"duplicate": _(
                "Duplicate ranks a table of teams: a bracket's matches decide who advances, "
                "so choose a Swiss or round robin format for it.")})
        if self.duplicate and self.dealing != Tournament.Dealing.PLATFORM:
            raise ValidationError({"duplicate": _(
                "A duplicate tournament needs the platform to deal: every table of a round "
                "plays the same boards, printed or dealt at the live tables.")})
        self._clean_entries()
        keys = self.tiebreaks
        if self.duplicate and isinstance(keys, list) and self.duplicate in keys:
            raise ValidationError({"tiebreaks": _(
                "%(key)s is already the main ranking: leave it out of the tie-breaks.")
                % {"key": self.duplicate}})
        if not isinstance(keys, list) or not all(isinstance(k, str) for k in keys):
            raise ValidationError({"tiebreaks": _("A list of tie-break keys, in order.")})
        unknown = [k for k in keys if k not in TIEBREAKS]
        if unknown or len(set(keys)) != len(keys):
            raise ValidationError({"tiebreaks": _(
                "Use each of these keys at most once: %(known)s.") % {
                    "known": ", ".join(sorted(TIEBREAKS))}})


    def _clean_entries(self) -> None:
        """Players enter themselves between two times, the second after the first."""
        if self.entry_mode != Tournament.EntryMode.INVITE:
            missing = {field: _("Players enter between two times: give both.")
                       for field in ("entries_open", "entries_close")
                       if getattr(self, field) is None}
            if missing:
                raise ValidationError(missing)
        if self.entries_open and self.entries_close and self.entries_close <= self.entries_open:
            raise ValidationError({"entries_close": _(
                "Entries must close after they open.")})


class Entry(models.Model):
    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="entries",
                                   verbose_name=_("tournament"))
    team = models.ForeignKey(Team, on_delete=models.PROTECT, related_name="entries",
                             verbose_name=_("team"))
    seed = models.PositiveIntegerField(_("seed"), null=True, blank=True)
    withdrawn = models.BooleanField(_("withdrawn"), default=False)

    class Meta:
        verbose_name = _("entry")
        verbose_name_plural = _("entries")
        ordering = ["seed", "id"]
        constraints = [models.UniqueConstraint(
            fields=["tournament", "team"], name="entry_once_per_tournament",
            violation_error_message=_("This team is already entered in this tournament."))]

    def __str__(self) -> str:
        return gettext("%(team)s in %(tournament)s") % {"team": self.team,
                                                       "tournament": self.tournament}


class Absence(models.Model):
    """A player who will not come to a round: a bot substitutes in their seat."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="absences",
                                   verbose_name=_("tournament"))
    round_number = models.PositiveSmallIntegerField(_("round"))
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="absences",
                               verbose_name=_("player"))

    class Meta:
        verbose_name = _("absence")
        verbose_name_plural = _("absences")
        constraints = [models.UniqueConstraint(
            fields=["tournament", "round_number", "player"], name="absence_once",
            violation_error_message=_("This player is already marked absent from this round."))]

    def __str__(self) -> str:
        return gettext("%(player)s misses round %(number)d") % {
            "player": self.player, "number": self.round_number}


class CheckIn(models.Model):
    """A player who is present for a round (checked in by an organiser or by themselves).
    With the tournament's ``check_in_required``, a player not checked in is absent."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE,
                                   related_name="check_ins", verbose_name=_("tournament"))
    round_number = models.PositiveSmallIntegerField(_("round"))
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="check_ins",
                               verbose_name=_("player"))
    by_player = models.BooleanField(_("checked in by the player"), default=False)
    created = models.DateTimeField(_("created"), auto_now_add=True)

    class Meta:
        verbose_name = _("check-in")
        verbose_name_plural = _("check-ins")
        constraints = [models.UniqueConstraint(
            fields=["tournament", "round_number", "player"], name="check_in_once",
            violation_error_message=_("This player is already checked in for this round."))]

    def __str__(self) -> str:
        return gettext("%(player)s checked in for round %(number)d") % {
            "player": self.player, "number": self.round_number}


class Round(models.Model):
    class Status(models.TextChoices):
        DRAFT = "draft", _("draft")
        PUBLISHED = "published", _("published")
        COMPLETE = "complete", _("complete")

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="rounds",
                                   verbose_name=_("tournament"))
    number = models.PositiveSmallIntegerField(_("number"))
    status = models.CharField(_("status"), max_length=10, choices=Status.choices,
                              default=Status.DRAFT)
    # A duplicate round's boards (duplicate.boards_from_seed): every match of it is dealt
    # from this seed. None outside a duplicate tournament, where each match has its own.
    seed = models.BigIntegerField(_("boards' seed"), null=True, blank=True, editable=False)
    boards_released = models.BooleanField(
        _("boards released"), default=False,
        help_text=_("Duplicate: an organiser showed the round's boards and results before "
                    "every table had finished (they are shown by themselves once all have)."))
    draw_note = models.TextField(
        _("notes on the draw"), blank=True,
        help_text=_("A line for each pair to keep apart that the draw could not keep apart "
                    "(and why), and for each change an organiser made to the draft draw."))

    class Meta:
        verbose_name = _("round")
        verbose_name_plural = _("rounds")
        ordering = ["tournament", "number"]
        constraints = [models.UniqueConstraint(fields=["tournament", "number"],
                                               name="round_number_once")]

    def __str__(self) -> str:
        return gettext("%(tournament)s round %(number)d") % {"tournament": self.tournament,
                                                            "number": self.number}


class Table(models.Model):
    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="tables",
                              verbose_name=_("round"))
    number = models.PositiveSmallIntegerField(_("number"))

    class Meta:
        verbose_name = _("table")
        verbose_name_plural = _("tables")
        ordering = ["round", "number"]
        constraints = [models.UniqueConstraint(fields=["round", "number"], name="table_once")]

    def __str__(self) -> str:
        return gettext("table %(number)d") % {"number": self.number}


def new_deal_seed() -> int:
    """A match's deals (its first dealer and five packs, ``games.engine.deal_from_seed``):
    63 random bits, so that no one can work them out before the match is over."""
    return secrets.randbits(63)


class Match(models.Model):
    """Two teams at a table (team_a in seats 0 and 2). A bye has no table and no team_b;
    a match against the house bot team has ``bot_opponent`` set and no team_b."""

    class Status(models.TextChoices):
        PENDING = "pending", _("pending")
        PLAYING = "playing", _("being played")
        AWAITING = "awaiting", _("awaiting confirmation")
        DONE = "done", _("done")

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="matches",
                              verbose_name=_("round"))
    table = models.OneToOneField(Table, on_delete=models.CASCADE, null=True, blank=True,
                                 related_name="match", verbose_name=_("table"))
    team_a = models.ForeignKey(Team, on_delete=models.PROTECT, related_name="+",
                               verbose_name=_("team A"))
    team_b = models.ForeignKey(Team, on_delete=models.PROTECT, null=True, blank=True,
                               related_name="+", verbose_name=_("team B"))
    is_bye = models.BooleanField(_("bye"), default=False)
    bot_opponent = models.BooleanField(_("against the bot team"), default=False)
    bracket_slot = models.PositiveSmallIntegerField(_("place in the bracket"), null=True,
                                                    blank=True)
    status = models.CharField(_("status"), max_length=10, choices=Status.choices,
                              default=Status.PENDING)
    # Never shown to players or the public: the deals page shows it to organisers as packs.
    seed = models.BigIntegerField(_("deal seed"), default=new_deal_seed, editable=False,
                                  help_text=_("the seed of the match's deals"))
    # Online: the live table the match is played at (dealt from ``seed``).
    live_table = models.OneToOneField("live.LiveTable", on_delete=models.SET_NULL, null=True,
                                      blank=True, editable=False, related_name="match",
                                      verbose_name=_("live table"))

    class Meta:
        verbose_name = _("match")
        verbose_name_plural = _("matches")
        ordering = ["round", "table__number", "id"]
        constraints = [
            models.CheckConstraint(
                condition=Q(is_bye=True, team_b__isnull=True, bot_opponent=False)
                | Q(is_bye=False, team_b__isnull=True, bot_opponent=True)
                | Q(is_bye=False, team_b__isnull=False, bot_opponent=False),
                name="match_has_an_opponent_or_is_a_bye"),
        ]

    def __str__(self) -> str:
        if self.is_bye:
            return gettext("%(team)s (bye)") % {"team": self.team_a}
        return gettext("%(team_a)s v %(team_b)s") % {
            "team_a": self.team_a, "team_b": self.team_b or gettext("bot team")}


class Seat(models.Model):
    """One of a match's four seats: a player, or a bot (a substitute when it replaces an
    absent player). ``round`` is kept here so the database can refuse a player twice a round."""

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="seats",
                              verbose_name=_("match"))
    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="+",
                              verbose_name=_("round"))
    position = models.PositiveSmallIntegerField(_("position"),
                                                validators=[MaxValueValidator(3)])
    player = models.ForeignKey(Player, on_delete=models.PROTECT, null=True, blank=True,
                               related_name="seats", verbose_name=_("player"))
    bot_level = models.CharField(_("bot level"), max_length=10, choices=BOT_LEVELS,
                                 blank=True)
    substitute = models.BooleanField(_("substitute"), default=False)

    class Meta:
        verbose_name = _("seat")
        verbose_name_plural = _("seats")
        ordering = ["match", "position"]
        constraints = [
            models.UniqueConstraint(fields=["match", "position"], name="seat_once"),
            models.UniqueConstraint(
                fields=["round", "player"], condition=Q(player__isnull=False),
                name="player_sits_once_per_round",
                violation_error_message=_("This player already sits at a table in this round.")),
            models.CheckConstraint(
                condition=Q(player__isnull=False) | ~Q(bot_level=""),
                name="seat_is_a_player_or_a_bot",
                violation_error_message=_("A seat needs a player, or a bot level for a bot.")),
        ]

    @property
    def is_bot(self) -> bool:
        return self.player_id is None

    def __str__(self) -> str:
        if self.player:
            return str(self.player)
        return gettext("%(level)s bot") % {"level": bot_label(self.bot_level)}


class Result(models.Model):
    """A match's one result (the database refuses a second)."""

    class Source(models.TextChoices):
        BOTS = "bots", _("played by bots")
        RECORD = "record", _("uploaded game record")
        SHEET = "sheet", _("entered score sheet")
        ONLINE = "online", _("played online")
        # an organiser ended a live table whose game could not finish, and decided it
        ENDED = "ended", _("decided by the organiser (live table ended)")

    match = models.OneToOneField(Match, on_delete=models.CASCADE, related_name="result",
                                 verbose_name=_("match"))
    source = models.CharField(_("source"), max_length=10, choices=Source.choices)
    hand_scores = models.JSONField(_("hand scores"),
                                   help_text=_("[[team_a, team_b], ...] per hand"))
    out_seats = models.JSONField(_("seats that went out"),
                                 help_text=_("the seat that went out in each hand, or null"))
    total_a = models.PositiveIntegerField(_("total of team A"))
    total_b = models.PositiveIntegerField(_("total of team B"))
    # the hands each team went out in, counted from out_seats when stored: the standings
    # read 10,000 results at a time, and decoding every out_seats took as long as ranking
    out_a = models.PositiveSmallIntegerField(_("hands team A went out in"), default=0)
    out_b = models.PositiveSmallIntegerField(_("hands team B went out in"), default=0)
    winner = models.CharField(_("winner"), max_length=1,
                              choices=[("a", _("team a")), ("b", _("team b")),
                                       ("d", _("draw"))])
    decided_by = models.CharField(_("decided by"), max_length=40, blank=True,
                                  help_text=_("knockout: the rule that decided a drawn match"))
    record = models.JSONField(_("game record"), null=True, blank=True,
                              help_text=_("the push-record/1 game"))
    entered_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL,
                                   null=True, blank=True, related_name="+",
                                   verbose_name=_("entered by"))
    confirmed_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL,
                                     null=True, blank=True, related_name="+",
                                     verbose_name=_("confirmed by"))
    confirmed = models.BooleanField(_("confirmed"), default=True)
    # a player of the other team disputed it (with their reason): an organiser decides
    disputed_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL,
                                    null=True, blank=True, related_name="+",
                                    verbose_name=_("disputed by"))
    dispute_reason = models.CharField(_("reason for the dispute"), max_length=500,
                                      blank=True)
    # why an organiser ended the match's live table (``Source.ENDED``); shown with the result
    reason = models.CharField(_("reason"), max_length=500, blank=True)
    # of a game played online: the largest share of a person's seat's actions that a bot
    # played for them (``tournaments.bot_share``); 0 for every other result
    bot_share = models.FloatField(_("share of a person's actions played by a bot"), default=0,
                                  validators=[MinValueValidator(0), MaxValueValidator(1)])
    created = models.DateTimeField(_("created"), auto_now_add=True)

    class Meta:
        verbose_name = _("result")
        verbose_name_plural = _("results")

    def __str__(self) -> str:
        return f"{self.match}: {self.total_a}-{self.total_b}"

    @property
    def disputed(self) -> bool:
        """Disputed and not yet settled: it waits for an organiser."""
        return self.disputed_by_id is not None and not self.confirmed
