"""A socket's scope carries the signed-in user from the session cookie; its frames go out
through the server's own `send`, not through a session-saving wrapper."""

import asyncio

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.test import Client

from baohuang.socket_session import socket_auth

pytestmark = pytest.mark.django_db(transaction=True)


def connect(cookie: str | None) -> tuple[dict, object, object]:
    """Run the stack around an app that records its scope and `send`."""
    seen = {}

    async def app(scope, receive, send):
        seen["user"] = scope["user"]
        seen["send"] = send

    async def send(message):
        pass

    headers = [(b"cookie", f"{settings.SESSION_COOKIE_NAME}={cookie}".encode())] if cookie else []
    asyncio.run(socket_auth(app)({"type": "websocket", "headers": headers}, None, send))
    return seen["user"], seen["send"], send


def test_a_signed_in_socket_sees_its_user_and_sends_through_the_servers_send():
    user = get_user_model().objects.create_user("li", password="pw-123-long")
    client = Client()
    client.force_login(user)

    seen_user, seen_send, server_send = connect(client.cookies[settings.SESSION_COOKIE_NAME].value)

    assert seen_user.pk == user.pk
    assert seen_send is server_send


def test_without_a_session_the_socket_is_anonymous():
    seen_user, _, _ = connect(None)

    assert not seen_user.is_authenticated
