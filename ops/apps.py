from django.apps import AppConfig


class OpsConfig(AppConfig):
    name = "ops"
    verbose_name = "Operating the server"

    def ready(self):
        import atexit
        import os

        from prometheus_client import multiprocess

        if "PROMETHEUS_MULTIPROC_DIR" in os.environ:
            # A stopped server's open sockets must not count on (the gauge sums live processes).
            atexit.register(multiprocess.mark_process_dead, os.getpid())
