"""The project's settings (production ones when DJANGO_DEBUG=false, as tests/test_logging.py
sets for the server it starts) with a view that fails, under /api/ and outside it."""

from config.settings import *  # noqa: F403

ROOT_URLCONF = "tests.api.crash_urls"
