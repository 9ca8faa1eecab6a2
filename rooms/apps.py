from django.apps import AppConfig


class RoomsConfig(AppConfig):
    name = "rooms"
    verbose_name = "Players, rooms and hands"

    def ready(self):
        # Bind @shared_task to our Celery app in every Django process (web and worker);
        # done here rather than in baohuang/__init__.py to keep the engine Django-free.
        import baohuang.celery  # noqa: F401
