"""The test suite's settings: the project's settings in development mode.

DEBUG is off unless asked for (config/settings.py); the tests ask, as `make run` does, so
they get the development configuration: no HTTPS redirect, static files served from the
apps, a throwaway secret key. (Django itself still runs each test with DEBUG off.) Child
processes the tests start (manage.py, Celery workers) inherit the variable. A test that
wants production settings sets DJANGO_DEBUG=false for its own subprocess.
"""

import os
import tempfile

os.environ.setdefault("DJANGO_DEBUG", "true")

from django.conf import global_settings  # noqa: E402

from config.environment import read  # noqa: E402
from config.settings import *  # noqa: E402,F403

# The consumers' database work in the test's own thread and connection, where the test's
# data is (config/settings.py); the real servers the tests start (config/asgi_process.py)
# are given the production value.
LIVE_DB_THREADS = read().LIVE_DB_THREADS or 0

# Passwords hashed in a blink: the default hasher is slow on purpose (a second and more on
# a loaded machine), and the tests make users by the thousand. The servers and workers the
# tests start inherit these settings (DJANGO_SETTINGS_MODULE), so their logins check the
# same hashes; the default hashers stay listed for a hash made under config.settings.
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher",
                    *global_settings.PASSWORD_HASHERS]

# Tasks sent for later run at once, as a test expects; the tests of the timer thread
# itself (tests/live/test_in_process.py) turn it on.
CELERY_EAGER_DELAYS = False

# No pause after a hand's end unless a test sets one (tests/live/test_pacing.py): the
# tests that play whole games would wait it out at every hand.
LIVE_HAND_PAUSE_SECONDS = 0.0

if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":  # noqa: F405
    # A test database in a file, as make run's is, rather than Django's in-memory one: the
    # tests whose tasks run on a thread of their own (tests/live/test_pacing.py) then get
    # the busy timeout and WAL of config/settings.py, where the in-memory database's shared
    # cache answers a second writer "database table is locked" at once.
    DATABASES["default"]["TEST"] = {  # noqa: F405
        "NAME": os.path.join(tempfile.gettempdir(), f"push-league-test-{os.getpid()}.sqlite3")}
