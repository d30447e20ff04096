"""The load balancer's configuration (deploy/haproxy.py): what it says for any list of
servers, and that HAProxy itself accepts it."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from deploy.haproxy import HEALTH_PATH, main, render
from tests.services import require

hosts = st.one_of(st.ip_addresses(v=4).map(str), st.ip_addresses(v=6).map(str),
                  st.from_regex(r"[a-z][a-z0-9-]{0,20}(\.[a-z0-9-]{1,10}){0,2}",
                                fullmatch=True))
ports = st.integers(1, 65535)
server_lists = st.lists(st.tuples(hosts, ports), min_size=1, max_size=40,
                        unique_by=lambda server: (server[0], server[1]))


def _servers(text: str) -> list[tuple[str, str]]:
    return re.findall(r"^    server (\S+) (\S+)$", text, re.MULTILINE)


@given(bind=st.tuples(hosts, ports), servers=server_lists)
def test_every_server_once_in_order(bind: tuple[str, int],
                                    servers: list[tuple[str, int]]) -> None:
    text = render(bind, servers)
    shown = [host if ":" not in host else f"[{host}]" for host, _ in servers]
    assert _servers(text) == [(f"web{number}", f"{host}:{port}") for number, (host, (_, port))
                              in enumerate(zip(shown, servers, strict=True), start=1)]
    bound = re.search(r"^    bind (\S+)$", text, re.MULTILINE)
    assert bound is not None and bound.group(1).endswith(f":{bind[1]}")


def test_websockets_health_and_any_server() -> None:
    text = render(("0.0.0.0", 8000), [("127.0.0.1", 8001), ("127.0.0.1", 8002)])
    assert re.search(r"^    timeout tunnel 1h$", text, re.MULTILINE)  # websockets stay open
    assert f"uri {HEALTH_PATH} " in text
    assert "check inter 2s" in text
    assert "balance leastconn" in text
    assert "cookie" not in text and "stick" not in text  # no server is tied to a browser
    assert "ssl" not in text and "X-Forwarded-Proto" not in text


def test_certificate_answers_https_and_says_so() -> None:
    text = render(("0.0.0.0", 443), [("10.0.0.2", 8001)], certificate="/etc/push/site.pem")
    assert "bind 0.0.0.0:443 ssl crt /etc/push/site.pem alpn http/1.1" in text
    assert "http-request set-header X-Forwarded-Proto https" in text


@pytest.mark.parametrize(("servers", "says"), [
    ([], "at least one server"),
    ([("127.0.0.1", 0)], "port 0 of 127.0.0.1"),
    ([("127.0.0.1", 65536)], "port 65536"),
    ([("bad host", 80)], "'bad host' is not an address"),
    ([("a", 80), ("a", 80)], "listed twice"),
])
def test_bad_servers_are_refused(servers: list[tuple[str, int]], says: str) -> None:
    with pytest.raises(ValueError, match=re.escape(says)):
        render(("127.0.0.1", 8000), servers)


def test_the_command_writes_a_file_haproxy_accepts(tmp_path: Path) -> None:
    output = tmp_path / "haproxy.cfg"
    main(["--bind", "127.0.0.1:8000", "--server", "127.0.0.1:8001",
          "--server", "[::1]:8002", "--output", str(output)])
    assert _servers(output.read_text()) == [("web1", "127.0.0.1:8001"), ("web2", "[::1]:8002")]
    require(None if shutil.which("haproxy") else "haproxy is not installed",
            "HAProxy's own check of the configuration")
    checked = subprocess.run(["haproxy", "-c", "-f", str(output)], capture_output=True,
                             text=True)
    assert checked.returncode == 0, checked.stdout + checked.stderr


def test_the_command_says_what_is_wrong(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["--bind", "127.0.0.1:8000", "--server", "8001", "--output", "/dev/null"])
    assert "'8001' is not HOST:PORT" in capsys.readouterr().err
