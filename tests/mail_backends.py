"""Mail backends for the tests: Django's in-memory one (``mail.outbox``), made slow or made
to fail, as a real mail server can be. Real sending code, no mock: only the server is
played."""

from __future__ import annotations

import smtplib
import threading
import time
from collections.abc import Sequence

from django.core.mail import EmailMessage
from django.core.mail.backends.locmem import EmailBackend


class FailingBackend(EmailBackend):
    """Refuses the first ``failures`` sends (as a server that is down), then delivers."""

    failures = 0
    _lock = threading.Lock()

    def send_messages(self, messages: Sequence[EmailMessage]) -> int:
        with self._lock:
            if FailingBackend.failures > 0:
                FailingBackend.failures -= 1
                raise smtplib.SMTPServerDisconnected("the mail server went away")
        return super().send_messages(messages)


class SlowBackend(EmailBackend):
    """Takes ``seconds`` to deliver, as a server far away: a second sender arrives while
    the first still holds the mail."""

    seconds = 0.3

    def send_messages(self, messages: Sequence[EmailMessage]) -> int:
        time.sleep(self.seconds)
        return super().send_messages(messages)
