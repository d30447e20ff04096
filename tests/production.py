"""A real uvicorn with production settings (DEBUG off, behind the TLS proxy, with
``--proxy-headers`` as docs/operating/production.md runs it), for the tests that need what
production does: its logs (tests/test_logging.py), the client address uvicorn takes from
``X-Forwarded-For`` (tests/api/test_forwarded.py). A browser, which cannot pretend to be
the proxy, meets uvicorn serving TLS itself (``tls_args``;
tests/browser/test_live_production.py)."""

from __future__ import annotations

import fcntl
import json
import os
import secrets
import shutil
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import UTC, datetime, timedelta
from ipaddress import IPv4Address
from pathlib import Path
from typing import Any

from config.asgi_process import AsgiServer
from config.worker_process import ROOT

# what docs/operating/production.md starts uvicorn with; the tests' requests come from 127.0.0.1,
# the proxy's address
PROXY_HEADERS = ["--proxy-headers", "--forwarded-allow-ips", "127.0.0.1"]
# the TLS proxy's own header: without it the production settings redirect to HTTPS
HTTPS = {"X-Forwarded-Proto": "https"}
Record = dict[str, Any]


def production_env(static_root: Path, **extra: str) -> dict[str, str]:
    return {"DJANGO_DEBUG": "false", "DJANGO_SECRET_KEY": secrets.token_urlsafe(50),
            "DJANGO_ALLOWED_HOSTS": "127.0.0.1", "DJANGO_BEHIND_TLS_PROXY": "true",
            "DJANGO_STATIC_ROOT": str(static_root), **extra}


#: The static files as a release collects them, shared by the run's tests and kept from
#: run to run, as a server keeps its own: collecting hashes some 1,200 files and compresses
#: them, about 18 s of CPU, which five modules would each pay.
STATIC = ROOT / "build" / "test-static"


def collected_static() -> Path:
    """``STATIC``, collected by the release's own step (``deploy.serve.collect_static``,
    with the production settings), which does nothing when the folder holds what it would
    collect now; the workers of a run take turns at it."""
    STATIC.parent.mkdir(parents=True, exist_ok=True)
    script = ("import django; django.setup()\n"
              "from deploy.serve import collect_static; collect_static()\n")
    env = production_env(STATIC, DJANGO_SETTINGS_MODULE="config.settings")
    with open(STATIC.parent / "test-static.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # released when the file closes
        subprocess.run([sys.executable, "-c", script], cwd=ROOT,
                       env={**os.environ, **env}, check=True, capture_output=True)
    return STATIC


def collect_static(env: dict[str, str]) -> None:
    """The production settings serve static files from a manifest that collectstatic
    writes; every page with a stylesheet needs it. ``collected_static``, hard-linked into
    ``env``'s ``DJANGO_STATIC_ROOT``."""
    shutil.copytree(collected_static(), env["DJANGO_STATIC_ROOT"], copy_function=os.link,
                    dirs_exist_ok=True)


def tls_args(folder: Path) -> list[str]:
    """uvicorn's arguments to serve HTTPS itself, with a certificate for 127.0.0.1 signed
    by its own key, written to ``folder``. In production the TLS proxy answers HTTPS; a
    browser can't stand in for it (its pages' origin would be http://, which the CSRF
    check refuses on a request the proxy's header marks secure), so the browser tests meet
    TLS at uvicorn itself and are told to accept the certificate."""
    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.x509.oid import NameOID

    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "127.0.0.1")])
    now = datetime.now(UTC)
    certificate = (x509.CertificateBuilder().subject_name(name).issuer_name(name)
                   .public_key(key.public_key()).serial_number(x509.random_serial_number())
                   .not_valid_before(now - timedelta(minutes=5))
                   .not_valid_after(now + timedelta(days=1))
                   .add_extension(x509.SubjectAlternativeName(
                       [x509.IPAddress(IPv4Address("127.0.0.1"))]), critical=False)
                   .sign(key, hashes.SHA256()))
    key_file, cert_file = folder / "tls-key.pem", folder / "tls-cert.pem"
    key_file.write_bytes(key.private_bytes(serialization.Encoding.PEM,
                                           serialization.PrivateFormat.PKCS8,
                                           serialization.NoEncryption()))
    cert_file.write_bytes(certificate.public_bytes(serialization.Encoding.PEM))
    return ["--ssl-keyfile", str(key_file), "--ssl-certfile", str(cert_file)]


@contextmanager
def uvicorn(env: dict[str, str]) -> Iterator[AsgiServer]:
    server = AsgiServer(env, args=PROXY_HEADERS)
    try:
        yield server
    finally:
        server.stop()


def log_records(server: AsgiServer) -> list[Record]:
    """Every line the server has written to stderr so far, each parsed as JSON: a line
    that is not JSON fails the test."""
    return [json.loads(line) for line in list(server.log)]


def wait_for_record(server: AsgiServer, matches: Callable[[Record], bool],
                    seconds: float = 30) -> Record:
    """The first record that ``matches``: a thread reads the server's stderr, so a line
    written before the response may be read a little after it."""
    deadline = time.monotonic() + seconds
    while True:
        found = [record for record in log_records(server) if matches(record)]
        if found:
            return found[0]
        if time.monotonic() > deadline:
            raise AssertionError("no such record in the server's log:\n"
                                 + "".join(server.log[-30:]))
        time.sleep(0.05)
