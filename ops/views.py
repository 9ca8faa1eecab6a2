"""Health and metrics for operators and their monitors.

- `/healthz`: the process is up (answers without touching anything else).
- `/readyz`: the database, the Redis of live play and the Celery broker answer; else
  503 naming what is down.
- `/metrics`: Prometheus exposition, for a bearer `METRICS_TOKEN` or a client address in
  `METRICS_ALLOWED_ADDRESSES` (behind `NUM_PROXIES` trusted proxies); off (404) when
  neither is set.
"""

import hmac
import logging

from django.conf import settings
from django.http import HttpResponse, JsonResponse
from django.views.decorators.http import require_GET
from prometheus_client import CONTENT_TYPE_LATEST

from baohuang.clients import request_address
from ops import metrics, probes

log = logging.getLogger(__name__)


@require_GET
def healthz(request):
    return JsonResponse({"status": "ok"})


@require_GET
def readyz(request):
    down = probes.down()
    if not down:
        return JsonResponse({"status": "ok"})
    for name, reason in down.items():
        log.warning("readyz: %s is down: %s", name, reason)
    return JsonResponse({"status": "unavailable", "down": sorted(down)}, status=503)


@require_GET
def metrics_view(request):
    token, networks = settings.METRICS_TOKEN, settings.METRICS_ALLOWED_ADDRESSES
    if not token and not networks:
        return HttpResponse("Metrics are off: set METRICS_TOKEN or METRICS_ALLOWED_ADDRESSES.\n",
                            status=404, content_type="text/plain")
    given = request.headers.get("Authorization", "")
    if not ((token and hmac.compare_digest(given.encode(), f"Bearer {token}".encode()))
            or metrics.address_allowed(request_address(request), networks)):
        return HttpResponse("Metrics need the bearer token or an allowed address.\n", status=403,
                            content_type="text/plain")
    return HttpResponse(metrics.render(), content_type=CONTENT_TYPE_LATEST)
