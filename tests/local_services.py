"""Print shell exports for the local services that answer, for ``make test``.

PostgreSQL on 127.0.0.1:5432 (database ``test``) and Redis on 127.0.0.1:6379 are used when
they answer and no DATABASE_URL / CELERY_BROKER_URL is set already; otherwise the suite runs
on SQLite with tasks in-process, and the tests that need the real services skip, saying so.
"""

from __future__ import annotations

import os
import socket
import sys

SERVICES = {
    "DATABASE_URL": ("PostgreSQL", 5432, "postgres://postgres@127.0.0.1:5432/test"),
    "CELERY_BROKER_URL": ("Redis", 6379, "redis://127.0.0.1:6379/0"),
}


def answers(port: int) -> bool:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=1):
            return True
    except OSError:
        return False


def main() -> None:
    for variable, (name, port, url) in SERVICES.items():
        if os.environ.get(variable):
            print(f"{variable} is set: using it for {name}", file=sys.stderr)
        elif answers(port):
            print(f"export {variable}={url}")
            print(f"{name} answers on 127.0.0.1:{port}: testing against it", file=sys.stderr)
        else:
            print(f"{name} does not answer on 127.0.0.1:{port}: its tests will be skipped",
                  file=sys.stderr)


if __name__ == "__main__":
    main()
