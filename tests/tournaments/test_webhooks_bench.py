"""``manage.py bench_webhooks`` runs on a small scale, prints its three figures and leaves
nothing behind. Its worker threads read the rows it makes on connections of their own, so
the test commits them (a transactional test)."""

from __future__ import annotations

from io import StringIO
from typing import Any

import pytest
from django.core.management import call_command

from tournaments.models import Tournament, WebhookDelivery, WebhookSubscription


@pytest.mark.django_db(transaction=True)
def test_the_benchmark_prints_its_figures_and_leaves_nothing_behind(settings: Any) -> None:
    settings.WEBHOOKS_TIMEOUT_SECONDS = 0.5
    out = StringIO()
    call_command("bench_webhooks", subscriptions=30, healthy=2, failing=4, workers=2,
                 stdout=out)
    lines = out.getvalue().splitlines()
    assert lines[1].startswith("one event queued to 30 subscriptions: ")
    hanging = float(lines[2].split(": ")[1].split(" s")[0])
    assert 0.5 <= hanging < 2.0 and lines[2].endswith("(timeout 0.5 s)")
    assert lines[3].startswith("2 healthy receivers, 2 workers: ")
    assert "with 4 failing ones' deliveries queued before them" in lines[3]
    assert lines[3].endswith("at the next event, the failing ones known to fail by then and "
                             "queued behind")
    assert not (Tournament.objects.exists() or WebhookSubscription.objects.exists()
                or WebhookDelivery.objects.exists())
