"""The WebSocket origin check compares scheme, host and port with the site and CSRF_TRUSTED_ORIGINS."""

import pytest

from baohuang.origins import origin_allowed


def scope(origin: str | None, host: str = "127.0.0.1:8000", scheme: str = "ws", **extra) -> dict:
    headers = [(b"host", host.encode())] + ([(b"origin", origin.encode())] if origin is not None else [])
    headers += [(name.replace("_", "-").encode(), value.encode()) for name, value in extra.items()]
    return {"type": "websocket", "scheme": scheme, "headers": headers}


@pytest.fixture(autouse=True)
def site(settings):
    settings.ALLOWED_HOSTS = ["127.0.0.1", "bh.example.org"]
    settings.CSRF_TRUSTED_ORIGINS = ["https://play.example.org", "https://*.games.example.org"]


def test_the_sites_own_page_may_open_a_socket():
    assert origin_allowed(scope("http://127.0.0.1:8000"))
    assert origin_allowed(scope("https://bh.example.org", host="bh.example.org", scheme="wss"))


@pytest.mark.parametrize("origin", [
    "http://127.0.0.1:9999",  # another port of the same host
    "https://127.0.0.1:8000",  # another scheme
    "http://127.0.0.1",  # the default port is another port
    "http://evil.example", "null", "", "javascript:alert(1)",
])
def test_any_other_origin_is_refused(origin):
    assert not origin_allowed(scope(origin))


def test_no_origin_or_a_host_not_allowed_is_refused():
    assert not origin_allowed(scope(None))
    assert not origin_allowed(scope("http://evil.example", host="evil.example"))


def test_trusted_origins_are_matched_with_their_scheme_and_subdomains():
    assert origin_allowed(scope("https://play.example.org"))
    assert origin_allowed(scope("https://a.games.example.org"))
    assert not origin_allowed(scope("http://play.example.org"))
    assert not origin_allowed(scope("https://play.example.org:8443"))


def test_behind_a_tls_proxy_the_forwarded_scheme_counts(settings):
    settings.SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")

    assert origin_allowed(scope("https://bh.example.org", host="bh.example.org", x_forwarded_proto="https"))
    assert not origin_allowed(scope("https://bh.example.org", host="bh.example.org"))
