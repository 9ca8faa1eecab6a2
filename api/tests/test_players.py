"""Players: public profile with totals; a private ledger for its owner; /me; tokens."""

from datetime import datetime, timedelta, timezone as tz

import pytest
from rest_framework.authtoken.models import Token

from api.tests.conftest import entry
from rooms.services import player_guest
from scoring.services import ledger_adjust


def test_a_profile_shows_totals_in_all_and_per_preset(api, alice):
    entry(alice, 4, preset="classic", won=True)
    entry(alice, -2, preset="classic", won=False)
    entry(alice, 6, preset="qingdao", won=True)
    ledger_adjust(player=alice, points=-1, note="typo in a score")  # no room: no preset

    body = api.get(f"/api/players/{alice.pk}/").json()

    assert body["display_name"] == "alice" and body["is_bot"] is False
    assert body["totals"] == {"points": 7, "hands": 3, "wins": 2, "win_rate": 0.6667}
    assert body["presets"] == [
        {"preset": "classic", "points": 2, "hands": 2, "wins": 1, "win_rate": 0.5},
        {"preset": "qingdao", "points": 6, "hands": 1, "wins": 1, "win_rate": 1.0},
    ]
    assert "username" not in body  # the internal handle is not public


def test_a_player_without_entries_has_zero_totals(api, alice):
    body = api.get(f"/api/players/{alice.pk}/").json()

    assert body["totals"] == {"points": 0, "hands": 0, "wins": 0, "win_rate": 0.0} and body["presets"] == []


def test_an_unknown_player_is_not_found(api, db):
    response = api.get("/api/players/999999/")

    assert response.status_code == 404 and response.json()["code"] == "not_found"


def test_the_ledger_needs_a_login(api, alice):
    response = api.get(f"/api/players/{alice.pk}/ledger/")

    assert response.status_code == 401 and response.json()["code"] == "not_authenticated"


def test_another_player_may_not_read_a_ledger(api, alice, bob):
    api.force_login(bob)

    response = api.get(f"/api/players/{alice.pk}/ledger/")

    assert response.status_code == 403 and response.json()["code"] == "permission_denied"


def test_the_owner_reads_the_ledger_newest_first_in_pages(api, alice):
    start = datetime(2026, 11, 1, tzinfo=tz.utc)
    for day in range(3):
        entry(alice, day + 1, won=True, when=start + timedelta(days=day))
    api.force_login(alice)

    first = api.get(f"/api/players/{alice.pk}/ledger/", {"page_size": 2}).json()
    second = api.get(first["next"]).json()

    assert first["count"] == 3
    assert [row["points"] for row in first["results"] + second["results"]] == [3, 2, 1]
    assert first["results"][0]["kind"] == "hand_score" and first["results"][0]["won"] is True


def test_staff_may_read_any_ledger(api, alice, bob):
    ledger_adjust(player=alice, points=5, note="tournament prize")
    bob.is_staff = True
    bob.save()
    api.force_login(bob)

    rows = api.get(f"/api/players/{alice.pk}/ledger/").json()["results"]

    assert [(row["kind"], row["points"], row["note"]) for row in rows] == [("adjustment", 5, "tournament prize")]


def test_a_token_identifies_the_owner_without_a_session(api, alice):
    entry(alice, 1, won=True)
    token = Token.objects.create(user=alice)

    response = api.get(f"/api/players/{alice.pk}/ledger/", HTTP_AUTHORIZATION=f"Token {token.key}")

    assert response.status_code == 200 and response.json()["count"] == 1


def test_a_wrong_token_is_refused(api, alice):
    response = api.get(f"/api/players/{alice.pk}/", HTTP_AUTHORIZATION="Token not-a-token")

    assert response.status_code == 401 and response.json()["code"] == "authentication_failed"


def test_me_is_the_logged_in_players_own_profile(api, alice):
    entry(alice, 3, won=True)
    api.force_login(alice)

    body = api.get("/api/me/").json()

    assert (body["id"], body["username"], body["totals"]["points"]) == (alice.pk, alice.username, 3)


def test_me_needs_a_login(api, db):
    assert api.get("/api/me/").status_code == 401


@pytest.fixture
def account(db, settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]  # fast, for tests
    player = player_guest(nickname="frank")
    player.set_password("a long enough password")
    player.save()
    return player


def test_an_account_exchanges_its_password_for_a_token(api, account):
    response = api.post("/api/auth/token/", {"username": account.username, "password": "a long enough password"},
                        format="json")

    assert response.status_code == 200
    assert response.json()["token"] == Token.objects.get(user=account).key


def test_a_wrong_password_gets_no_token(api, account):
    response = api.post("/api/auth/token/", {"username": account.username, "password": "guess"}, format="json")

    assert response.status_code == 401 and response.json()["code"] == "authentication_failed"
    assert not Token.objects.exists()


def test_a_token_request_without_a_password_is_invalid(api, account):
    response = api.post("/api/auth/token/", {"username": account.username}, format="json")

    assert response.status_code == 400 and set(response.json()["fields"]) == {"password"}


