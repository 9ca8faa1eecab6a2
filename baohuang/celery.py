"""The Celery app: turn timers, 托管 moves and the periodic sweep (tasks live in apps)."""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "baohuang.settings")

app = Celery("baohuang")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
