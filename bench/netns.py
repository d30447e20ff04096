"""Hosts on one machine: Linux network namespaces joined by a switch of their own.

Each host is a namespace with one link (a veth pair) to a bridge that lives in a further
namespace, the switch; each host has an address of ``SUBNET`` and no other route, so a
process in it reaches the others only by address and nothing leaves the machine. The root
namespace gets no address, no route and no link of ours: each veth pair is made with its
two ends in their namespaces already. Cutting a host off (:meth:`Network.cut`) sets its
link's switch end down: packets to and from it are dropped, as when a cable is pulled,
and its connections stall rather than close.

Everything is named ``PREFIX`` + the owning process's pid + a host name, and removed by
:meth:`Network.close` (processes first); a run that was killed before it could do so is
removed by the next (:func:`remove_leftovers`), which finds its owner gone. Needs root
and iproute2's ``ip``.
"""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import signal
import subprocess
import time
from collections.abc import Mapping, Sequence
from typing import IO, Any

PREFIX = "pushhosts-"
#: The hosts' addresses: ``SUBNET`` + 10, 11, ... in the order given.
SUBNET = "10.231.0."
SWITCH = "switch"
_OURS = re.compile(re.escape(PREFIX) + r"(\d+)-")


def missing() -> str | None:
    """What running hosts here lacks (``None``: nothing)."""
    if os.geteuid() != 0:
        return "network namespaces need root"
    if shutil.which("ip") is None:
        return "iproute2's ip command is not installed"
    return None


def _ip(*args: str, check: bool = True) -> str:
    done = subprocess.run(["ip", *args], capture_output=True, text=True, timeout=30)
    if check and done.returncode:
        raise RuntimeError(f"ip {' '.join(args)}: {done.stderr.strip()}")
    return done.stdout


def namespaces() -> list[str]:
    return [line.split()[0] for line in _ip("netns", "list").splitlines() if line.strip()]


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def _remove(name: str) -> None:
    """Kill every process in namespace ``name``, then remove it (and its links with it)."""
    for _ in range(50):
        pids = [int(p) for p in _ip("netns", "pids", name, check=False).split()]
        if not pids:
            break
        for pid in pids:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
        time.sleep(0.1)
    _ip("netns", "delete", name, check=False)


def remove_leftovers() -> list[str]:
    """Remove the namespaces of runs whose process is gone (killed before cleaning up);
    their names."""
    gone = [name for name in namespaces()
            if (found := _OURS.match(name)) and not alive(int(found.group(1)))]
    for name in gone:
        _remove(name)
    return gone


class Network:
    """The namespaces of ``hosts`` and their switch, made now; each host's address is
    :attr:`addresses` [host]. Close it (or use it as a context manager) to remove it all."""

    def __init__(self, hosts: Sequence[str]) -> None:
        remove_leftovers()
        self.tag = f"{PREFIX}{os.getpid()}-"
        self.addresses = {host: f"{SUBNET}{10 + i}" for i, host in enumerate(hosts)}
        self.processes: list[subprocess.Popen[Any]] = []
        self._made: list[str] = []
        try:
            switch = self._add(SWITCH)
            _ip("-n", switch, "link", "add", "br0", "type", "bridge")
            _ip("-n", switch, "link", "set", "dev", "br0", "up")
            for host, address in self.addresses.items():
                name = self._add(host)
                _ip("link", "add", "eth0", "netns", name, "type", "veth",
                    "peer", "name", self._port(host), "netns", switch)
                _ip("-n", switch, "link", "set", "dev", self._port(host), "master", "br0")
                _ip("-n", switch, "link", "set", "dev", self._port(host), "up")
                _ip("-n", name, "addr", "add", f"{address}/24", "dev", "eth0")
                _ip("-n", name, "link", "set", "dev", "eth0", "up")
        except BaseException:
            self.close()
            raise

    def __enter__(self) -> Network:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def name(self, host: str) -> str:
        return self.tag + host

    @staticmethod
    def _port(host: str) -> str:
        return f"to-{host}"[:15]

    def _add(self, host: str) -> str:
        name = self.name(host)
        _ip("netns", "add", name)
        self._made.append(name)
        _ip("-n", name, "link", "set", "dev", "lo", "up")
        return name

    def start(self, host: str, argv: Sequence[str], *, env: Mapping[str, str],
              cwd: str | None = None, stdout: int | IO[Any] | None = subprocess.DEVNULL,
              stderr: int | IO[Any] | None = subprocess.DEVNULL,
              user: str | None = None) -> subprocess.Popen[Any]:
        """Start ``argv`` in ``host``'s namespace (as ``user``, else root), in a session
        of its own; it is killed on :meth:`close` if still running."""
        drop = ["setpriv", f"--reuid={user}", f"--regid={user}", "--init-groups"] if user else []
        process = subprocess.Popen(["ip", "netns", "exec", self.name(host), *drop, *argv],
                                   env=dict(env), cwd=cwd, stdout=stdout, stderr=stderr,
                                   start_new_session=True)
        self.processes.append(process)
        return process

    def pids(self, host: str) -> list[int]:
        """The processes in ``host``'s namespace now."""
        return [int(p) for p in _ip("netns", "pids", self.name(host), check=False).split()]

    def cut(self, host: str) -> None:
        """Pull ``host``'s cable: its link on the switch goes down."""
        _ip("-n", self.name(SWITCH), "link", "set", "dev", self._port(host), "down")

    def mend(self, host: str) -> None:
        _ip("-n", self.name(SWITCH), "link", "set", "dev", self._port(host), "up")

    def close(self) -> None:
        """Stop every process started here, then remove every namespace (their links go
        with them); safe to call twice."""
        for process in self.processes:
            stop(process, kill=True)
        self.processes.clear()
        for name in reversed(self._made):
            _remove(name)
        self._made.clear()


def stop(process: subprocess.Popen[Any], *, kill: bool = False, timeout: float = 30) -> None:
    """Signal ``process``'s session (SIGTERM, or SIGKILL) and wait; SIGKILL if it lingers."""
    if process.poll() is None:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGKILL if kill else signal.SIGTERM)
    try:
        process.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        process.wait(timeout=timeout)
