"""The environment variables the project reads, each declared once here: its name, type,
default, what it takes (a range, the choices) and what it means.

``read()`` reads them all through one reader (environs) when the settings load, and stops
the program with one sentence for each bad value, naming the variable, the value and what
it takes; ``markdown_table()`` lists them for the manual's settings page
(docs/operating/settings.md, by docs/hooks.py; its links are relative to that page).
Importing this module reads nothing and needs no Django settings.

The only other reader is games/engine/build.py (``PUSH_ENGINE_PURE``): the rules engine
imports nothing of the platform's, so it reads that one variable itself, with the same
spelling of a boolean.
"""

from __future__ import annotations

import re
from functools import cache
from typing import Any, Generic, TypeVar, cast, overload

import environs
from marshmallow.validate import OneOf, Range, Regexp

T = TypeVar("T")  # what a variable's value is parsed to
D = TypeVar("D")  # its default's type: None where the settings work the default out

TRUE = ("1", "true", "yes")
FALSE = ("0", "false", "no")
REDIS_URL = r"rediss?://\S+"
ONE_OF_REDIS_URLS = r"rediss?://[^\s,]+"
NAME = r"[A-Za-z0-9._:-]+"


class Variable(Generic[T, D]):
    """One environment variable, an attribute of :class:`Environment` named as it is. Unset
    or blank, it takes ``default``; ``shown`` is that default as a reader is told it."""

    takes = ""

    def __init__(self, default: D, meaning: str, *, shown: str | None = None,
                 tests: bool = False) -> None:
        self.name = ""
        self.default = default
        self.meaning = meaning
        self.shown = _shown(default) if shown is None else shown
        self.tests = tests  # read by the test suite only

    def __set_name__(self, owner: type[Environment], name: str) -> None:
        self.name = name

    @overload
    def __get__(self, instance: None, owner: type[Environment]) -> Variable[T, D]: ...
    @overload
    def __get__(self, instance: Environment, owner: type[Environment]) -> T | D: ...
    def __get__(self, instance: Environment | None,
                owner: type[Environment]) -> Variable[T, D] | T | D:
        if instance is None:
            return self
        return cast("T | D", instance.values[self.name])

    def parse(self, env: environs.Env) -> T:
        """The value set; environs.EnvError when it is not one this variable takes."""
        raise NotImplementedError


class Flag(Variable[bool, D]):
    """A boolean, spelled in any case."""

    takes = "1/0, true/false or yes/no"

    def parse(self, env: environs.Env) -> bool:
        spelled = Regexp(rf"\s*({'|'.join(TRUE + FALSE)})\s*$", re.IGNORECASE)
        return env.str(self.name, validate=spelled).strip().lower() in TRUE


class Whole(Variable[int, D]):
    """A whole number in ``low``..``high``, counting ``unit``."""

    def __init__(self, default: D, meaning: str, *, low: int, high: int, unit: str = "",
                 note: str = "", shown: str | None = None) -> None:
        super().__init__(default, meaning, shown=shown)
        self.low, self.high = low, high
        self.takes = f"a whole number{f' of {unit}' if unit else ''} from {low} to {high}{note}"

    def parse(self, env: environs.Env) -> int:
        return env.int(self.name, validate=Range(self.low, self.high))


class Number(Variable[float, D]):
    """A number, decimals allowed, in ``low``..``high`` (``low`` itself only if
    ``with_low``)."""

    def __init__(self, default: D, meaning: str, *, low: float, high: float, unit: str,
                 with_low: bool = True) -> None:
        super().__init__(default, meaning)
        self.low, self.high, self.with_low = low, high, with_low
        start = f"from {low:g} to" if with_low else f"above {low:g}, up to"
        self.takes = f"a number of {unit} {start} {high:g}"

    def parse(self, env: environs.Env) -> float:
        return env.float(self.name, validate=Range(self.low, self.high,
                                                   min_inclusive=self.with_low))


class Text(Variable[str, str]):
    """Text; where a ``pattern`` is given, matching it (all of it, but for the spaces around
    it, which are dropped)."""

    def __init__(self, default: str, meaning: str, *, takes: str, pattern: str = "",
                 shown: str | None = None, tests: bool = False) -> None:
        super().__init__(default, meaning, shown=shown, tests=tests)
        self.takes, self.pattern = takes, pattern

    def parse(self, env: environs.Env) -> str:
        if not self.pattern:  # taken as it is: a key or a password may end with a space
            return env.str(self.name)
        return env.str(self.name, validate=Regexp(rf"\s*(?:{self.pattern})\s*$")).strip()


class Choice(Variable[str, D]):
    """One of ``choices``."""

    def __init__(self, default: D, meaning: str, *, choices: tuple[str, ...],
                 shown: str | None = None, tests: bool = False) -> None:
        super().__init__(default, meaning, shown=shown, tests=tests)
        self.choices = choices
        self.takes = "one of " + ", ".join(choices)

    def parse(self, env: environs.Env) -> str:
        return env.str(self.name, validate=OneOf(self.choices))


class Names(Variable[list[str], list[str]]):
    """Comma-separated names, none with a space in it."""

    def __init__(self, meaning: str, *, takes: str, shown: str) -> None:
        super().__init__([], meaning, shown=shown)
        self.takes = takes

    def parse(self, env: environs.Env) -> list[str]:
        # names apart by commas, each one word: spaces only around the commas
        names = env.str(self.name, validate=Regexp(r"\s*[^\s,]*(\s*,\s*[^\s,]*)*\s*$"))
        return [name.strip() for name in names.split(",") if name.strip()]


class RedisUrls(Variable[list[str], list[str]]):
    """Redis URLs apart by commas (spaces allowed around them), at least one."""

    def __init__(self, meaning: str, *, takes: str, shown: str) -> None:
        super().__init__([], meaning, shown=shown)
        self.takes = takes

    def parse(self, env: environs.Env) -> list[str]:
        urls = env.str(self.name, validate=Regexp(
            rf"\s*{ONE_OF_REDIS_URLS}(\s*,\s*{ONE_OF_REDIS_URLS})*\s*$"))
        return [url.strip() for url in urls.split(",")]


def _shown(default: object) -> str:
    if isinstance(default, bool):
        return f"`{str(default).lower()}`"
    return f"`{default:g}`" if isinstance(default, float) else f"`{default}`"


class BadEnvironment(ValueError):
    """Variables set to values they do not take: one sentence each."""


class Environment:
    """The value of every variable, read when made."""

    # Django
    DJANGO_DEBUG = Flag(False, "debug mode, for development only: `make run` and the "
                               "tests set `true`")
    DJANGO_SECRET_KEY = Text(
        "", "required when `DJANGO_DEBUG` is false: without it the program refuses to start "
            "and says so", takes="a long random text", shown="an insecure key, debug only")
    DJANGO_ALLOWED_HOSTS = Names(
        "the host names the site answers to; required when `DJANGO_DEBUG` is false",
        takes="comma-separated host names, e.g. example.org,www.example.org",
        shown="`localhost,127.0.0.1` in debug")
    DATABASE_URL = Text(
        "", "the database", takes="a database URL, postgres://user:password@host:5432/name "
                                  "or sqlite:///path",
        pattern=r"(postgres|postgresql|pgsql|sqlite)://\S*",
        shown="`sqlite:///db.sqlite3` in the project folder")
    DATABASE_TRANSACTION_POOLER = Flag(
        False, "PostgreSQL is reached through a pooler in transaction mode (PgBouncer's "
               "`pool_mode = transaction`): server-side cursors are turned off, since a "
               "connection's next transaction may run on another server connection "
               "(prepared statements are off already)")
    DJANGO_CACHE_URL = Text(
        "", "a cache the processes share (it holds the rate-limit counts)",
        takes="a Redis URL, e.g. redis://127.0.0.1:6379/2", pattern=REDIS_URL,
        shown="unset: a cache per process")
    DJANGO_STATIC_ROOT = Text(
        "", "the folder `manage.py collectstatic` gathers the static files in, which the web "
            "process serves in production", takes="a folder's path",
        shown="`staticfiles` in the project folder")
    DJANGO_BEHIND_TLS_PROXY = Flag(
        False, "production only: trust the proxy's `X-Forwarded-Proto` header, and the client "
               "address it appends to `X-Forwarded-For`")
    API_AUTH_RATE = Text(
        "10/min", "tries at `POST /api/v1/auth/token/` per client address; more are answered "
                  "429 with `Retry-After`",
        takes="tries per second, minute, hour or day, e.g. 10/min (N/s, N/min, N/hour, N/day)",
        pattern=r"[1-9][0-9]*/(s|sec|second|m|min|minute|h|hour|d|day)")
    # Celery
    CELERY_BROKER_URL = Text(
        "", "the broker Celery's workers take tasks from",
        takes="a Redis URL, e.g. redis://127.0.0.1:6379/0", pattern=REDIS_URL,
        shown="unset: tasks run in-process")
    CELERY_QUEUE = Text(
        "push", "the deployment's Celery queue (the end-to-end tests give each run its own)",
        takes="a name of letters, digits and . _ : -", pattern=NAME)
    CELERY_RESULT_BACKEND = Text(
        "", "where Celery keeps tasks' results: only tests that wait for a task need one",
        takes="a Redis URL, e.g. redis://127.0.0.1:6379/1", pattern=REDIS_URL,
        shown="unset: none kept")
    CELERY_EAGER_DELAYS = Flag(
        None, "tasks run in-process that are sent for later (a bot's pause, a turn's timer) "
              "wait for their time in a thread, and beat's sweeps run there too",
        shown="`true` without a broker")
    # Mail
    EMAIL_HOST = Text(
        "", "SMTP server for the password-reset mail ([Accounts](../players/index.md#accounts)) "
            "and the notifications by mail ([E-mail](../players/mail.md))",
        takes="a host name, e.g. smtp.example.org", pattern=r"\S+",
        shown="unset: in debug the mail is printed to the console; in production none is sent")
    EMAIL_PORT = Whole(None, "its port", low=1, high=65535, shown="`587` (`465` with "
                                                                   "`EMAIL_USE_SSL`)")
    EMAIL_HOST_USER = Text("", "its login's user name", takes="text", shown="empty")
    EMAIL_HOST_PASSWORD = Text("", "its login's password", takes="text", shown="empty")
    EMAIL_USE_TLS = Flag(True, "STARTTLS; for TLS from the first byte, `EMAIL_USE_SSL=true` "
                               "with `EMAIL_USE_TLS=false`")
    EMAIL_USE_SSL = Flag(False, "TLS from the first byte (with `EMAIL_USE_TLS=false`)")
    DEFAULT_FROM_EMAIL = Text(
        "", "the address the mail comes from", takes="a mail address, e.g. "
                                                     "Push league <noreply@example.org>",
        pattern=r".*@.*", shown="required with `EMAIL_HOST`")
    SITE_URL = Text(
        "", "the site's address as its mail links to it (confirming an address, a "
            "notification's link, unsubscribing: [E-mail](../players/mail.md))",
        takes="an address, e.g. https://push.example.org", pattern=r"https?://[^/\s]+/?",
        shown="`https://` and the first of `DJANGO_ALLOWED_HOSTS`; "
              "`http://localhost:8000` in debug")
    # Logins, sign-ups and invites
    LOGIN_FAILURE_LIMIT = Whole(5, "failed logins for one username (from any address) "
                                   "before it is refused ([Login limits](login-limits.md))",
                                low=1, high=1000)
    LOGIN_ADDRESS_FAILURE_LIMIT = Whole(50, "failed logins from one address (for any "
                                            "usernames) before it is refused",
                                        low=1, high=100_000)
    LOGIN_COOLOFF_MINUTES = Whole(15, "how long the failures count and the refusal lasts",
                                  low=1, high=10_080, unit="minutes")
    SIGNUP_LIMIT = Whole(10, "sign-ups, and apart from them password-reset mails, per client "
                             "address in `SIGNUP_WINDOW_MINUTES`; more are answered 429 with "
                             "`Retry-After`", low=1, high=10_000)
    SIGNUP_WINDOW_MINUTES = Whole(60, "the window `SIGNUP_LIMIT` counts in", low=1,
                                  high=10_080, unit="minutes")
    PLAYER_INVITE_DAYS = Whole(7, "days an organiser's invite link works", low=1, high=365,
                               unit="days")
    # Live tables
    CHANNEL_REDIS_URL = RedisUrls(
        "the Redis servers of the live tables' channel layer (pub/sub); with several, each "
        "table's notices go through one of them, chosen by a hash of the table's group, so "
        "every process must list the same servers in the same order ([Several "
        "hosts](several-hosts.md#the-channel-layer-over-several-redis))",
        takes="one Redis URL or several apart by commas, e.g. "
              "redis://10.0.0.7:6379/0,redis://10.0.0.8:6379/0",
        shown="the broker's Redis; without one, one process's memory")
    CHANNEL_PREFIX = Text(
        "push", "the channel layer's prefix, which keeps environments sharing a Redis apart",
        takes="a name of letters, digits and . _ : -", pattern=NAME)
    LIVE_BOT_PAUSE_SECONDS = Number(1.0, "how long a bot waits before it acts, so people can "
                                         "follow the game", low=0, high=60, unit="seconds")
    LIVE_HAND_PAUSE_SECONDS = Number(5.0, "how long the next bot waits instead after an action "
                                          "that ends a hand, so people see the hand's end",
                                     low=0, high=60, unit="seconds")
    LIVE_MOVE_SECONDS = Whole(120, "a person's time for a turn at a practice table before the "
                                   "seat's stand-in bot finishes it; `0`: no limit",
                              low=0, high=86_400, unit="seconds", note=" (0: no limit)")
    LIVE_MAX_OPEN_PRACTICE_TABLES = Whole(
        3, "unfinished practice tables a user may hold at once; `0`: no limit ([Move "
           "deadlines and bots](../developing/live-tables.md#move-deadlines-and-bots))",
        low=0, high=1000, note=" (0: no limit)")
    LIVE_ABANDON_HOURS = Number(24.0, "hours without an action after which a practice table is "
                                      "ended (`abandoned`: no more moves, no replay)",
                                low=0, high=8760, unit="hours", with_low=False)
    LIVE_DB_THREADS = Whole(
        None, "threads (each with its own database connection) in which an ASGI process runs "
              "the live tables' database work; `0`: Channels' one thread "
              "([Live table speed](../live-table-speed.md)); keep `0` with SQLite, which "
              "locks the whole file for a writer",
        low=0, high=64, shown="`4` with PostgreSQL, `0` with SQLite")
    LIVE_SWEEP_SECONDS = Number(15.0, "how often beat runs the live tables' sweep (lost turn "
                                      "timers, bots' moves and reports sent again)",
                                low=1, high=3600, unit="seconds")
    LIVE_FRAMES_AT_ONCE = Whole(40, "frames a live table's connection may send at once; "
                                    "after them, `LIVE_FRAMES_A_SECOND` more each second "
                                    "(a frame beyond is answered with an error and not read)",
                                low=1, high=100_000)
    LIVE_FRAMES_A_SECOND = Number(10.0, "frames a live table's connection may send each "
                                        "second, on average", low=0.1, high=100_000,
                                  unit="frames a second")
    LIVE_BENCH_ECHO = Flag(False, "`bench_tables` only: a bare websocket echo at "
                                  "`ws/bench-echo/`, to time the transport alone")
    # Webhooks
    WEBHOOKS_TIMEOUT_SECONDS = Number(
        5.0, "the longest a webhook delivery waits for its receiver (connecting and "
             "answering) before it counts as failed ([Webhooks](../api/webhooks.md))",
        low=0.1, high=60, unit="seconds")
    WEBHOOKS_DISABLE_AFTER = Whole(10, "failed webhook deliveries in a row after which the "
                                       "subscription is disabled and its organiser told",
                                   low=1, high=1000)
    WEBHOOKS_ALLOW_PRIVATE_ADDRESSES = Flag(
        False, "webhooks may be sent to hosts at loopback, private, link-local or reserved "
               "addresses: for tests and a closed network only, as a subscription could "
               "otherwise reach the server's own network")
    # The rules engine
    PUSH_ENGINE_PURE = Flag(False, "the rules engine runs as its pure-Python modules even "
                                   "where it is compiled ([Compiled or pure]"
                                   "(../developing/engine.md#compiled-or-pure))")
    # The test suite
    PUSH_REQUIRE_SERVICES = Flag(False, "the run fails, rather than skips, a test whose "
                                        "PostgreSQL, Redis or browser is missing (CI sets it)",
                                 tests=True)
    PUSH_ENGINE_EXPECT = Choice(
        None, "`tests/games/test_build.py` fails unless this build of the engine is the one "
              "loaded (CI sets `compiled`)", choices=("compiled", "pure"),
        shown="unset: the build there is", tests=True)
    PUSH_CHROMIUM = Text("/usr/bin/chromium-headless-shell",
                         "the browser the browser tests drive (Debian's chromium-headless-shell; "
                         "`/usr/bin/chromium`, the whole browser, works too, at about twice "
                         "the CPU)", takes="a program's path", tests=True)
    PUSH_SCREENSHOTS = Text("", "a folder the live table's browser tests save what they saw "
                                "in", takes="a folder's path", shown="unset: none saved",
                            tests=True)

    def __init__(self) -> None:
        env = environs.Env()
        self.values: dict[str, Any] = {}
        wrong = []
        for variable in variables():
            raw = env.str(variable.name, "")
            if not raw.strip():
                self.values[variable.name] = variable.default
                continue
            try:
                self.values[variable.name] = variable.parse(env)
            except environs.EnvError:
                wrong.append(f"{variable.name}={raw}: expected {variable.takes}")
        if wrong:
            raise BadEnvironment("\n".join(wrong))


def variables() -> list[Variable[Any, Any]]:
    """Every variable, in the order declared."""
    return [v for v in vars(Environment).values() if isinstance(v, Variable)]


@cache
def read() -> Environment:
    """The environment, read once a process; a bad value stops the program (exit status 1)
    with a sentence for each, not a traceback."""
    try:
        return Environment()
    except BadEnvironment as error:
        raise SystemExit(str(error)) from None


def _cell(text: str) -> str:
    return text.replace("|", "\\|")


def markdown_table() -> str:
    """Every variable as a row of a Markdown table: variable | default | takes | meaning."""
    rows = [f"| `{v.name}` | {_cell(v.shown)} | {_cell(v.takes)} | "
            f"{'tests: ' if v.tests else ''}{_cell(v.meaning)} |" for v in variables()]
    return "\n".join(["| variable | default | takes | meaning |", "|---|---|---|---|", *rows])
