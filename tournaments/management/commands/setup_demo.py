"""``manage.py setup_demo``: the demo league and its two logins (see tournaments.demo)."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from tournaments.demo import DEMO_NAME, demo_setup

ADMIN_URL = "http://127.0.0.1:8000/admin/"


class Command(BaseCommand):
    help = ("Create the demo league (once) and its logins: an organiser (not a superuser) and "
            "a superuser. A password is set when its login is created, then kept.")

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--new-passwords", action="store_true",
                            help="give both demo logins new passwords")

    def handle(self, *args: Any, **options: Any) -> None:
        setup = demo_setup(new_passwords=options["new_passwords"])
        made = "created" if setup.created else "already there"
        self.stdout.write(f"{DEMO_NAME}: {made}.")
        for login in setup.logins:
            role = "Superuser" if login.superuser else "Organiser (not a superuser)"
            password = (f"password {login.password}" if login.password else
                        "password unchanged (as printed when it was made, or as you set it; "
                        "setup_demo --new-passwords gives new ones)")
            self.stdout.write(self.style.SUCCESS(
                f"{role} login for {ADMIN_URL} : user {login.username}, {password}"))
