from __future__ import annotations

from typing import TYPE_CHECKING

from django.conf import settings
from django.urls import path

from .consumers import EchoConsumer, InboxConsumer, TableConsumer

if TYPE_CHECKING:
    from channels.consumer import _ASGIApplicationProtocol
    from channels.routing import URLRouter, _ExtendedURLPattern


def _route(route: str, consumer: _ASGIApplicationProtocol) -> _ExtendedURLPattern:
    # django-stubs types path() for views only; Channels' stubs type a consumer's route
    # apart (_ExtendedURLPattern), and URLRouter takes only those
    return path(route, consumer)  # type: ignore[arg-type, return-value]


websocket_urlpatterns: list[_ExtendedURLPattern | URLRouter] = [
    _route("ws/tables/<int:table_id>/", TableConsumer.as_asgi()),
    # a person's open pages, told of their new notifications (games/live/inbox.py)
    _route("ws/inbox/", InboxConsumer.as_asgi()),
]
if settings.LIVE_BENCH_ECHO:  # bench_tables' server only
    websocket_urlpatterns.append(_route("ws/bench-echo/", EchoConsumer.as_asgi()))
