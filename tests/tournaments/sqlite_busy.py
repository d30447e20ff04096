"""A busy afternoon on ``make run``'s settings, in a process of its own (run by
``test_sqlite_busy.py``): the SQLite file given as the only argument, tasks in-process,
three live tables of bots playing while an organiser saves a tournament again and again
and completes a round. Bots alone at a tournament's table play at full speed, in the
thread that started them (as the in-process beat's scheduler does in its timer thread):
here a thread of its own publishes the round. Prints one JSON line: the errors logged, and
what the games and the round came to."""

from __future__ import annotations

import json
import logging
import os
import sys
import threading
import time

os.environ.update({"DJANGO_SETTINGS_MODULE": "config.settings", "DJANGO_DEBUG": "true",
                   "DATABASE_URL": f"sqlite:///{sys.argv[1]}",
                   "LIVE_BOT_PAUSE_SECONDS": "0.001", "LIVE_HAND_PAUSE_SECONDS": "0"})
os.environ.pop("CELERY_BROKER_URL", None)

import django  # noqa: E402

django.setup()

from django.apps import apps  # noqa: E402
from django.conf import settings  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.db import connection, transaction  # noqa: E402

from games.live.models import LiveTable  # noqa: E402
from tournaments import services  # noqa: E402
from tournaments.models import Result, Round, Standing, Tournament  # noqa: E402

from .factories import UserFactory, tournament_with_teams  # noqa: E402


class Errors(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.seen: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.seen.append(record.getMessage()[:300])


def main() -> None:
    # The tables made from the models, as the migrations make them (``make lint`` checks
    # that they agree): replaying the migrations' history took three quarters of the run.
    settings.MIGRATION_MODULES = {app.label: None for app in apps.get_app_configs()}
    call_command("migrate", run_syncdb=True, verbosity=0)
    errors = Errors()
    logging.getLogger().addHandler(errors)
    organiser = UserFactory(username="organiser")
    online = tournament_with_teams(6, play=Tournament.Play.ONLINE, bot_level="random",
                                   organisers=[organiser], name="Online")
    venue = tournament_with_teams(2, organisers=[organiser], name="Venue")
    at_venue = services.round_pair_next(tournament=venue, user=organiser)
    services.round_publish(round=at_venue, user=organiser)
    services.match_submit_score_sheet(
        match=at_venue.matches.get(), hand_scores=[[0, 40], [30, 0], [0, 50], [40, 0], [20, 0]],
        out_seats=[0, 1, 0, 1, 1], user=organiser)
    round = services.round_pair_next(tournament=online, user=organiser)
    saves, failures = 0, []

    def publish() -> None:  # the three tables open and their bots play to the end here
        try:
            services.round_publish(round=round, user=organiser)
        except Exception as exc:  # noqa: BLE001 - what the test is for: none may happen
            failures.append(repr(exc)[:300])
        finally:
            connection.close()

    publisher = threading.Thread(target=publish)
    publisher.start()
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and (publisher.is_alive() or saves < 20):
        try:  # as the admin saves a tournament: read it, then write it, in one transaction
            with transaction.atomic():
                saved = Tournament.objects.get(pk=venue.pk)
                saved.name = f"Venue {saves}"
                saved.save()
            saves += 1
            if saves == 20:
                services.round_complete(round=at_venue, user=organiser)
        except Exception as exc:  # what the test is for: none may happen
            failures.append(repr(exc)[:300])
        time.sleep(0.01)
    publisher.join(timeout=max(deadline - time.monotonic(), 0))
    while time.monotonic() < deadline and Result.objects.filter(match__round=round).count() < 3:
        time.sleep(0.1)  # the last table reports its result from the timer thread
    print(json.dumps({
        "errors": errors.seen, "failures": failures, "saves": saves,
        "finished": LiveTable.objects.filter(status=LiveTable.Status.FINISHED).count(),
        "results": Result.objects.filter(match__round=round).count(),
        "completed": Round.objects.get(pk=at_venue.pk).status == Round.Status.COMPLETE,
        "standings": Standing.objects.filter(tournament=venue, round_number=1).count(),
    }))


if __name__ == "__main__":
    main()
