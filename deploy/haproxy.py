"""The load balancer's configuration: HAProxy in front of the ASGI servers.

``render(bind, servers)`` is a pure function: the configuration text for HAProxy listening
on ``bind`` and spreading requests and websockets over ``servers`` (each a uvicorn
process, on this machine or another). ``python -m deploy.haproxy`` writes it to a file
(``make serve`` does, for its web processes: docs/operating/serve.md).

- Websockets pass through: HAProxy in HTTP mode follows a websocket upgrade by itself;
  from then on ``timeout tunnel`` applies, not the short timeouts of a request, so a live
  table's quiet connection stays open.
- Any server will do: no game lives in a process (the game is in PostgreSQL, the notices
  go through Redis), so there are no sticky sessions. ``leastconn`` sends a new
  connection to the server holding the fewest, which spreads long-lived websockets evenly,
  and a browser that reconnects lands wherever that is now.
- Health checks: every server is asked for the health URL (``HEALTH_PATH``, answered by
  config/asgi.py before Django) every 2 s; one that fails twice is taken out until it
  answers again, its open connections closed so their browsers reconnect to the others.
  A request sent to a server that refuses the connection is sent to another
  (``redispatch``).
- The access log is HAProxy's (on stdout, one line a request, with the server that
  answered and its times); each request gets an ``X-Request-ID`` unless a proxy in front
  gave it one, shown in that line (``{...}``) and in every record the platform logs for
  it (docs/operating/logs.md).
- ``certificate``: a PEM file with the certificate and its key, to answer HTTPS here and
  tell the servers so (``X-Forwarded-Proto``, read with ``DJANGO_BEHIND_TLS_PROXY=true``).
  Without it HAProxy speaks plain HTTP and a TLS proxy in front sets that header.
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from pathlib import Path

#: the URL every server answers 200 while it serves (config/asgi.py)
HEALTH_PATH = "/health/"
#: how long a websocket may stay silent both ways before HAProxy closes it; the browser
#: reconnects and resumes, so this only bounds what a vanished client holds
TUNNEL_TIMEOUT = "1h"

TEMPLATE = """\
# Written by deploy/haproxy.py (python -m deploy.haproxy); edit that, not this file.
global
    log stdout format raw local0 info

defaults
    mode http
    log global
    option httplog
    option forwardfor
    option redispatch
    retries 2
    timeout connect 5s
    timeout client 60s
    timeout server 60s
    timeout http-request 10s
    timeout http-keep-alive 10s
    timeout client-fin 10s
    timeout tunnel {tunnel}

frontend push
    bind {bind}{tls}
{proto}    http-request set-header X-Request-ID %[uuid()] unless {{ req.hdr(X-Request-ID) -m found }}
    http-request capture req.hdr(X-Request-ID) len 64
    default_backend web

backend web
    balance leastconn
    option httpchk
    http-check send meth GET uri {health} ver HTTP/1.1 hdr Host localhost
    http-check expect status 200
    default-server check inter 2s fall 2 rise 1 on-marked-down shutdown-sessions
{servers}
"""


def _address(host: str, port: int) -> str:
    if not 0 < port < 65536:
        raise ValueError(f"port {port} of {host} is not one from 1 to 65535")
    if not host or any(c.isspace() for c in host):
        raise ValueError(f"host {host!r} is not an address")
    return f"[{host}]:{port}" if ":" in host else f"{host}:{port}"


def render(bind: tuple[str, int], servers: Sequence[tuple[str, int]], *,
           certificate: str | None = None) -> str:
    """HAProxy's configuration: listening on ``bind`` (host, port), balancing over
    ``servers`` (host, port each; at least one), named web1, web2, ... in that order."""
    if not servers:
        raise ValueError("the load balancer needs at least one server")
    addresses = [_address(host, port) for host, port in servers]
    if len(set(addresses)) != len(addresses):
        raise ValueError("a server is listed twice")
    lines = "\n".join(f"    server web{number} {address}"
                      for number, address in enumerate(addresses, start=1))
    tls = f" ssl crt {certificate} alpn http/1.1" if certificate else ""
    proto = "    http-request set-header X-Forwarded-Proto https\n" if certificate else ""
    return TEMPLATE.format(bind=_address(*bind), tls=tls, proto=proto, servers=lines,
                           health=HEALTH_PATH, tunnel=TUNNEL_TIMEOUT)


def _host_port(text: str) -> tuple[str, int]:
    host, _, port = text.rpartition(":")
    if not host or not port.isdigit():
        raise argparse.ArgumentTypeError(f"{text!r} is not HOST:PORT")
    return host.strip("[]"), int(port)


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        prog="python -m deploy.haproxy",
        description="Write HAProxy's configuration for the ASGI servers.")
    parser.add_argument("--bind", type=_host_port, required=True, metavar="HOST:PORT",
                        help="where HAProxy listens")
    parser.add_argument("--server", type=_host_port, action="append", required=True,
                        metavar="HOST:PORT", help="an ASGI server (repeat for each)")
    parser.add_argument("--certificate", metavar="PEM",
                        help="answer HTTPS with this certificate and key")
    parser.add_argument("--output", type=Path, required=True, help="the file to write")
    args = parser.parse_args(argv)
    try:
        text = render(args.bind, args.server, certificate=args.certificate)
    except ValueError as error:
        parser.error(str(error))
    args.output.parent.mkdir(parents=True, exist_ok=True)
    args.output.write_text(text)


if __name__ == "__main__":
    main()
