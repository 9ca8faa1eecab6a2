"""Only the API, under /api/ as in baohuang/urls.py: the API's tests do not depend on the pages' URLs."""

from django.urls import include, path

urlpatterns = [path("api/", include("api.urls"))]
