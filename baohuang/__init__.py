"""The 保皇 (Baohuang) server: settings, URLs, the ASGI and Celery apps, and the engine.

Nothing is imported here: `baohuang.engine` must stay importable without Django, and
importing Celery pulls Django in (kombu's JSON support). The Celery app is loaded when
Django starts, by `rooms.apps.RoomsConfig.ready`, so `@shared_task` functions bind to
it; `celery -A baohuang` finds `baohuang/celery.py` by itself.
"""
