"""The REST API under /api/ (mounted by baohuang/urls.py)."""

from csp.decorators import csp_update
from django.urls import path
from drf_spectacular.views import SpectacularAPIView, SpectacularRedocView, SpectacularSwaggerSplitView

from api import views

app_name = "api"
# Swagger UI and Redoc inject their own styles (and Redoc a search worker): only their pages allow that.
DOC_STYLES = csp_update({"style-src": ["'unsafe-inline'"], "worker-src": ["'self'", "blob:"]})

urlpatterns = [
    path("", views.ApiRootView.as_view(), name="root"),
    path("leaderboard/", views.LeaderboardView.as_view(), name="leaderboard"),
    path("players/<int:pk>/", views.PlayerView.as_view(), name="player"),
    path("players/<int:pk>/ledger/", views.LedgerView.as_view(), name="player-ledger"),
    path("me/", views.MeView.as_view(), name="me"),
    path("rooms/", views.RoomListView.as_view(), name="rooms"),
    path("rooms/<int:pk>/", views.RoomView.as_view(), name="room"),
    path("rooms/<int:pk>/hands/", views.RoomHandsView.as_view(), name="room-hands"),
    path("hands/<int:pk>/", views.HandView.as_view(), name="hand"),
    path("hands/<int:pk>/events/", views.HandEventsView.as_view(), name="hand-events"),
    path("hands/<int:pk>/record/", views.HandRecordView.as_view(), name="hand-record"),
    path("auth/token/", views.TokenView.as_view(), name="token"),
    path("schema/", SpectacularAPIView.as_view(), name="schema"),
    # The split view serves its start-up script as a file: no inline script, as CSP demands.
    path("docs/", DOC_STYLES(SpectacularSwaggerSplitView.as_view(url_name="api:schema")), name="docs"),
    path("redoc/", DOC_STYLES(SpectacularRedocView.as_view(url_name="api:schema")), name="redoc"),
]
