from django.apps import AppConfig


class ApiConfig(AppConfig):
    """The read-only REST API: leaderboards, players, rooms and hand histories."""

    name = "api"
    verbose_name = "REST API"
