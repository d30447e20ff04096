"""``manage.py play_game --seed N --bots greedy,random,greedy,random [--players NAMES]
[--out FILE]``."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from games.bots import BOT_NAMES, make_bot
from games.engine import deal_from_seed, play_game, verify


class Command(BaseCommand):
    help = "Play a whole game with a bot in each seat and write its push-record/1 record."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--seed", type=int, default=0,
                            help="seeds the packs, the first dealer and the bots")
        parser.add_argument("--bots", default="greedy,random,greedy,random",
                            help=f"four bot names, seat 0 first, from: {', '.join(BOT_NAMES)}")
        parser.add_argument("--players",
                            help="four distinct player names, seat 0 first, for the record "
                                 "(e.g. a match's players: seats 0 and 2 are team A); "
                                 "default: the bots' names")
        parser.add_argument("--out", help="write the record here (default: standard output)")

    def handle(self, *args: Any, **options: Any) -> None:
        names = [n.strip() for n in options["bots"].split(",")]
        if len(names) != 4:
            raise CommandError(f"--bots needs four names (one per seat), got {len(names)}")
        seed = options["seed"]
        try:
            bots = [make_bot(name, seed * 4 + seat) for seat, name in enumerate(names)]
        except ValueError as exc:
            raise CommandError(str(exc)) from None
        players = (seat_names(options["players"]) if options["players"] is not None
                   else [f"{n} bot" for n in names])
        first_dealer, decks = deal_from_seed(seed)
        record = play_game(bots, first_dealer, decks, players=players)
        text = record.dumps(indent=1)
        if not options["out"]:
            self.stdout.write(text)
            return
        try:
            with open(options["out"], "w") as f:
                f.write(text + "\n")
        except OSError as exc:
            raise CommandError(f"cannot write {options['out']}: {exc.strerror}") from None
        verdict = verify(record)
        self.stdout.write(
            f"wrote {options['out']}: {verdict.status}, totals {list(verdict.totals)}, "
            f"winner {'draw' if verdict.winner is None else f'team {verdict.winner}'}")


def seat_names(text: str) -> list[str]:
    """``--players "Anna,Bo,Cai,Dan"``: four distinct, non-empty names (a record names each
    seat once; the platform matches them to a match's players ignoring case)."""
    names = [name.strip() for name in text.split(",")]
    if len(names) != 4:
        raise CommandError(f"--players needs four names (one per seat, seat 0 first, "
                           f"separated by commas), got {len(names)}: {text!r}")
    for seat, name in enumerate(names):
        if not name:
            raise CommandError(f"--players: the name of seat {seat} is empty: {text!r}")
    folded = [name.casefold() for name in names]
    for seat, name in enumerate(folded):
        if name in folded[:seat]:
            raise CommandError(f"--players: seats {folded.index(name)} and {seat} are both "
                               f"named {names[seat]!r}; each seat needs its own player")
    return names
