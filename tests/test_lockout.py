"""Password guessing: after the failure limit an address is locked out of every login —
/login/, /admin/login/ and POST /api/auth/token/ — even with the right password; another
address is not (counted through the trusted-proxy setting)."""

import pytest
from django.test import Client
from rest_framework.authtoken.models import Token

from rooms.models import Player

PASSWORD = "a long enough password"
LOGINS = {
    "/login/": lambda password: {"username": "frank", "password": password},
    "/admin/login/": lambda password: {"username": "frank", "password": password, "next": "/admin/"},
    "/api/auth/token/": lambda password: {"username": "frank", "password": password},
}


@pytest.fixture
def frank(db, settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]  # fast, for tests
    settings.AXES_FAILURE_LIMIT = 3
    settings.NUM_PROXIES = 1
    return Player.objects.create_user(username="frank", password=PASSWORD, is_staff=True)


def attempt(path: str, password: str, address: str):
    return Client(HTTP_X_FORWARDED_FOR=address).post(path, LOGINS[path](password))


def signed_in(response) -> bool:
    if response.request["PATH_INFO"].startswith("/api/"):
        return response.status_code == 200 and "token" in response.json()
    return response.status_code == 302 and "_auth_user_id" in response.client.session


@pytest.mark.parametrize("path", LOGINS)
def test_the_right_password_works_before_the_limit(frank, path):
    attempt(path, "guess 1", "1.2.3.4")

    assert signed_in(attempt(path, PASSWORD, "1.2.3.4"))


@pytest.mark.parametrize("path", LOGINS)
def test_an_address_past_the_limit_is_locked_out_even_with_the_right_password(frank, path):
    answers = [attempt(path, f"guess {number}", "1.2.3.4").status_code for number in range(3)]
    assert 429 not in answers[:2] and answers[2] == 429  # the third failure locks the address

    locked = attempt(path, PASSWORD, "1.2.3.4")

    assert locked.status_code == 429 and int(locked["Retry-After"]) == 15 * 60
    assert not signed_in(locked)
    if path.startswith("/api/"):
        assert locked.json()["code"] == "locked_out" and not Token.objects.exists()
    else:
        assert "15" in locked.content.decode()
    assert signed_in(attempt(path, PASSWORD, "5.6.7.8"))  # another client, through the trusted proxy


def test_failures_count_across_the_login_paths(frank):
    attempt("/login/", "guess 1", "1.2.3.4")
    attempt("/admin/login/", "guess 2", "1.2.3.4")
    attempt("/api/auth/token/", "guess 3", "1.2.3.4")

    assert attempt("/login/", PASSWORD, "1.2.3.4").status_code == 429


def test_without_trusted_proxies_a_forged_header_does_not_escape_the_lockout(frank, settings):
    settings.NUM_PROXIES = 0
    for number in range(3):
        attempt("/login/", "guess", f"10.0.0.{number}")

    assert attempt("/login/", PASSWORD, "10.9.9.9").status_code == 429
