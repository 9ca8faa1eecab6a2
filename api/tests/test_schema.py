"""The OpenAPI schema, its documentation pages, and a schemathesis run against it.

schemathesis generates requests from /api/schema/ for every operation and sends them to the
in-process WSGI app, anonymously and with a player's token, at ids that exist and ids that
do not; every response must be documented and match its schema, and none may be a 5xx.
A second pass sends requests that break the schema: they too must never cause a 5xx.
"""

import re

import pytest
import schemathesis
from schemathesis.generation.modes import GenerationMode
from django.core.signals import request_finished, request_started
from django.core.wsgi import get_wsgi_application
from django.db import close_old_connections
from hypothesis import HealthCheck, given, settings as hypothesis_settings, strategies as st
from rest_framework.authtoken.models import Token

from api.tests.conftest import entry, play_some
from rooms.services import hand_start, player_bot, room_create, room_dissolve

EXAMPLES_PER_OPERATION = 30


def test_the_schema_is_openapi_3_and_lists_every_endpoint(api, db):
    response = api.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json")

    schema = response.json()
    assert response.status_code == 200 and schema["openapi"].startswith("3.")
    assert sorted(schema["paths"]) == [
        "/api/auth/token/", "/api/hands/{id}/", "/api/hands/{id}/events/", "/api/hands/{id}/record/",
        "/api/leaderboard/", "/api/me/", "/api/players/{id}/", "/api/players/{id}/ledger/",
        "/api/rooms/", "/api/rooms/{id}/", "/api/rooms/{id}/hands/",
    ]


def test_the_schema_validates_without_warnings(tmp_path):
    from django.core.management import call_command

    call_command("spectacular", "--validate", "--fail-on-warn", "--file", str(tmp_path / "schema.yaml"))

    assert "/api/leaderboard/" in (tmp_path / "schema.yaml").read_text()


@pytest.mark.parametrize("page", ["/api/docs/", "/api/redoc/"])
def test_the_documentation_pages_load_their_scripts_from_our_own_static_files(api, db, page):
    response = api.get(page)

    html = response.content.decode()
    assert response.status_code == 200
    assert "/static/drf_spectacular_sidecar/" in html
    assert not re.search(r"(?:src|href)=[\"']?(?:https?:)?//", html), "the page loads something from outside"
    if page == "/api/docs/":  # Swagger UI's start-up script is a file of its own (no inline script)
        html = api.get(page, {"script": ""}).content.decode()
    assert "/api/schema/" in html


@pytest.fixture
def world(ended_hand, full_table, players, settings):
    """Rooms in every status, an ended and a running hand, ledger rows, a bot, an account; no throttling."""
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "DEFAULT_THROTTLE_RATES": {"anon": None}}
    # Each token request checks a password: the production hasher would take most of a minute here.
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    ended = ended_hand("qingdao")
    running = play_some(hand_start(room_id=ended.room_id).pk, 5)
    gone = room_create(creator=players[0], name="gone", preset="classic")
    room_dissolve(room_id=gone.pk)
    entry(player_bot(number=1), 7, won=True)
    token = Token.objects.create(user=players[0]).key
    ids = sorted({*(p.pk for p in players), ended.pk, running.pk, ended.room_id, gone.pk})
    return {"ids": ids, "token": token}


@pytest.fixture
def wsgi_app():
    """The real WSGI app, minus closing the database connection after each request (as
    Django's test client does): the test's data lives in one open transaction."""
    for signal in (request_started, request_finished):
        signal.disconnect(close_old_connections)
    yield get_wsgi_application()
    for signal in (request_started, request_finished):
        signal.connect(close_old_connections)


def test_schemathesis_finds_no_server_errors_and_no_schema_violations(world, wsgi_app):
    schema = schemathesis.openapi.from_wsgi("/api/schema/", wsgi_app)
    operations = [result.ok() for result in schema.get_all_operations()]
    assert len(operations) == 11

    for operation in operations:
        @hypothesis_settings(max_examples=EXAMPLES_PER_OPERATION, deadline=None, database=None,
                             suppress_health_check=list(HealthCheck))
        @given(case=operation.as_strategy(), known=st.sampled_from([None, *world["ids"]]), login=st.booleans())
        def check(case, known, login):
            if known is not None and "id" in (case.path_parameters or {}):
                case.path_parameters["id"] = known  # an object that exists, not only random ids
            headers = {"Authorization": f"Token {world['token']}"} if login else {}
            case.call_and_validate(headers=headers)

        check()


def test_schemathesis_invalid_requests_get_no_server_error(world, wsgi_app):
    """Requests that break the schema (bad types, out-of-range values) are refused, never a 5xx."""
    schema = schemathesis.openapi.from_wsgi("/api/schema/", wsgi_app)

    operations = [result.ok() for result in schema.get_all_operations()]
    # Only operations with inputs can be sent invalid ones (/api/me/ takes none).
    with_inputs = [op for op in operations if len(op.path_parameters) or len(op.query) or len(op.body)]
    assert len(with_inputs) == 10

    for operation in with_inputs:
        @hypothesis_settings(max_examples=EXAMPLES_PER_OPERATION // 2, deadline=None, database=None,
                             suppress_health_check=list(HealthCheck))
        @given(case=operation.as_strategy(generation_mode=GenerationMode.NEGATIVE), login=st.booleans())
        def check(case, login):
            headers = {"Authorization": f"Token {world['token']}"} if login else {}
            response = case.call(headers=headers)
            assert response.status_code < 500, (case.as_curl_command(), response.status_code)

        check()


def test_the_project_mounts_the_api_under_api():
    from django.urls import resolve

    assert resolve("/api/leaderboard/", urlconf="baohuang.urls").url_name == "leaderboard"
    assert resolve("/api/docs/", urlconf="baohuang.urls").namespace == "api"
