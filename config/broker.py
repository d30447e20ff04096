"""The Celery broker's Redis transport: kombu's, but for one step that kills the worker
when Redis goes away while the worker holds tasks it has not acknowledged yet.

Celery 5.7's worker, on losing the broker, first collects the broken connection (which
lets go of the transport's settings) and then closes it; closing the channel then tries to
put the unacknowledged tasks back into Redis, needs the settings to connect, and fails with
``AttributeError: 'NoneType' object has no attribute 'hostname'``: an unrecoverable error
that ends the worker. Those tasks are the delayed ones (a bot's pause, a turn's timer) and
the one running, as tasks are acknowledged once done (``CELERY_TASK_ACKS_LATE``). With
Redis away they could not be put back anyway: they stay in Redis's own record of
unacknowledged tasks, which hands them out again after the visibility timeout, and the
live sweep sends whatever a table is waiting for well before that. So the worker skips the
step, reconnects and goes on.
"""

from __future__ import annotations

import logging
from typing import Any

from kombu.transport import redis

log = logging.getLogger(__name__)


class QoS(redis.QoS):
    def restore_unacked(self, client: Any | None = None) -> None:
        if client is None and self.channel.connection.client is None:
            log.warning("the broker connection is gone: %s unacknowledged task(s) stay in "
                        "Redis, handed out again after the visibility timeout",
                        len(self._delivered or ()))
            return None
        super().restore_unacked(client)


class Channel(redis.Channel):
    QoS = QoS


class Transport(redis.Transport):
    Channel = Channel
