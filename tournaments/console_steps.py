"""The organiser's console: which of a round's steps apply now, and which one comes next.

Pure: the facts about the tournament's latest round come in as :class:`Facts` (read by
``selectors.console``), and each step comes out with a sentence saying what it will do and,
when it does not apply, why not. The services decide for themselves again when a step is
taken; this only keeps the console from offering a button that would be refused.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

DRAFT, PUBLISHED = "draft", "published"  # Round.Status values


@dataclass(frozen=True, slots=True)
class Facts:
    """The latest round (``number`` 0 and ``status`` empty: none yet) and what it holds."""

    number: int = 0
    status: str = ""
    rounds_total: int | None = None  # None: the format cannot count them (too few teams)
    pairing_problem: str = ""  # why no round can be paired, when ``rounds_total`` is None
    open_tables: int = 0  # tables without a confirmed result
    bot_tables_left: int = 0  # all-bot tables of a published round with no result
    absent_seated: int = 0  # players marked absent who still hold a seat without a result
    job_running: bool = False  # the round's bot matches are being played
    live_playing: int = 0  # live tables of a published online round still being played


@dataclass(frozen=True, slots=True)
class Step:
    key: str
    label: str
    does: str  # what pressing it will do
    enabled: bool
    reason: str = ""  # why it is disabled


def console_steps(facts: Facts) -> list[Step]:
    """Every step, in the order a round goes through them, enabled or with its reason; none
    once the last round is complete (nothing is left to pair, publish or complete)."""
    if over(facts):
        return []
    return [_pair(facts), _fill(facts), _publish(facts), _play(facts), _complete(facts)]


def over(facts: Facts) -> bool:
    """Whether every round of the tournament is played and complete."""
    return (facts.rounds_total is not None and facts.number >= facts.rounds_total
            and facts.status not in (DRAFT, PUBLISHED))


def over_text(facts: Facts) -> str:
    return ngettext("The only round is played: the tournament is over.",
                    "All %(count)d rounds are played: the tournament is over.",
                    facts.rounds_total or 0) % {"count": facts.rounds_total}


def next_step(steps: list[Step]) -> Step | None:
    """The one step to take now: the first that applies (filling seats before publishing,
    publishing before playing, and so on); None while the round waits for results or the
    tournament is over."""
    return next((step for step in steps if step.enabled), None)


def _pair(facts: Facts) -> Step:
    number = facts.number + 1
    label = _("Pair next round")
    does = _("Pairs round %(number)d as a draft: you can check it and change it before "
             "anyone else sees it.") % {"number": number}
    if facts.rounds_total is None:
        return Step("pair", label, does, False, facts.pairing_problem)
    if facts.status == DRAFT:
        return Step("pair", label, does, False,
                    _("round %(number)d is already paired: publish it") % {
                        "number": facts.number})
    if facts.status == PUBLISHED:
        return Step("pair", label, does, False,
                    _("complete round %(number)d before pairing the next") % {
                        "number": facts.number})
    if number > facts.rounds_total:
        return Step("pair", label, does, False,
                    _("all %(count)d rounds are played: the tournament is over") % {
                        "count": facts.rounds_total})
    return Step("pair", label, does, True)


def _publish(facts: Facts) -> Step:
    label = _("Publish")
    if facts.status != DRAFT:
        # No draft to name: the round it would publish is not paired yet.
        does = _("Makes a paired round official: its tables are shown to the players and "
                 "the public, and tables with bots in every seat start playing.")
        return Step("publish", label, does, False, _no_draft(facts))
    does = _("Makes round %(number)d official: its tables are shown to the players and the "
             "public, and tables with bots in every seat start playing.") % {
        "number": facts.number}
    return Step("publish", label, does, True)


def _fill(facts: Facts) -> Step:
    label = _("Fill empty seats")
    count = facts.absent_seated
    anyone = _("Seats a bot in place of each player marked absent after the round was "
               "paired.")
    does = anyone if not count else ngettext(
        "Seats a bot in place of the %(count)d player marked absent for round %(number)d "
        "since it was paired.",
        "Seats a bot in place of each of the %(count)d players marked absent for round "
        "%(number)d since it was paired.", count) % {"count": count, "number": facts.number}
    if facts.status not in (DRAFT, PUBLISHED):
        return Step("fill", label, anyone, False, _no_open(facts))
    if not count:
        return Step("fill", label, does, False,
                    _("no player marked absent for round %(number)d holds a seat") % {
                        "number": facts.number})
    return Step("fill", label, does, True)


def _play(facts: Facts) -> Step:
    label = _("Play bot matches")
    count = facts.bot_tables_left
    every = _("Plays the tables with bots in every seat, in the background.")
    does = every if not count else ngettext(
        "Plays the %(count)d table with bots in every seat, in the background.",
        "Plays the %(count)d tables with bots in every seat, in the background.",
        count) % {"count": count}
    if facts.status != PUBLISHED:
        reason = (_("publish round %(number)d first") % {"number": facts.number}
                  if facts.status == DRAFT else _no_open(facts))
        return Step("play", label, every, False, reason)
    if facts.job_running:
        return Step("play", label, does, False,
                    _("the bot matches are being played: see their progress below"))
    if not count:
        return Step("play", label, does, False, _("no table with bots in every seat is "
                                                  "waiting to be played"))
    return Step("play", label, does, True)


def _complete(facts: Facts) -> Step:
    label = _("Complete round")
    if facts.status not in (DRAFT, PUBLISHED):
        does = _("Closes the round being played and updates the standings; the ratings "
                 "follow in the background.")
        return Step("complete", label, does, False, _no_open(facts))
    does = _("Closes round %(number)d and updates the standings; the ratings follow in the "
             "background.") % {"number": facts.number}
    if facts.status == DRAFT:
        return Step("complete", label, does, False,
                    _("publish round %(number)d first") % {"number": facts.number})
    if facts.live_playing:
        return Step("complete", label, does, False, ngettext(
            "%(count)d table is still being played online (end a stuck one from its row "
            "below)",
            "%(count)d tables are still being played online (end a stuck one from its row "
            "below)", facts.live_playing) % {"count": facts.live_playing})
    if facts.open_tables:
        return Step("complete", label, does, False, ngettext(
            "%(count)d table has no confirmed result yet",
            "%(count)d tables have no confirmed result yet", facts.open_tables) % {
            "count": facts.open_tables})
    return Step("complete", label, does, True)


def _no_draft(facts: Facts) -> str:
    if not facts.status:
        return _("no round is paired yet: pair the next round first")
    if facts.status == PUBLISHED:
        return _("round %(number)d is already published") % {"number": facts.number}
    return _("round %(number)d is complete: pair the next round first") % {
        "number": facts.number}


def _no_open(facts: Facts) -> str:
    if not facts.status:
        return _("no round is paired yet")
    return _("round %(number)d is complete") % {"number": facts.number}
