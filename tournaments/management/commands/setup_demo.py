"""``manage.py setup_demo``: the demo league and an organiser login (see tournaments.demo)."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand

from tournaments.demo import DEMO_NAME, demo_setup


class Command(BaseCommand):
    help = "Create the demo league (once) and print a fresh organiser login."

    def handle(self, *args: Any, **options: Any) -> None:
        login = demo_setup()
        made = "created" if login.created else "already there"
        self.stdout.write(f"{DEMO_NAME}: {made}.")
        self.stdout.write(self.style.SUCCESS(
            f"Organiser login for http://127.0.0.1:8000/admin/ : user {login.username}, "
            f"password {login.password}"))
