"""Operating through the admin in a real Chromium: the live dashboard opens a room's table
as a spectator; a moderator mutes one player and bans another, with reasons; the banned
player's socket and pages are refused with the reason, the muted player's chat is
refused, and both steps are in the moderation log."""

import pytest
from playwright.sync_api import expect

from rooms.models import ModerationEntry, Player
from rooms.services import hand_start
from tests.browser.driver import DESKTOP
from tests.live import SocketClient, no_lingering_connections, session_key  # noqa: F401

pytestmark = pytest.mark.django_db(transaction=True)
PASSWORD = "moderator-pass-1"


@pytest.fixture
def olga(transactional_db):
    return Player.objects.create_user(username="olga", password=PASSWORD, is_staff=True, is_superuser=True,
                                      display_name="Olga")


@pytest.fixture
def admin_page(browser, server, olga):
    context = browser.new_context(viewport=DESKTOP, locale="en")
    context.set_default_timeout(15000)
    page = context.new_page()
    page.goto(f"{server.url}/admin/login/")
    page.fill("#id_username", "olga")
    page.fill("#id_password", PASSWORD)
    page.click("input[type=submit]")
    expect(page.locator("#live-link")).to_be_visible()
    yield page
    context.close()


def moderate(page, base_url: str, player: Player, action: str, reason: str, minutes: int | None = None):
    page.goto(f"{base_url}/admin/rooms/player/{player.pk}/change/")
    page.click("text=Mute, unmute, ban or unban")
    expect(page.locator("#id_player")).to_have_value(str(player.pk))
    page.select_option("#id_action", action)
    if minutes is not None:
        page.fill("#id_minutes", str(minutes))
    page.fill("#id_reason", reason)
    page.click("input[name=_save]")
    expect(page.locator(".messagelist .success")).to_be_visible()


def off_loop(function, *args, **kwargs):
    """Run `function` in a thread of its own: Playwright's event loop runs in this one, and
    the services' broadcasts after commit cannot run inside a running loop."""
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(1) as thread:
        return thread.submit(function, *args, **kwargs).result()


def socket_frames(url: str, session: str, *frames: dict) -> list[dict]:
    """Connect with `session`, send `frames`, and return what came back until the close
    (or two seconds of quiet)."""
    import asyncio

    async def talk():
        client = SocketClient(url, session=session)
        await client.connect()
        try:
            await client.expect("snapshot", timeout=2)
            for frame in frames:
                await client.send(frame)
                await client.expect("error")
        except Exception:  # refused and closed: what it said is in .frames
            pass
        await client.close()
        return client.frames

    return off_loop(asyncio.run, talk())


def test_dashboard_mute_and_ban_through_the_admin(admin_page, server, full_table, players, olga):
    alice, bob = players[0], players[1]
    room = off_loop(full_table, "classic")
    hand = off_loop(hand_start, room_id=room.pk)
    page = admin_page

    # The dashboard shows the room being played and opens its table as a spectator.
    page.click("#live-link a")
    row = page.locator(f"#playing tr[data-room='{room.pk}']")
    expect(row).to_contain_text(f"#{hand.number}")
    expect(row).to_contain_text("alice")
    with page.expect_popup() as popup:
        row.locator("a.watch").click()
    table = popup.value
    expect(table.locator("#table")).to_be_visible()
    table.wait_for_function("() => window.bhTable && window.bhTable.store.you.role === 'spectator'")
    table.close()

    moderate(page, server.url, bob, "mute", "spamming the table", minutes=60)
    moderate(page, server.url, alice, "ban", "playing with a second account")

    # The log, as the admin lists it: both entries, with the moderator.
    page.goto(f"{server.url}/admin/rooms/moderationentry/")
    rows = page.locator("#result_list tbody tr")
    expect(rows).to_have_count(2)
    expect(rows.nth(0)).to_contain_text("playing with a second account")
    expect(rows.nth(1)).to_contain_text("spamming the table")
    expect(rows.nth(0)).to_contain_text("Olga")
    assert list(ModerationEntry.objects.values_list("player", "action", "staff").order_by("id")) == [
        (bob.pk, "mute", olga.pk), (alice.pk, "ban", olga.pk)]
    assert not page.locator("#result_list input[type=checkbox]").count()  # no delete action either

    url = f"{server.ws_url}/ws/rooms/{room.pk}/"
    # The banned player's socket is refused with the reason, then closed.
    said = socket_frames(url, session_key(alice))
    assert said[0]["type"] == "error" and said[0]["code"] == "banned"
    assert "playing with a second account" in said[0]["message"]
    # The muted player's chat is refused.
    said = socket_frames(url, session_key(bob), {"type": "chat", "text": "buy gold", "client_id": "c1"})
    assert [frame["code"] for frame in said if frame["type"] == "error"] == ["muted"]

    # The banned player's pages say why.
    context = page.context.browser.new_context(viewport=DESKTOP, locale="en")
    context.add_cookies([{"name": "sessionid", "value": session_key(alice), "url": server.url}])
    banned = context.new_page()
    response = banned.goto(f"{server.url}/")
    assert response.status == 403
    expect(banned.locator("#banned")).to_contain_text("playing with a second account")
    context.close()
