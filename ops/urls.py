from django.urls import path

from ops import dashboard, views

urlpatterns = [
    path("healthz", views.healthz, name="healthz"),
    path("readyz", views.readyz, name="readyz"),
    path("metrics", views.metrics_view, name="metrics"),
    path("admin/live/", dashboard.live, name="ops_live"),
]
