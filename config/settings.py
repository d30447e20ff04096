"""Django settings, from the environment variables of config/environment.py (read once,
typed, with their ranges: a bad value stops the start with a sentence naming it).

DEBUG is off unless DJANGO_DEBUG=true asks for it (`make run` and the test suite do), so a
forgotten variable in production never shows tracebacks to the world. With DEBUG off a
secret key and allowed hosts must be given, or the program refuses to start. The other
defaults give a zero-setup first run (SQLite, Celery tasks run in-process); see README.md,
"Configuration".
"""

from datetime import timedelta
from pathlib import Path
from typing import Any

import csp.constants as csp
import dj_database_url
import django_stubs_ext
from django.utils.translation import gettext_lazy as _
from whitenoise.compress import Compressor

from config import environment, oauth

# Django's classes that django-stubs makes generic (``admin.ModelAdmin[Tournament]``) take
# their type at run time too.
django_stubs_ext.monkeypatch()

BASE_DIR = Path(__file__).resolve().parent.parent
env = environment.read()

DEBUG = env.DJANGO_DEBUG

SECRET_KEY = env.DJANGO_SECRET_KEY or ("django-insecure-dev-only-never-use-in-prod" if DEBUG
                                       else "")
if not SECRET_KEY:
    raise SystemExit(
        "DJANGO_SECRET_KEY must be set when DJANGO_DEBUG is false (the default). In "
        "production set it to a long random value; on a development machine set "
        "DJANGO_DEBUG=true instead (`make run` does).")

ALLOWED_HOSTS = env.DJANGO_ALLOWED_HOSTS or (["localhost", "127.0.0.1"] if DEBUG else [])
if not ALLOWED_HOSTS:
    raise SystemExit("DJANGO_ALLOWED_HOSTS must be set when DJANGO_DEBUG is false.")

INSTALLED_APPS = [
    # first, so that `runserver` is daphne's and serves websockets too (games/live)
    "daphne",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "rest_framework",
    "django_filters",
    "drf_spectacular",
    # CSV import and export of players, teams and entries in the admin (tournaments/admin)
    "import_export",
    "games",
    "games.live",
    "tournaments",
    # robot duplicate events, built on tournaments' scoring and games' live tables
    "robot_duplicate",
    # the API's tokens (REST_FRAMEWORK below), and Swagger UI's assets, served locally
    "rest_framework.authtoken",
    "drf_spectacular_sidecar",
    # OAuth2 for third-party apps (OAUTH2_PROVIDER below)
    "oauth2_provider",
    # login limits (AUTHENTICATION_BACKENDS below)
    "axes",
    # the Content-Security-Policy header (CONTENT_SECURITY_POLICY below)
    "csp",
]

MIDDLEWARE = [
    # first, so that everything logged for a request carries its id (LOGGING below)
    "config.logs.RequestIdMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "csp.middleware.CSPMiddleware",
    # in production the web process serves the collected static files (runserver does in
    # debug), under content-hashed names that collectstatic writes (STORAGES below)
    *([] if DEBUG else ["whitenoise.middleware.WhiteNoiseMiddleware"]),
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "config.error_pages.PlatformErrorMiddleware",
    "axes.middleware.AxesMiddleware",  # last, as django-axes asks
]

ROOT_URLCONF = "config.urls"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                # the header's unread notifications, counted only for a logged-in person
                "tournaments.views.notices.header_unread",
            ],
        },
    },
]

WSGI_APPLICATION = "config.wsgi.application"

DATABASES = {
    "default": dj_database_url.parse(
        env.DATABASE_URL or f"sqlite:///{BASE_DIR / 'db.sqlite3'}",
        conn_max_age=60,
        conn_health_checks=True,
    ),
}
# Behind a pooler in transaction mode, a cursor kept open on the server between queries
# (Django's .iterator() outside a transaction) may be looked for on another server
# connection; Django with psycopg already prepares no statements, which such a pooler also
# needs (docs/operating/capacity.md).
DATABASES["default"]["DISABLE_SERVER_SIDE_CURSORS"] = env.DATABASE_TRANSACTION_POOLER
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # The zero-setup default serves a few live tables at once (bots' moves, the pages, an
    # organiser's saves): in WAL mode readers never wait for the writer; a writer waits up
    # to 20 s for the lock rather than failing at once; and a transaction takes the write
    # lock when it begins (BEGIN IMMEDIATE), so one that read and then writes cannot fail
    # halfway because another wrote in between (SQLite answers that "database is locked"
    # without waiting).
    DATABASES["default"]["OPTIONS"] = {
        "transaction_mode": "IMMEDIATE",
        "timeout": 20,
        "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
    }

# The cache holds API rate-limit counts. Give several processes one cache to share,
# e.g. DJANGO_CACHE_URL=redis://127.0.0.1:6379/2; by default each process has its own.
CACHES = {"default": {"BACKEND": "django.core.cache.backends.redis.RedisCache",
                      "LOCATION": env.DJANGO_CACHE_URL} if env.DJANGO_CACHE_URL else
          {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

LANGUAGE_CODE = "en"
LANGUAGES = [("en", _("English")), ("fi", _("Finnish"))]
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
# `manage.py collectstatic` gathers the static files here; in production WhiteNoise
# serves them from the web process (hashed names, compressed, cached for a year).
STATIC_ROOT = Path(env.DJANGO_STATIC_ROOT or BASE_DIR / "staticfiles")

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# REST API (tournaments/api/). API clients authenticate with a login's token
# (`Authorization: Token <key>`, from POST /api/v1/auth/token/) or an API key with scopes
# (`Authorization: Bearer push_...`, made on the person's API keys page; api/keys.py) or an
# OAuth2 access token a third-party app was given (any other `Bearer`; api/oauth.py); a
# signed-in browser session works too, with Django's CSRF check on every write. Token
# comes first so that an anonymous write is answered 401 with a WWW-Authenticate header.
REST_FRAMEWORK: dict[str, object] = {
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "EXCEPTION_HANDLER": "tournaments.api.errors.exception_handler",
    # an unknown ?format= or Accept header is a 406 naming the endpoint's formats
    "DEFAULT_CONTENT_NEGOTIATION_CLASS": "tournaments.api.negotiation.FormatNegotiation",
    "DEFAULT_FILTER_BACKENDS": ["django_filters.rest_framework.DjangoFilterBackend"],
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "rest_framework.authentication.TokenAuthentication",
        "tournaments.api.keys.ApiKeyAuthentication",
        "tournaments.api.oauth.OAuthTokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticatedOrReadOnly",
                                   "tournaments.api.keys.KeyScopes"],
    "DEFAULT_PAGINATION_CLASS": "tournaments.api.pagination.Pagination",
    "PAGE_SIZE": 50,
    # attempts at POST /api/v1/auth/token/ per client address (tournaments/api/tokens.py)
    "DEFAULT_THROTTLE_RATES": {"auth": env.API_AUTH_RATE},
    # JSON bodies nested too deep, or carrying text PostgreSQL cannot store, are a 400
    "DEFAULT_PARSER_CLASSES": [
        "tournaments.api.parsers.JSONParser",
        "rest_framework.parsers.FormParser",
        "rest_framework.parsers.MultiPartParser",
    ],
}

SPECTACULAR_SETTINGS: dict[str, object] = {
    "TITLE": "Push league API",
    "VERSION": "0.1.0",
    "DESCRIPTION": "Tournaments, rounds, matches, teams, players and standings of the Push "
                   "league; result submission for organisers and players.",
    "SERVE_INCLUDE_SCHEMA": False,
    "COMPONENT_SPLIT_REQUEST": True,
    # Swagger UI is served from drf-spectacular-sidecar's static files, not from a CDN.
    "SWAGGER_UI_DIST": "SIDECAR",
    "POSTPROCESSING_HOOKS": [
        "drf_spectacular.hooks.postprocess_schema_enums",
        "tournaments.api.schema.postprocess",
    ],
    "ENUM_NAME_OVERRIDES": {
        "TournamentStatusEnum": "tournaments.models.Tournament.Status",
        "RoundStatusEnum": "tournaments.models.Round.Status",
        "MatchStatusEnum": "tournaments.models.Match.Status",
        "SeasonStatusEnum": "tournaments.models.Season.Status",
        "SeasonKindEnum": "tournaments.models.Season.Kind",
        "SeasonMoveEnum": "tournaments.api.leagues.MOVE_KINDS",
        # the tournament's keeps the name it had before the webhooks' format came
        "FormatEnum": "tournaments.models.Tournament.Format",
        "WebhookFormatEnum": "tournaments.models.WebhookSubscription.Format",
        "WebhookEventEnum": "tournaments.models.WebhookSubscription.Event",
    },
}

# OAuth2 for third-party apps: config/oauth.py.
OAUTH2_PROVIDER = oauth.provider(DEBUG)

# Celery: a real broker when CELERY_BROKER_URL is set; otherwise tasks run
# in-process (eager) so a first run needs no Redis, and their errors propagate.
CELERY_TASK_ALWAYS_EAGER = not env.CELERY_BROKER_URL
CELERY_TASK_EAGER_PROPAGATES = CELERY_TASK_ALWAYS_EAGER
# In-process tasks sent for later (a bot's pause, a turn's timer) wait for their time in a
# thread of the process, and beat's sweeps run there too (config/in_process.py), so a first
# run plays at the pace production does. The tests turn it off: their tasks run at once.
CELERY_EAGER_DELAYS = CELERY_TASK_ALWAYS_EAGER if env.CELERY_EAGER_DELAYS is None \
    else env.CELERY_EAGER_DELAYS
CELERY_BROKER_URL = env.CELERY_BROKER_URL or "memory://"
# A Redis broker through kombu's Redis transport with one step mended, so that a worker
# lives through a Redis outage (config/broker.py).
if CELERY_BROKER_URL.startswith("redis://"):
    CELERY_BROKER_TRANSPORT = "config.broker:Transport"
CELERY_TIMEZONE = TIME_ZONE
# One queue per deployment; the end-to-end tests give each run a queue of its own.
CELERY_TASK_DEFAULT_QUEUE = env.CELERY_QUEUE
# Tasks report through the database, so no result backend is needed; tests that wait
# for a task set one (e.g. redis://127.0.0.1:6379/1).
CELERY_RESULT_BACKEND = env.CELERY_RESULT_BACKEND or None
# Acknowledge only after the task finished, so a crashed worker's task is
# redelivered; tasks are idempotent, so a second run is harmless.
CELERY_TASK_ACKS_LATE = True
# Take one task at a time: tasks are long-ish (whole games), and prefetching
# would leave tasks waiting behind a busy worker while others sit idle.
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
# Celery's Django fixup closes the database connection before and after every task, so
# each task (a bot's move: a few milliseconds of work) would open a new one, starting a
# PostgreSQL backend. A worker keeps it instead, checked and renewed as a request's is
# (CONN_MAX_AGE, health checks: config/celery.py), and the fixup's own renewal comes only
# after this many tasks.
CELERY_DB_REUSE_MAX = 10_000
# A task gets SoftTimeLimitExceeded after 4 minutes, giving it time to roll back
# cleanly; it is killed at 5 minutes. Both stay under the visibility timeout below, so
# an unacknowledged task isn't redelivered while it is still running.
CELERY_TASK_SOFT_TIME_LIMIT = 240
CELERY_TASK_TIME_LIMIT = 300
# A task whose worker died (kill -9, out of memory) goes back to the queue instead of
# being acknowledged as failed.
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_BROKER_TRANSPORT_OPTIONS = {
    # Redis hands an unacknowledged task (its worker died) to another worker after this
    # long: just above the time limit, so a task still running is never handed out twice.
    # Redis's default is an hour; the sweep below catches a dead worker's game sooner.
    "visibility_timeout": CELERY_TASK_TIME_LIMIT + 60,
    # A broker that does not answer costs a request at most a few seconds: what the
    # services could not send waits in their outbox for the sweep (services/followups.py).
    "socket_connect_timeout": 2,
}
CELERY_BROKER_CONNECTION_TIMEOUT = 2
# Celery beat (`celery -A config beat`) runs the sweep every minute: it sends the tasks the
# broker did not take, and sends again the bot matches whose worker died (tasks.sweep).
CELERY_BEAT_SCHEDULE = {
    "sweep": {"task": "tournaments.tasks.sweep", "schedule": 60.0},
    # live tables: turns whose time ran out, results not yet reported, bots' moves lost
    # (games.live); often, so that play resumes soon after a broker outage
    "live-sweep": {"task": "games.live.tasks.live_sweep",
                   "schedule": env.LIVE_SWEEP_SECONDS},
    # scheduled online tournaments: open check-in, start, settle and complete rounds when
    # due (tournaments.services.schedule); a round starts at most this late, and a round
    # whose last table finished is completed within it
    "schedule-tick": {"task": "tournaments.tasks.schedule_tick", "schedule": 10.0},
    # the OAuth2 apps' tokens and codes past their life (config/oauth.py)
    "oauth-tokens-clear": {"task": "tournaments.tasks.oauth_tokens_clear",
                           "schedule": 24 * 3600.0},
}

if not DEBUG:
    # Answer HTTPS only, and tell browsers to insist on it for a year.
    SECURE_SSL_REDIRECT = True
    SECURE_HSTS_SECONDS = 31_536_000
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    SECURE_HSTS_PRELOAD = True
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    # The static files' content-hashed names, which WhiteNoise serves (MIDDLEWARE): browsers
    # may cache them for good.
    STORAGES = {
        "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
        "staticfiles": {"BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"},
    }
    # Source maps (14 of the 25 MB collected: the API docs' and the admin's libraries) are
    # fetched only by a browser's developer tools; compressing them was over half of
    # collectstatic's CPU.
    WHITENOISE_SKIP_COMPRESS_EXTENSIONS = (*Compressor.SKIP_COMPRESS_EXTENSIONS, "map")
    # Only behind a TLS-terminating proxy that sets (and strips from clients)
    # X-Forwarded-Proto; trusting the header otherwise lets clients spoof HTTPS.
    if env.DJANGO_BEHIND_TLS_PROXY:
        SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")

# The admin's CSV export of players, teams and entries escapes a cell a spreadsheet would run
# as a formula (=, +, -, @, tab, CR) with a leading ' and its import takes it off again, in
# tournaments/admin/imports.py (tournaments.csv_cells). The library's own escaping is off: it
# only drops a leading =, which lets the others through and changes the text.
IMPORT_EXPORT_ESCAPE_FORMULAE_ON_EXPORT = False


# Login limits (tournaments/api/logins.py, README "Login limits"): django-axes counts failed
# logins at every login, per username and per client address, in the database, so that
# all web processes share one count. An address locks only at a much higher count than a
# username, for a whole room may share one. A successful login doesn't wipe the count:
# with its own account an attacker could otherwise reset its address between guesses.
LOGIN_FAILURE_LIMIT = env.LOGIN_FAILURE_LIMIT
LOGIN_ADDRESS_FAILURE_LIMIT = env.LOGIN_ADDRESS_FAILURE_LIMIT
LOGIN_COOLOFF_MINUTES = env.LOGIN_COOLOFF_MINUTES
# Behind the TLS proxy the client is the address it appends to X-Forwarded-For;
# reached directly, the peer address (a forged header is not read).
CLIENT_ADDRESS_FROM_PROXY = env.DJANGO_BEHIND_TLS_PROXY
AUTHENTICATION_BACKENDS = ["axes.backends.AxesStandaloneBackend",
                           "django.contrib.auth.backends.ModelBackend"]
AXES_HANDLER = "tournaments.api.logins.LoginLimitHandler"  # the address's higher limit
AXES_FAILURE_LIMIT = LOGIN_FAILURE_LIMIT
AXES_COOLOFF_TIME = timedelta(minutes=LOGIN_COOLOFF_MINUTES)
AXES_LOCKOUT_PARAMETERS = ["username", "ip_address"]  # either one locks, at its own limit
AXES_CLIENT_IP_CALLABLE = "tournaments.api.logins.client_address"
AXES_LOCKOUT_CALLABLE = "tournaments.api.logins.lockout_response"
AXES_DISABLE_ACCESS_LOG = True  # keep failed attempts only, not a log of every login
# Players log in on the site (accounts/login/) to report and confirm their results.
LOGIN_REDIRECT_URL = LOGOUT_REDIRECT_URL = "home"
# Sign-ups (accounts/signup/) and password-reset mails each take at most SIGNUP_LIMIT
# requests per client address (as the login limits count it) in SIGNUP_WINDOW_MINUTES,
# counted in the cache as the token endpoint's rate is; an address locked out of logging
# in is refused a sign-up too (tournaments/views/accounts.py).
SIGNUP_LIMIT = env.SIGNUP_LIMIT
SIGNUP_WINDOW_MINUTES = env.SIGNUP_WINDOW_MINUTES
# An organiser's invite link links the account that opens it to a player; it works once,
# for this many days (tournaments/services/accounts.py).
PLAYER_INVITE_DAYS = env.PLAYER_INVITE_DAYS

# Mail: the password-reset mail and the notifications (tournaments/services/mail.py). SMTP
# when EMAIL_HOST is set (STARTTLS unless told otherwise); otherwise, in debug (`make run`),
# printed to the console. A production site without EMAIL_HOST sends no mail: its reset
# page says to ask an organiser instead.
EMAIL_HOST = env.EMAIL_HOST
MAIL_CONFIGURED = bool(EMAIL_HOST) or DEBUG
if EMAIL_HOST:
    EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    EMAIL_USE_TLS = env.EMAIL_USE_TLS
    EMAIL_USE_SSL = env.EMAIL_USE_SSL
    if EMAIL_USE_TLS and EMAIL_USE_SSL:
        raise SystemExit("EMAIL_USE_TLS and EMAIL_USE_SSL exclude each other: "
                                   "set EMAIL_USE_TLS=false to use EMAIL_USE_SSL.")
    EMAIL_PORT = env.EMAIL_PORT or (465 if EMAIL_USE_SSL else 587)
    EMAIL_HOST_USER = env.EMAIL_HOST_USER
    EMAIL_HOST_PASSWORD = env.EMAIL_HOST_PASSWORD
    # a mail server that does not answer costs the request at most this many seconds
    EMAIL_TIMEOUT = 10
    if not env.DEFAULT_FROM_EMAIL:
        raise SystemExit("DEFAULT_FROM_EMAIL must be set when EMAIL_HOST is: the "
                                   "address the site's mail comes from.")
elif DEBUG:
    EMAIL_BACKEND = "django.core.mail.backends.console.EmailBackend"
else:
    # nothing to send through: a mail would fail, so none is attempted (MAIL_CONFIGURED)
    EMAIL_BACKEND = "django.core.mail.backends.dummy.EmailBackend"
DEFAULT_FROM_EMAIL = env.DEFAULT_FROM_EMAIL or "webmaster@localhost"
# Where the site's mail links to (confirming an address, notifications, unsubscribing):
# mail is read away from any request, so the site's address is a setting.
SITE_URL = (env.SITE_URL.rstrip("/")
            or ("http://localhost:8000" if DEBUG else f"https://{ALLOWED_HOSTS[0]}"))

# Webhooks (tournaments/services/webhook_delivery.py): how long a delivery waits for its
# receiver, how many failures in a row disable a subscription, and whether hosts at private
# addresses may be posted to (never in production: a subscription would reach the server's
# own network).
WEBHOOKS_TIMEOUT_SECONDS = env.WEBHOOKS_TIMEOUT_SECONDS
WEBHOOKS_DISABLE_AFTER = env.WEBHOOKS_DISABLE_AFTER
WEBHOOKS_ALLOW_PRIVATE_ADDRESSES = env.WEBHOOKS_ALLOW_PRIVATE_ADDRESSES

# The project's own translations (locale/fi/LC_MESSAGES/django.po). The .mo files are build
# output: `manage.py compile_translations` makes them with polib (no GNU gettext needed).
LOCALE_PATHS = [BASE_DIR / "locale"]

# Content-Security-Policy (django-csp), sent in debug too, so the browser tests see what
# production sends. Scripts and style elements come from this site's static files, or carry
# the response's nonce (`{{ request.csp_nonce }}`: Swagger UI's start-up script and the
# browsable API's highlighting rules do, see templates/drf_spectacular/ and
# templates/rest_framework/); no inline handler or `javascript:` URL runs. Style
# *attributes* are allowed: Django REST framework's browsable API and the admin's job
# progress bar write them, and a style attribute cannot run script. Swagger UI's
# stylesheet draws its icons as data: URLs.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [csp.SELF],
        "script-src": [csp.SELF, csp.NONCE],
        "style-src": [csp.SELF, csp.NONCE],
        "style-src-attr": [csp.UNSAFE_INLINE],
        "img-src": [csp.SELF, "data:"],
        "object-src": [csp.NONE],
        "base-uri": [csp.NONE],
        "form-action": [csp.SELF],
        "frame-ancestors": [csp.NONE],
    },
}

# Live tables (games/live): websockets through Channels. The channel layer only carries
# "table N changed to sequence S" notices; clients recover from the database. Redis
# pub/sub when a Redis is configured (CHANNEL_REDIS_URL, else the broker's Redis), the
# in-memory layer (one process only) otherwise. With several Redis the layer shards: each
# group (a table's) and each connection's channel lives on the server a hash of its name
# picks (channels-redis's crc32, the same in every process), so one Redis's single thread
# carries only its share of the notices.
ASGI_APPLICATION = "config.asgi.application"
_channel_hosts = env.CHANNEL_REDIS_URL or (
    [env.CELERY_BROKER_URL] if env.CELERY_BROKER_URL else [])
if _channel_hosts:
    CHANNEL_LAYERS: dict[str, dict[str, Any]] = {"default": {
        # channels-redis's pub/sub layer, its subscriptions riding out a Redis outage
        "BACKEND": "games.live.layer.PubSubChannelLayer",
        # pub/sub ignores the Redis db number: environments are kept apart by prefix
        "CONFIG": {"hosts": _channel_hosts,
                   "prefix": env.CHANNEL_PREFIX},
    }}
else:
    CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
# Seconds a bot waits before it acts, so people can follow the game.
LIVE_BOT_PAUSE_SECONDS = env.LIVE_BOT_PAUSE_SECONDS
# Seconds the next bot waits after an action that ends a hand (not the game) instead, so
# people see the hand's end (who went out, the cards left, the scores) before the next
# deal; the table's page shows its summary that long (games/live/pacing.py).
LIVE_HAND_PAUSE_SECONDS = env.LIVE_HAND_PAUSE_SECONDS
# Seconds a person has for a turn at a practice table before the seat's stand-in bot
# finishes it (0: no limit).
LIVE_MOVE_SECONDS = env.LIVE_MOVE_SECONDS or None
# Unfinished practice tables a user may hold at once (0: no limit), and how long a practice
# table nobody acts at stays open before it is ended (games/live/limits.py).
LIVE_MAX_OPEN_PRACTICE_TABLES = env.LIVE_MAX_OPEN_PRACTICE_TABLES or None
LIVE_ABANDON_AFTER = timedelta(hours=env.LIVE_ABANDON_HOURS)
# Threads (each with a database connection of its own) in which an ASGI process runs the
# live tables' database work. With 0, Channels' one thread for all of it: then one commit
# that waits on a slow disk flush (100-500 ms now and then on the project's machine) holds
# up every table's updates behind it. SQLite (`make run`) keeps 0: it locks the whole file
# for a writer, and two threads' transactions could refuse each other. The in-process
# tests use 0 (tests/settings.py), as their data lives in the test's own connection; the
# real servers they start do not.
LIVE_DB_THREADS = (4 if "postgresql" in DATABASES["default"]["ENGINE"] else 0) \
    if env.LIVE_DB_THREADS is None else env.LIVE_DB_THREADS
# Frames one live table connection may send: LIVE_FRAMES_AT_ONCE at once, then
# LIVE_FRAMES_A_SECOND more a second (games/live/allowance.py): a page sends a few a
# minute, so only a broken or hostile client meets the limit.
LIVE_FRAMES_AT_ONCE = env.LIVE_FRAMES_AT_ONCE
LIVE_FRAMES_A_SECOND = env.LIVE_FRAMES_A_SECOND
# bench_tables only: a bare websocket echo at ws/bench-echo/ on the server it starts, so the
# transport's own cost shows beside a table's (bench/tables.py).
LIVE_BENCH_ECHO = env.LIVE_BENCH_ECHO

# Logs (config/logs.py, README "Logs"): every process (the web or ASGI server, each Celery
# worker, beat) writes its log to stderr. Each request gets an id (X-Request-ID: the
# proxy's, or a new one), sent back on the response and added to what is logged meanwhile.
# In production, one JSON object a line: errors with their traceback (a request's 500 from
# django.request, the ASGI servers' own errors) and warnings from the platform's own code
# and its libraries (the root logger: the login limits' lockouts, for one). The servers'
# loggers keep INFO, so their start-up lines ("Uvicorn running on ...") stay. Celery's
# worker and beat replace the root logger's handler with their own (their `--logfile` and
# `-l` level), whose format is switched to this one (config/logs.py). In debug (`make run`,
# the tests), Django's default: readable text.
if not DEBUG:
    LOGGING = {
        "version": 1,
        "disable_existing_loggers": False,
        "filters": {"request_id": {"()": "config.logs.RequestIdFilter"}},
        "formatters": {"json": {"()": "config.logs.JsonFormatter"}},
        "handlers": {"stderr": {"class": "logging.StreamHandler", "stream": "ext://sys.stderr",
                                "formatter": "json", "filters": ["request_id"]}},
        "root": {"handlers": ["stderr"], "level": "WARNING"},
        "loggers": {
            # Django's own at ERROR: a 500 with its traceback, not every 404
            "django": {"level": "ERROR", "handlers": [], "propagate": True},
            "uvicorn.error": {"level": "INFO", "handlers": ["stderr"], "propagate": False},
            "daphne": {"level": "INFO", "handlers": ["stderr"], "propagate": False},
        },
    }
