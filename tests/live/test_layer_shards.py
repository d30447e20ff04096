"""The channel layer sharded over two Redis servers, as the settings make it from
``CHANNEL_REDIS_URL`` naming both, used by processes with different hash seeds: a group's
notices reach its members whichever process sends them.

channels-redis's pub/sub layer once chose a group's shard with Python's ``hash()``, which
differs from process to process unless ``PYTHONHASHSEED`` is fixed (channels_redis#273):
a process subscribed to a group on one shard while another published to it on the other,
and the notices were lost. Here a listener and a sender, two processes each with its own
seed, each use the channel layer its settings (``config.settings``) make of
``CHANNEL_REDIS_URL=<first>,<second>``: every one of many groups must reach the listener,
and both servers must carry some of them (else the test proved nothing). Real Redis
servers, real processes, the production settings, nothing mocked.
"""

from __future__ import annotations

import json
import subprocess
import sys
import uuid
from pathlib import Path
from typing import Any

import redis

from config.worker_process import ROOT
from tests.services import require

from .redis_server import TIMEOUT, RedisServer, no_redis_server

GROUPS = 24

# One process of the settings' layer: ``listen`` joins each group and prints what reaches
# it (after the layer's class and its hosts); ``send`` sends one notice to each group.
SCRIPT = """
import asyncio, json, sys
from channels.layers import get_channel_layer
from django.conf import settings

role, groups = sys.argv[1], int(sys.argv[2])
names = [f"table-{n}" for n in range(groups)]

async def main():
    layer = get_channel_layer()
    if role == "send":
        for name in names:
            await layer.group_send(name, {"type": "table.changed", "group": name})
        await layer.flush()
        return
    channel = await layer.new_channel()
    for name in names:
        await layer.group_add(name, channel)
    print(type(layer).__name__, json.dumps(settings.CHANNEL_LAYERS["default"]["CONFIG"]["hosts"]),
          flush=True)
    heard = set()
    try:
        while len(heard) < groups:
            message = await asyncio.wait_for(layer.receive(channel), 10)
            heard.add(message["group"])
    except asyncio.TimeoutError:
        pass
    print(json.dumps(sorted(heard)), flush=True)
    await layer.flush()

asyncio.run(main())
"""


def _process(role: str, hosts: list[str], prefix: str, seed: str) -> subprocess.Popen[str]:
    """A process of ``SCRIPT`` with the production settings, the channel layer's Redis
    servers named as an operator names them."""
    return subprocess.Popen(
        [sys.executable, "-c", SCRIPT, role, str(GROUPS)],
        cwd=ROOT, env={"PATH": "/usr/bin:/bin", "PYTHONHASHSEED": seed,
                       "PYTHONPATH": str(ROOT), "DJANGO_SETTINGS_MODULE": "config.settings",
                       "DJANGO_DEBUG": "true", "CHANNEL_REDIS_URL": " , ".join(hosts),
                       "CHANNEL_PREFIX": prefix},
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def _subscriptions(url: str, prefix: str) -> int:
    """The channels with ``prefix`` that Redis at ``url`` has subscribers for."""
    found: Any = redis.Redis.from_url(url).pubsub_channels(f"{prefix}*")  # sync client
    return len(found)


def test_it_delivers_every_group_across_two_shards_whatever_the_hash_seeds(
        tmp_path: Path) -> None:
    require(no_redis_server(), "the channel layer over two shards")
    for name in ("a", "b"):
        (tmp_path / name).mkdir()
    shards = [RedisServer(tmp_path / name) for name in ("a", "b")]
    try:
        hosts = [shard.url for shard in shards]
        prefix = f"push-test-shards-{uuid.uuid4().hex[:8]}"
        listener = _process("listen", hosts, prefix, seed="1")
        assert listener.stdout is not None
        ready = listener.stdout.readline().split(" ", 1)
        assert ready[0] == "PubSubChannelLayer", listener.communicate()[1]
        assert json.loads(ready[1]) == hosts
        # the group channels' subscriptions, as each shard has them
        subscribed = [_subscriptions(url, prefix) for url in hosts]
        sender = _process("send", hosts, prefix, seed="2")
        assert sender.wait(timeout=TIMEOUT) == 0, sender.communicate()[1]
        out, err = listener.communicate(timeout=TIMEOUT)
        heard = json.loads(out)
        assert heard == sorted(f"table-{n}" for n in range(GROUPS)), err
        assert all(subscribed) and sum(subscribed) >= GROUPS, subscribed
    finally:
        for shard in shards:
            shard.stop()
