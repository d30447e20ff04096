"""The Celery app. Start a worker with `celery -A config worker`."""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

app = Celery("push")
# Every CELERY_* Django setting configures Celery (CELERY_TASK_ACKS_LATE -> task_acks_late).
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
