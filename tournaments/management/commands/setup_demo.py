"""``manage.py setup_demo``: the demo league, the online cup and their logins (see
tournaments.demo)."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandParser
from django.utils import timezone

from tournaments.demo import DEMO_NAME, ONLINE_NAME, PLAYER_LOGINS, SCHEDULED_NAME, demo_setup

ADMIN_URL = "http://127.0.0.1:8000/admin/"
SITE_URL = "http://127.0.0.1:8000/"


class Command(BaseCommand):
    help = ("Create the demo league and the online cup (once) and their logins: an organiser "
            "(not a superuser), a superuser and two players. A password is set when its login "
            "is created, then kept.")

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--new-passwords", action="store_true",
                            help="give every demo login a new password")
        parser.add_argument("--restart-online", action="store_true",
                            help="deal the online cup's match afresh, waiting for its two "
                                 "players again (whatever was played at it is lost)")

    def handle(self, *args: Any, **options: Any) -> None:
        setup = demo_setup(new_passwords=options["new_passwords"],
                           restart_online=options["restart_online"])
        made = "created" if setup.created else "already there"
        self.stdout.write(f"{DEMO_NAME}: {made}.")
        if options["restart_online"]:
            self.stdout.write(f"{ONLINE_NAME}: dealt afresh; it waits for its players.")
        if setup.entries_close is not None:
            closes = timezone.localtime(setup.entries_close).strftime("%H:%M %Z")
            logins = " and ".join(PLAYER_LOGINS)
            self.stdout.write(f"{SCHEDULED_NAME}: open for entries until {closes}: {logins} "
                              "may enter it together; their notifications come by mail too "
                              "(printed in this console under make run).")
        for login in setup.logins:
            role = ("Superuser" if login.superuser else "Organiser (not a superuser)"
                    if login.staff else "Player at the online cup's table")
            url = ADMIN_URL if login.staff else SITE_URL
            password = (f"password {login.password}" if login.password else
                        "password unchanged (as printed when it was made, or as you set it; "
                        "setup_demo --new-passwords gives new ones)")
            self.stdout.write(self.style.SUCCESS(
                f"{role} login for {url} : user {login.username}, {password}"))
