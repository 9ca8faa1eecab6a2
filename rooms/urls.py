"""The pages: lobby, guest sign-in, rooms, the table, players, the leaderboard."""

from django.contrib.auth import views as auth_views
from django.urls import include, path

from rooms import replays, rules, views

app_name = "rooms"

urlpatterns = [
    path("", views.lobby, name="lobby"),
    path("lobby/rooms/", views.lobby_rooms, name="lobby_rooms"),
    path("guest/", views.guest, name="guest"),
    path("login/", auth_views.LoginView.as_view(next_page="rooms:lobby"), name="login"),
    path("logout/", auth_views.LogoutView.as_view(next_page="rooms:lobby"), name="logout"),
    path("rooms/new/", views.room_new, name="room_new"),
    path("quick/bots/", views.quick_start, {"mode": "bots"}, name="quick_bots"),
    path("quick/match/", views.quick_start, {"mode": "match"}, name="quick_match"),
    path("rooms/<int:room_id>/", views.table, name="table"),
    path("rooms/<int:room_id>/bot/", views.room_bot, name="room_bot"),
    path("rooms/<int:room_id>/ledger/", views.room_ledger, name="room_ledger"),
    path("players/<int:player_id>/", views.player_page, name="player"),
    path("leaderboard/", views.leaderboard, name="leaderboard"),
    path("hands/<int:hand_id>/", replays.hand_replay_page, name="hand_replay"),
    path("rules/", rules.rules_index, name="rules"),
    path("rules/<str:preset>/", rules.rules_preset, name="rules_preset"),
    # Django's set_language: the English / 中文 switch posts here (name "set_language").
    path("i18n/", include("django.conf.urls.i18n")),
]
