"""The 保皇 (Baohuang) server: settings, URLs, the ASGI and Celery apps, and the engine.

The Celery app is imported here so that `@shared_task` functions bind to it whenever
Django starts (the usual Celery–Django layout).
"""

from baohuang.celery import app as celery_app

__all__ = ("celery_app",)
