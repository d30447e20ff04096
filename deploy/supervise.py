"""``python -m deploy.supervise start ...``: honcho (its command line as it is), waiting
``STOP_SECONDS`` rather than its own 5 s for the processes to stop before it kills them.

On SIGTERM the Celery worker finishes the tasks in hand, hands back the messages it had
taken and stops its pool: on a busy 2-core machine that took more than 5 s (honcho then
killed it mid-way), though its tasks last well under a second. honcho has no option for
it, so this sets the module constant its loop reads.
"""

from __future__ import annotations

import sys

from honcho import command, manager

STOP_SECONDS = 30


def main() -> None:
    manager.KILL_WAIT = STOP_SECONDS
    command.main(sys.argv[1:])


if __name__ == "__main__":
    main()
