"""Under /api/ every error is JSON in the API's shape and English, also the ones Django
answers before any view (unknown URLs, oversized bodies); the pages keep their HTML."""

import pytest

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("path", ["/api/nope/", "/api/hands/abc/", "/api/hands/-1/events/", "/api/players/1/x"])
def test_unknown_api_urls_are_json_404s(client, path):
    response = client.get(path)

    assert response.status_code == 404 and response["Content-Type"] == "application/json"
    assert response.json() == {"code": "not_found", "detail": "There is nothing at this address."}


def test_an_oversized_body_is_a_json_413_and_logs_nobody_in(client, settings):
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 1000

    response = client.post("/api/auth/token/", {"username": "frank", "password": "x" * 5000})

    assert response.status_code == 413 and response.json()["code"] == "too_large"


def test_api_errors_are_english_whatever_the_browser_speaks(client):
    response = client.get("/api/hands/1/events/", {"since": "soon"}, headers={"accept-language": "zh-hans"})

    body = response.json()
    assert response.status_code == 400 and response["Content-Language"] == "en"
    assert body["detail"] == "Some parameters are invalid." and body["fields"]["since"] == ["A valid integer is required."]


def test_pages_keep_their_own_language_and_html(client):
    lobby = client.get("/", headers={"accept-language": "zh-hans"})
    missing = client.get("/nope/")

    assert lobby["Content-Language"] == "zh-hans"
    assert missing.status_code == 404 and missing["Content-Type"].startswith("text/html")
