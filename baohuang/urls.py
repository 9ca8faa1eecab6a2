"""URL configuration: the admin, plus the REST API once its app exists.

The REST helper owns `api/`; its URLs are included here when the module is present so
this file does not need to change when it lands.
"""

from importlib.util import find_spec

from django.contrib import admin
from django.urls import include, path

urlpatterns = [
    path("", include("ops.urls")),  # /healthz, /readyz, /metrics, /admin/live/ (before the admin's catch-all)
    path("admin/", admin.site.urls),
    path("", include("rooms.urls")),  # the pages people play on: lobby, table, players
]

if find_spec("api") is not None and find_spec("api.urls") is not None:
    urlpatterns.append(path("api/", include("api.urls")))

# Under /api/ Django's own errors answer in the API's JSON shape (api/http_errors.py).
handler400 = "api.http_errors.bad_request"
handler404 = "api.http_errors.not_found"
handler500 = "api.http_errors.server_error"
