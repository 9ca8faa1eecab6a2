"""A browser gets DRF's browsable pages for every read, next to the Swagger UI at /api/docs/."""

import pytest

from api.tests.conftest import entry


@pytest.mark.parametrize(("path", "status"), [("/api/", 200), ("/api/leaderboard/", 200), ("/api/rooms/", 200),
                                              ("/api/players/{me}/", 200), ("/api/auth/token/", 405)])
def test_a_browser_gets_html_pages(api, alice, path, status):
    entry(alice, 3, won=True)

    response = api.get(path.format(me=alice.pk), HTTP_ACCEPT="text/html")

    assert response.status_code == status and response["Content-Type"].startswith("text/html")
    if path == "/api/auth/token/":
        assert 'name="password"' in response.content.decode()  # a form to get one's token


def test_the_api_root_links_every_collection_and_the_docs(api, db):
    links = api.get("/api/").json()

    assert {"leaderboard", "rooms", "me", "schema", "docs"} <= set(links)
    assert links["docs"].endswith("/api/docs/")
