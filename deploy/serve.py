"""``make serve``: the production stack on this machine in one command
(docs/operating/serve.md).

1. The variables it needs are checked (read through config/environment.py, as the settings
   read them): a missing one stops it with a sentence naming it, before anything starts.
2. The release steps: Django's deployment check (any warning stops it), the migrations,
   ``collectstatic``, the compiled translations.
3. HAProxy's configuration (deploy/haproxy.py) for ``--webs`` web processes on the ports
   after ``--port``, where HAProxy listens.
4. honcho runs the Procfile in place of this process: the web processes, HAProxy, the
   Celery worker (niced) and beat. Ctrl-C (or SIGTERM to it) stops them all; honcho gives
   them 5 s before it kills what is left.

``--release`` stops after step 2 (compose.yaml's release service).
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
from collections.abc import Sequence
from pathlib import Path

from config.environment import Environment, read
from deploy.haproxy import render

ROOT = Path(__file__).resolve().parent.parent

#: what each required variable holds, for the sentence saying it is missing
REQUIRED = {
    "DJANGO_SECRET_KEY": "a long random text (python3 -c 'import secrets; "
                         "print(secrets.token_urlsafe(50))'), kept secret",
    "DJANGO_ALLOWED_HOSTS": "the site's host names, comma-separated (example.org)",
    "DATABASE_URL": "the PostgreSQL database (postgres://user:password@host:5432/name)",
    "CELERY_BROKER_URL": "the Redis that the web processes, the worker and beat share "
                         "(redis://host:6379/0)",
}


def problems(env: Environment) -> list[str]:
    """A sentence for each thing in ``env`` that keeps the production stack from starting."""
    found = [f"{name} is not set: it must be {what}." for name, what in REQUIRED.items()
             if not getattr(env, name)]
    if env.DATABASE_URL.startswith("sqlite"):
        found.append("DATABASE_URL names SQLite: the production stack needs PostgreSQL, "
                     "which its several processes share.")
    if env.DJANGO_DEBUG:
        found.append("DJANGO_DEBUG is true: the production stack runs with debug off "
                     "(unset it).")
    return found


def release() -> None:
    """The deployment check, the migrations, the static files, the translations."""
    import django
    from django.core.management import call_command

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    django.setup()
    call_command("check", deploy=True, fail_level="WARNING")
    call_command("migrate", interactive=False)
    call_command("collectstatic", interactive=False, verbosity=0)
    call_command("compile_translations")


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        prog="python -m deploy.serve", description="The production stack on this machine: "
        "the release steps, then the Procfile's processes under honcho.")
    parser.add_argument("--webs", type=int, default=2, help="web processes (default 2)")
    parser.add_argument("--host", default="0.0.0.0", help="where HAProxy listens")
    parser.add_argument("--port", type=int, default=8000,
                        help="HAProxy's port; the web processes take the next ones")
    parser.add_argument("--certificate", metavar="PEM",
                        help="HAProxy answers HTTPS with this certificate and key")
    parser.add_argument("--state", type=Path, default=ROOT / "build" / "serve",
                        help="where HAProxy's configuration and beat's schedule are written")
    parser.add_argument("--release", action="store_true",
                        help="only check the variables and take the release steps")
    args = parser.parse_args(argv)
    if not 1 <= args.webs <= 64:
        parser.error(f"--webs {args.webs}: from 1 to 64 web processes")
    if not 1 <= args.port <= 65535 - args.webs:
        parser.error(f"--port {args.port}: it and the {args.webs} after it must be ports "
                     "(1 to 65535)")
    found = problems(read())
    if not args.release and not shutil.which("haproxy"):
        found.append("HAProxy is not installed: it is the load balancer in front of the web "
                     "processes (Debian: apt-get install haproxy).")
    if found:
        raise SystemExit("make serve cannot start the production stack:\n"
                         + "\n".join(f"- {sentence}" for sentence in found))
    release()
    if args.release:
        return
    args.state.mkdir(parents=True, exist_ok=True)
    config = args.state / "haproxy.cfg"
    first = args.port + 1
    config.write_text(render((args.host, args.port),
                             [("127.0.0.1", first + n) for n in range(args.webs)],
                             certificate=args.certificate))
    bin_folder = str(Path(sys.executable).parent)  # the Procfile's python is this one
    env = {**os.environ, "HAPROXY_CONFIG": str(config), "WEB_HOST": "127.0.0.1",
           "BEAT_SCHEDULE": str(args.state / "celerybeat-schedule"),
           "PATH": bin_folder + os.pathsep + os.environ.get("PATH", "")}
    sys.stdout.flush()
    os.chdir(ROOT)
    # honcho would read a .env file into the processes but not into the steps above: none
    os.execve(sys.executable, [sys.executable, "-m", "honcho", "start", "--env", os.devnull,
                               "--port", str(first), "--concurrency", f"web={args.webs}"],
              env)


if __name__ == "__main__":
    main()
