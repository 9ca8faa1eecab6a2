"""Security headers: a Content-Security-Policy allowing nothing from outside the site and
no inline script, on every page; the language cookie's flags; production values."""

import re
import secrets

import pytest

from rooms.services import room_create
from rooms.tests.test_settings import manage

pytestmark = pytest.mark.django_db


def policy(response) -> dict:
    header = response["Content-Security-Policy"]
    return {part.split()[0]: part.split()[1:] for part in header.split("; ")}


def test_the_pages_allow_scripts_and_styles_from_this_site_only(client, alice):
    room = room_create(creator=alice, name="t", preset="classic")
    client.force_login(alice)
    for url in ("/", f"/rooms/{room.pk}/", f"/players/{alice.pk}/", "/leaderboard/", "/login/", "/rules/"):
        response = client.get(url)
        assert response.status_code == 200, url
        directives = policy(response)
        assert directives["script-src"] == directives["style-src"] == ["'self'"], url
        assert directives["frame-ancestors"] == ["'none'"] and directives["object-src"] == ["'none'"]
        scripts = re.findall(r"<script(?![^>]*\bsrc=)(?![^>]*application/json)[^>]*>", response.content.decode())
        assert not scripts, (url, scripts)  # inline script would be refused by the policy
        assert not re.search(r"\sstyle=", response.content.decode()), url


def test_the_api_documentation_pages_relax_styles_only(client):
    for url in ("/api/docs/", "/api/redoc/"):
        directives = policy(client.get(url))
        assert directives["script-src"] == ["'self'"]
        assert "'unsafe-inline'" in directives["style-src"]
    assert "<script>" not in client.get("/api/docs/").content.decode()  # the split Swagger view


def test_the_language_cookie_is_not_for_scripts_nor_cross_site(client):
    response = client.post("/i18n/setlang/", {"language": "en", "next": "/"})

    cookie = response.cookies["django_language"]
    assert cookie["samesite"] == "Lax" and cookie["httponly"]


def test_in_production_the_language_cookie_is_secure_too():
    shown = manage("shell", "--no-imports", "-c",
                   "from django.conf import settings; print(settings.LANGUAGE_COOKIE_SECURE)",
                   DEBUG="0", SECRET_KEY=secrets.token_urlsafe(60), ALLOWED_HOSTS="bh.example.org")

    assert shown.returncode == 0, shown.stderr
    assert shown.stdout.strip() == "True"
