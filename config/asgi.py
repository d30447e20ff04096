"""ASGI entry point: `config.asgi:application`. HTTP goes to Django; websockets under
ws/tables/<id>/ to the live tables (games/live), with the session's user and only from
the allowed hosts; the load balancer's health URL is answered before either."""

import gc
import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

# Django must be set up before the consumers (and their models) are imported.
django_asgi_app = get_asgi_application()

from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.security.websocket import AllowedHostsOriginValidator  # noqa: E402

from config.liveness import with_health  # noqa: E402
from games.live.routing import websocket_urlpatterns  # noqa: E402

# the load balancer's health URL in front of it all (config/liveness.py)
application = with_health(ProtocolTypeRouter({
    "http": django_asgi_app,
    "websocket": AllowedHostsOriginValidator(AuthMiddlewareStack(URLRouter(websocket_urlpatterns))),
}))

# No broker (``make run``): beat's sweeps run in this process (config/in_process.py).
from django.conf import settings  # noqa: E402

if settings.CELERY_TASK_ALWAYS_EAGER and settings.CELERY_EAGER_DELAYS:
    from config import in_process, sending

    in_process.start_beat(settings.CELERY_BEAT_SCHEDULE, sending.send)

# What is built by now (Django, the apps, the consumers, the engine) lives as long as the
# process: frozen, it is out of the garbage collector's way, and a full collection scans
# only what came after. At 200 live tables a full collection over everything stalled
# every table for about 240 ms on a busy 2-core machine (docs/live-table-speed.md).
gc.freeze()
