import ast
import json
import os
import re
import subprocess
import sys
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from django.test import Client
from hypothesis import given
from hypothesis import strategies as st

from config.environment import (
    BadEnvironment,
    Environment,
    Number,
    Variable,
    Whole,
    markdown_table,
    variables,
)
from games.engine import build
from tests.production import collect_static

REPO = Path(__file__).resolve().parent.parent
PRODUCTION = {"DJANGO_DEBUG": "false", "DJANGO_SECRET_KEY": "x" * 50,
              "DJANGO_ALLOWED_HOSTS": "example.org"}


def environment(**values: str) -> Environment:
    """The environment read with ``values`` set and no other registered variable."""
    with pytest.MonkeyPatch.context() as patch:
        for variable in variables():
            patch.delenv(variable.name, raising=False)
        for name, value in values.items():
            patch.setenv(name, value)
        return Environment()


def refusal(**values: str) -> str:
    """The sentences that reading the environment with ``values`` set refuses them with."""
    with pytest.raises(BadEnvironment) as refused:
        environment(**values)
    return str(refused.value)


@pytest.mark.parametrize(
    ("raw", "expected"),
    [("1", True), ("TRUE", True), ("yes", True), (" Yes ", True), ("0", False),
     ("false", False), ("No", False), ("", False)],
)
def test_it_reads_booleans_in_any_case(raw: str, expected: bool) -> None:
    assert environment(DJANGO_BEHIND_TLS_PROXY=raw).DJANGO_BEHIND_TLS_PROXY is expected


def test_an_unset_or_blank_variable_takes_its_default() -> None:
    read = environment(LIVE_MOVE_SECONDS=" ", CELERY_QUEUE="")

    assert (read.LIVE_MOVE_SECONDS, read.CELERY_QUEUE, read.EMAIL_USE_TLS) == (120, "push", True)
    assert read.LIVE_DB_THREADS is None  # the settings work it out from the database


@pytest.mark.parametrize(("name", "value", "sentence"), [
    ("LIVE_MOVE_SECONDS", "abc",
     "LIVE_MOVE_SECONDS=abc: expected a whole number of seconds from 0 to 86400 (0: no limit)"),
    ("LIVE_MOVE_SECONDS", "2.5",
     "LIVE_MOVE_SECONDS=2.5: expected a whole number of seconds from 0 to 86400 (0: no limit)"),
    ("LIVE_ABANDON_HOURS", "0",
     "LIVE_ABANDON_HOURS=0: expected a number of hours above 0, up to 8760"),
    ("LIVE_BOT_PAUSE_SECONDS", "nan",
     "LIVE_BOT_PAUSE_SECONDS=nan: expected a number of seconds from 0 to 60"),
    ("DJANGO_DEBUG", "on", "DJANGO_DEBUG=on: expected 1/0, true/false or yes/no"),
    ("PUSH_ENGINE_EXPECT", "fast", "PUSH_ENGINE_EXPECT=fast: expected one of compiled, pure"),
    ("CELERY_BROKER_URL", "localhost:6379",
     "CELERY_BROKER_URL=localhost:6379: expected a Redis URL, e.g. redis://127.0.0.1:6379/0"),
    ("DATABASE_URL", "mysql://db/x", "DATABASE_URL=mysql://db/x: expected a database URL"),
    ("DJANGO_ALLOWED_HOSTS", "a.org b.org",
     "DJANGO_ALLOWED_HOSTS=a.org b.org: expected comma-separated host names"),
    ("API_AUTH_RATE", "10", "API_AUTH_RATE=10: expected tries per second, minute, hour or day"),
    ("CELERY_QUEUE", "my queue", "CELERY_QUEUE=my queue: expected a name of letters"),
    ("CHANNEL_REDIS_URL", "redis://a:6379/0,b:6379",
     "CHANNEL_REDIS_URL=redis://a:6379/0,b:6379: expected one Redis URL or several apart by "
     "commas"),
    ("CHANNEL_REDIS_URL", "redis://a:6379/0,,redis://b:6379/0",
     "CHANNEL_REDIS_URL=redis://a:6379/0,,redis://b:6379/0: expected one Redis URL"),
    ("CHANNEL_REDIS_URL", "redis://a:6379/0 redis://b:6379/0",
     "CHANNEL_REDIS_URL=redis://a:6379/0 redis://b:6379/0: expected one Redis URL"),
])
def test_a_bad_value_is_refused_with_a_sentence_naming_it(name: str, value: str,
                                                          sentence: str) -> None:
    assert refusal(**{name: value}).startswith(sentence)


def test_every_bad_value_is_named_at_once() -> None:
    refused = refusal(LIVE_MOVE_SECONDS="-5", SIGNUP_LIMIT="0", EMAIL_USE_SSL="maybe")

    assert refused.splitlines() == [
        "EMAIL_USE_SSL=maybe: expected 1/0, true/false or yes/no",
        "SIGNUP_LIMIT=0: expected a whole number from 1 to 10000",
        "LIVE_MOVE_SECONDS=-5: expected a whole number of seconds from 0 to 86400 (0: no limit)",
    ]


NUMBERS = [v for v in variables() if isinstance(v, Whole | Number)]


@given(variable=st.sampled_from(NUMBERS), data=st.data())
def test_a_number_is_taken_exactly_within_its_range(variable: Variable[Any, Any],
                                                    data: st.DataObject) -> None:
    assert isinstance(variable, Whole | Number)
    if isinstance(variable, Whole):
        value: float = data.draw(st.integers(variable.low - 1000, variable.high + 1000))
    else:
        value = data.draw(st.floats(variable.low - 100, variable.high + 100))
    within = (variable.low <= value if isinstance(variable, Whole) or variable.with_low
              else variable.low < value) and value <= variable.high
    try:
        taken = getattr(environment(**{variable.name: repr(value)}), variable.name)
    except BadEnvironment as refused:
        assert not within, str(refused)
        assert str(refused) == f"{variable.name}={value!r}: expected {variable.takes}"
    else:
        assert within and taken == value


@given(st.text(alphabet="01truefalsyesnoTRUEYN \t", max_size=8))
def test_the_engine_reads_its_variable_as_the_registry_does(raw: str) -> None:
    # games/engine/build.py reads PUSH_ENGINE_PURE itself (the engine imports nothing of
    # the platform's): the same values, the same refusal.
    try:
        expected: bool | str = environment(PUSH_ENGINE_PURE=raw).PUSH_ENGINE_PURE
    except BadEnvironment as refused:
        expected = str(refused)
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv(build.PURE_VARIABLE, raw)
        try:
            engine: bool | str = build.pure_asked_for()
        except SystemExit as stopped:
            engine = str(stopped)
    assert engine == expected


def test_the_table_lists_every_variable_with_what_it_takes() -> None:
    rows = markdown_table().splitlines()

    assert rows[0] == "| variable | default | takes | meaning |"
    assert len(rows) == 2 + len(variables())
    assert ("| `LIVE_MOVE_SECONDS` | `120` | a whole number of seconds from 0 to 86400 "
            "(0: no limit) |") in markdown_table()
    assert "| `PUSH_REQUIRE_SERVICES` | `false` | 1/0, true/false or yes/no | tests: " in rows[
        2 + [v.name for v in variables()].index("PUSH_REQUIRE_SERVICES")]
    assert all(row.count(" | ") == 3 for row in rows[2:]), "a cell with a | in it"


def test_the_table_is_made_without_django_settings() -> None:
    # the docs build imports it with no settings module
    script = ("from config.environment import markdown_table\n"
              "from django.conf import settings\n"
              "print(settings.configured, markdown_table().count('\\n'))")
    result = settings_process("-c", script, DJANGO_SETTINGS_MODULE=None, LIVE_MOVE_SECONDS="x")

    assert result.stdout.split() == ["False", str(1 + len(variables()))], result.stderr


def settings_process(*args: str, **env: str | None) -> subprocess.CompletedProcess[str]:
    """Run ``args`` (after the interpreter) in the project with config.settings, the
    production settings module (not the test suite's), and ``env`` changed: a None value
    removes the variable."""
    changed = {**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings"}
    for name, value in env.items():
        if value is None:
            changed.pop(name, None)
        else:
            changed[name] = value
    return subprocess.run([sys.executable, *args], cwd=REPO, env=changed, capture_output=True,
                          text=True, check=False)


def test_debug_is_off_unless_asked_for() -> None:
    result = settings_process(
        "-c", "from django.conf import settings; print(settings.DEBUG)",
        DJANGO_DEBUG=None, DJANGO_SECRET_KEY="x" * 50, DJANGO_ALLOWED_HOSTS="example.org")

    assert result.stdout.strip() == "False", result.stderr


@pytest.mark.parametrize("debug", [None, "false"])
def test_it_refuses_to_start_without_a_secret_key_unless_debug(debug: str | None) -> None:
    result = settings_process("manage.py", "check", DJANGO_DEBUG=debug, DJANGO_SECRET_KEY=None,
                              DJANGO_ALLOWED_HOSTS="example.org")

    assert result.returncode != 0
    assert ("DJANGO_SECRET_KEY must be set when DJANGO_DEBUG is false (the default)"
            in result.stderr)
    assert "Traceback" not in result.stderr


@pytest.mark.parametrize(("name", "value", "sentence"), [
    ("LIVE_MOVE_SECONDS", "abc",
     "LIVE_MOVE_SECONDS=abc: expected a whole number of seconds from 0 to 86400 (0: no limit)"),
    ("LIVE_MAX_OPEN_PRACTICE_TABLES", "-1",
     "LIVE_MAX_OPEN_PRACTICE_TABLES=-1: expected a whole number from 0 to 1000 (0: no limit)"),
    ("EMAIL_PORT", "70000", "EMAIL_PORT=70000: expected a whole number from 1 to 65535"),
    ("DJANGO_BEHIND_TLS_PROXY", "maybe",
     "DJANGO_BEHIND_TLS_PROXY=maybe: expected 1/0, true/false or yes/no"),
    ("PUSH_ENGINE_EXPECT", "fast", "PUSH_ENGINE_EXPECT=fast: expected one of compiled, pure"),
    ("CHANNEL_REDIS_URL", "redis://a:6379/0, 10.0.0.8:6379",
     "CHANNEL_REDIS_URL=redis://a:6379/0, 10.0.0.8:6379: expected one Redis URL or several "
     "apart by commas, e.g. redis://10.0.0.7:6379/0,redis://10.0.0.8:6379/0"),
])
def test_a_bad_value_stops_the_start_with_its_sentence_and_no_traceback(
        name: str, value: str, sentence: str) -> None:
    result = settings_process("manage.py", "check", **PRODUCTION, **{name: value})

    assert result.returncode == 1
    assert result.stderr.splitlines() == [sentence]
    assert "Traceback" not in result.stdout


def test_good_values_are_taken() -> None:
    script = ("from django.conf import settings as s\n"
              "print(repr((s.LIVE_MOVE_SECONDS, s.LIVE_MAX_OPEN_PRACTICE_TABLES,"
              " str(s.LIVE_ABANDON_AFTER), s.LIVE_BOT_PAUSE_SECONDS, s.LIVE_DB_THREADS,"
              " s.ALLOWED_HOSTS, s.CELERY_TASK_DEFAULT_QUEUE,"
              " s.REST_FRAMEWORK['DEFAULT_THROTTLE_RATES']['auth'],"
              " s.CELERY_BEAT_SCHEDULE['live-sweep']['schedule'], s.SECURE_PROXY_SSL_HEADER)))")
    result = settings_process(
        "-c", script, **{**PRODUCTION, "LIVE_MOVE_SECONDS": "0",
                         "LIVE_MAX_OPEN_PRACTICE_TABLES": "0", "LIVE_ABANDON_HOURS": "1.5",
                         "LIVE_BOT_PAUSE_SECONDS": "0.25", "LIVE_DB_THREADS": "2",
                         "DJANGO_ALLOWED_HOSTS": "a.org, b.org,", "CELERY_QUEUE": " q-1 ",
                         "API_AUTH_RATE": "5/hour", "LIVE_SWEEP_SECONDS": "30",
                         "DJANGO_BEHIND_TLS_PROXY": "YES"})

    assert result.stdout.strip() == repr(
        (None, None, str(timedelta(hours=1.5)), 0.25, 2, ["a.org", "b.org"], "q-1", "5/hour",
         30.0, ("HTTP_X_FORWARDED_PROTO", "https"))), result.stderr


@pytest.mark.parametrize(("channel", "broker", "hosts"), [
    (" redis://a:6379/0 , rediss://b:6380/0", "redis://q:6379/0",
     ["redis://a:6379/0", "rediss://b:6380/0"]),
    ("redis://a:6379/0", None, ["redis://a:6379/0"]),
    (None, "redis://q:6379/0", ["redis://q:6379/0"]),
])
def test_the_channel_layer_shards_over_the_redis_servers_named_else_the_brokers(
        channel: str | None, broker: str | None, hosts: list[str]) -> None:
    """CHANNEL_REDIS_URL's servers, in their order (every process must agree on it: a
    group's shard is its hash modulo their number), else the broker's one Redis."""
    result = settings_process(
        "-c", "import json\nfrom django.conf import settings\n"
              "layer = settings.CHANNEL_LAYERS['default']\n"
              "print(layer['BACKEND'], json.dumps(layer['CONFIG']['hosts']))",
        CHANNEL_REDIS_URL=channel, CELERY_BROKER_URL=broker, **PRODUCTION)

    assert result.stdout.split(" ", 1) == [
        "games.live.layer.PubSubChannelLayer", json.dumps(hosts) + "\n"], result.stderr


@pytest.mark.parametrize(("behind_proxy", "from_proxy"), [("false", False), ("true", True)])
def test_rate_limits_count_the_address_the_proxy_saw_only_behind_one(
        behind_proxy: str, from_proxy: bool) -> None:
    # Reading a client-written X-Forwarded-For would let one client spread its login
    # attempts over made-up addresses (tournaments/api/logins.py, client_address).
    result = settings_process(
        "-c", "from django.conf import settings; print(settings.CLIENT_ADDRESS_FROM_PROXY)",
        DJANGO_DEBUG="false", DJANGO_SECRET_KEY="x" * 50, DJANGO_ALLOWED_HOSTS="example.org",
        DJANGO_BEHIND_TLS_PROXY=behind_proxy)
    assert result.stdout.strip() == str(from_proxy), result.stderr


def test_production_serves_collected_static_files_under_hashed_names(tmp_path: Path) -> None:
    # WhiteNoise serves what collectstatic gathered, with a far-future cache header.
    env = {"DJANGO_DEBUG": "false", "DJANGO_SECRET_KEY": "x" * 50,
           "DJANGO_ALLOWED_HOSTS": "example.org", "DJANGO_STATIC_ROOT": str(tmp_path)}
    collect_static(env)  # the release's step with the production settings, shared
    script = (
        "import django; django.setup()\n"
        "from django.templatetags.static import static\n"
        "from django.test import Client\n"
        "url = static('tournaments/site.css')\n"
        "response = Client().get(url, secure=True, HTTP_HOST='example.org')\n"
        "print(url, response.status_code, response.headers.get('Cache-Control'))\n")
    served = settings_process("-c", script, **env)
    url, status, cache = served.stdout.split(maxsplit=2)
    assert re.fullmatch(r"/static/tournaments/site\.[0-9a-f]{12}\.css", url), served.stderr
    assert status == "200"
    assert "max-age=315360000" in cache


@pytest.mark.django_db
def test_pages_allow_only_the_sites_own_scripts_and_those_with_the_nonce(
        client: Client) -> None:
    # The browser test (tests/browser/test_csp.py) shows the pages work under the policy.
    home = client.get("/")
    docs = client.get("/api/v1/docs/")

    policy = dict(part.strip().split(" ", 1)
                  for part in home.headers["Content-Security-Policy"].split(";"))
    assert policy["script-src"] == "'self'"
    assert policy["object-src"] == policy["base-uri"] == policy["frame-ancestors"] == "'none'"
    nonce = re.search(r"'nonce-([^']+)'", docs.headers["Content-Security-Policy"])
    assert nonce is not None
    inline = re.findall(r"<script([^>]*)>(?!\s*</script>)", docs.content.decode())
    assert inline == [f' nonce="{nonce[1]}"']


# Where a module of the platform may touch os.environ itself, and why; anything else reads
# its variables through config/environment.py.
DIRECT_USES = {
    ("config/asgi.py", "setdefault"): "names the settings module for Django to read",
    ("config/wsgi.py", "setdefault"): "names the settings module for Django to read",
    ("config/celery.py", "setdefault"): "names the settings module for Celery's app to read",
    ("config/asgi_process.py", "copy"): "hands the environment on to the server it starts",
    ("config/worker_process.py", "copy"): "hands the environment on to the worker it starts",
    ("bench/platform.py", "copy"): "hands the environment on to the server it starts",
    ("bench/bots.py", "copy"): "hands the environment on to the process timing a build, "
                               "with PUSH_ENGINE_PURE set for the build it times",
    ("bench/load/run.py", "copy"): "hands the environment on to locust, with the servers and "
                                   "the pages' paths it asks",
    ("bench/load/locustfile.py", "read"): "runs in locust's process, not the platform's: reads "
                                          "what bench/load/run.py hands it",
    ("bench/hosts.py", "read"): "builds each host's own small environment of the few "
                                "variables it names, so a host reaches the others by address",
    ("games/engine/build.py", "read"): "the engine imports nothing of the platform's; it reads "
                                       "PUSH_ENGINE_PURE as the registry does (test above)",
}


def direct_uses(path: Path) -> set[str]:
    """How the module at ``path`` touches the process's environment: ``setdefault``
    (os.environ.setdefault), ``copy`` (``{**os.environ, ...}``) or ``read``."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    parents = {child: node for node in ast.walk(tree) for child in ast.iter_child_nodes(node)}
    uses = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module == "os" and any(
                alias.name in ("environ", "environb", "getenv") for alias in node.names):
            uses.add("read")
        if not (isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name)
                and node.value.id == "os"
                and node.attr in ("environ", "environb", "getenv", "putenv", "unsetenv")):
            continue
        parent = parents[node]
        if isinstance(parent, ast.Attribute) and parent.attr == "setdefault":
            uses.add("setdefault")
        elif isinstance(parent, ast.Dict) and any(
                key is None and value is node for key, value in zip(parent.keys, parent.values,
                                                                    strict=True)):
            uses.add("copy")
        else:
            uses.add("read")
    return uses


def test_the_platform_reads_the_environment_only_through_the_registry() -> None:
    found = {(str(path.relative_to(REPO)), use)
             for folder in ("bench", "config", "games", "robot_duplicate", "tournaments")
             for path in sorted((REPO / folder).rglob("*.py"))
             if path != REPO / "config" / "environment.py"
             for use in direct_uses(path)}

    assert sorted(found - DIRECT_USES.keys()) == []
    assert sorted(DIRECT_USES.keys() - found) == []  # no reason kept for a use gone


def test_the_settings_lists_are_each_written_once() -> None:
    # so that the order of the apps and the middleware can be read off the file
    tree = ast.parse((REPO / "config" / "settings.py").read_text(encoding="utf-8"))
    names = ("INSTALLED_APPS", "MIDDLEWARE", "REST_FRAMEWORK", "SPECTACULAR_SETTINGS",
             "AUTHENTICATION_BACKENDS", "TEMPLATES", "CONTENT_SECURITY_POLICY")
    written = [target.id for node in ast.walk(tree)
               if isinstance(node, ast.Assign | ast.AnnAssign | ast.AugAssign)
               for target in (node.targets if isinstance(node, ast.Assign) else [node.target])
               if isinstance(target, ast.Name)]
    changed = [node.value.id for node in ast.walk(tree)
               if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name)
               and node.value.id in names]

    assert {name: written.count(name) for name in names} == dict.fromkeys(names, 1)
    assert changed == []  # no .insert, .append, .update


@pytest.mark.parametrize(("value", "off"), [(None, False), ("true", True)])
def test_a_transaction_pooler_turns_server_side_cursors_off(value: str | None,
                                                            off: bool) -> None:
    """PgBouncer in transaction mode (docs/operating/capacity.md): no cursor kept on a
    server connection between queries, and, as always with psycopg, no prepared
    statements."""
    result = settings_process(
        "-c", "from django.db import connection as c\n"
              "print(c.settings_dict['DISABLE_SERVER_SIDE_CURSORS'],"
              " c.get_connection_params()['prepare_threshold'])",
        DATABASE_TRANSACTION_POOLER=value, DATABASE_URL="postgres://u@127.0.0.1:5432/d",
        **PRODUCTION)

    assert result.stdout.split() == [str(off), "None"], result.stderr
