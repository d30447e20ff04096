from django.conf import settings
from django.urls import path

from .consumers import EchoConsumer, TableConsumer

websocket_urlpatterns = [
    path("ws/tables/<int:table_id>/", TableConsumer.as_asgi()),
]
if settings.LIVE_BENCH_ECHO:  # bench_tables' server only
    websocket_urlpatterns.append(path("ws/bench-echo/", EchoConsumer.as_asgi()))
