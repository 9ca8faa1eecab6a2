"""The client's address behind trusted proxies (`NUM_PROXIES`)."""

from baohuang.clients import forwarded_client, scope_address


def test_without_trusted_proxies_the_header_is_ignored():
    assert forwarded_client("10.0.0.9", "1.2.3.4", 0) == "10.0.0.9"


def test_one_proxy_means_the_last_entry_is_the_client():
    assert forwarded_client("10.0.0.9", "6.6.6.6, 1.2.3.4", 1) == "1.2.3.4"  # 6.6.6.6: the client's own claim


def test_two_proxies_read_the_second_entry_from_the_right():
    assert forwarded_client("10.0.0.9", "6.6.6.6, 1.2.3.4, 10.0.0.8", 2) == "1.2.3.4"


def test_fewer_entries_than_proxies_take_the_leftmost():
    assert forwarded_client("10.0.0.9", "1.2.3.4", 3) == "1.2.3.4"


def test_no_header_behind_a_proxy_is_the_peer():
    assert forwarded_client("10.0.0.9", None, 1) == forwarded_client("10.0.0.9", "", 1) == "10.0.0.9"


def test_a_websocket_scope_reads_the_same_header(settings):
    settings.NUM_PROXIES = 1
    scope = {"client": ("10.0.0.9", 5555), "headers": [(b"x-forwarded-for", b"6.6.6.6, 1.2.3.4")]}

    assert scope_address(scope) == "1.2.3.4"
    assert scope_address({"client": None, "headers": []}) == ""
