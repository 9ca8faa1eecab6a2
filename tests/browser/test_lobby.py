"""The lobby in a real Chromium: quick start on a phone at the bot level chosen (shown on the
seats and in the room list), 找人打 bringing two browsers to one table, and the room list
refreshing itself; at that table, 准备 and freeing a late seat."""

import pytest
from playwright.sync_api import expect

from tests.browser.driver import DESKTOP, PHONE, Seat

IN_VIEW_JS = """(node) => { const r = node.getBoundingClientRect();
  return r.top >= 0 && r.left >= 0 && r.bottom <= innerHeight && r.right <= innerWidth; }"""


@pytest.mark.django_db(transaction=True)
def test_one_tap_on_a_phone_goes_from_the_lobby_to_a_dealt_hand(browser, server, seats_to_close):
    from rooms.models import Hand

    newcomer = Seat(browser, server.url, "newcomer", viewport=PHONE)
    seats_to_close.append(newcomer)
    newcomer.open_lobby()
    button = newcomer.page.locator(".quick-presets li[data-preset='lianzhong'] button.quick-bots")
    assert button.evaluate(IN_VIEW_JS), "the quick start must be on the first screen of a phone"
    newcomer.screenshot("lobby-phone")
    level = newcomer.page.locator(".quick-presets li[data-preset='lianzhong'] select.bot-level")
    expect(level).to_have_value("normal")  # 普通 unless chosen
    level.select_option("novice")

    room = newcomer.quick_start("lianzhong", "bots")  # the one tap: no nickname, no form

    table = newcomer.page.locator("#table")
    expect(table).to_have_attribute("data-running", "1")
    expect(table).to_have_attribute("data-role", "player")
    hand = Hand.objects.get(room_id=room)
    expect(newcomer.page.locator("#hand .card")).to_have_count(len(hand.state["hands"][0]))
    expect(newcomer.page.locator(".seat.bot")).to_have_count(4)
    bots = newcomer.page.locator(".seat.bot .name").all_text_contents()
    assert sorted(bots) == ["机器人 1", "机器人 2", "机器人 3", "机器人 4"], bots  # worded in the page's language
    expect(newcomer.page.locator(".seat.bot .badge.level")).to_have_text(["入门"] * 4)  # the level chosen
    from rooms.models import Seat as SeatRow

    assert {seat.player.level for seat in SeatRow.objects.filter(room_id=room, player__is_bot=True)} == {"novice"}
    newcomer.screenshot("quick-start-dealt-phone")

    newcomer.open_lobby()  # the room list names its bots' level
    expect(newcomer.page.locator(f"tr[data-room='{room}'] .badge.level[data-level=novice]")).to_have_text("入门 ×4")


@pytest.mark.django_db(transaction=True)
def test_find_players_brings_two_browsers_to_one_table_listed_live(browser, server, seats_to_close):
    from rooms.models import Room
    from rooms.models import Seat as SeatRow

    alice = Seat(browser, server.url, "alice", viewport=PHONE)
    bob = Seat(browser, server.url, "bob", viewport=DESKTOP)
    seats_to_close.extend([alice, bob])
    alice.become_guest()
    bob.become_guest()
    bob.open_lobby()

    room = alice.quick_start("classic", "match")
    expect(alice.page.locator("#table")).to_have_attribute("data-role", "player")
    # bob's lobby lists alice's new table by itself (no reload), first.
    expect(bob.page.locator("#room-list tbody tr").first).to_have_attribute("data-room", str(room), timeout=20000)

    assert bob.quick_start("classic", "match") == room
    expect(bob.page.locator("#table")).to_have_attribute("data-role", "player")
    expect(alice.page.locator(".seat:not(.empty)")).to_have_count(2)
    expect(bob.page.locator(".seat:not(.empty)")).to_have_count(2)
    seated = set(SeatRow.objects.filter(room_id=room).exclude(player=None).values_list("player__display_name", flat=True))
    assert seated == {"alice", "bob"}

    # 准备 (ready): alice fills the table with three bots (always ready) and presses Ready;
    # bob does not, and once the room's ready time has run out she frees his seat.
    Room.objects.filter(pk=room).update(options={**Room.objects.get(pk=room).options, "ready_time": 10})  # the least
    for bots in (1, 2, 3):
        alice.click(".seat.empty [data-action=bot]")
        alice.wait_connected()
        expect(alice.page.locator(".seat.bot")).to_have_count(bots)
    alice.click("#center [data-action=ready]")
    expect(alice.page.locator("#center [data-action=unready]")).to_be_visible()  # 取消准备 is offered
    expect(bob.page.locator(".seat .badge.ready")).to_have_count(4)  # alice and the three bots
    expect(bob.page.locator("#ready-clock")).to_be_visible()
    bob_seat = SeatRow.objects.get(room_id=room, player__display_name="bob").index
    free = alice.page.locator(f".seat[data-seat='{bob_seat}'] [data-action=free]")
    expect(free).to_be_visible(timeout=30000)  # when the ten seconds have run out
    free.click()
    expect(alice.page.locator("#confirm")).to_be_visible()  # it unseats someone: asked first
    alice.click("#confirm-yes")
    expect(bob.page.locator("#table")).to_have_attribute("data-role", "spectator")
    expect(alice.page.locator(".seat:not(.empty)")).to_have_count(4)
    # bob sits down again (a new wait for ready) and his 准备 deals.
    bob.click(f".seat[data-seat='{bob_seat}'] [data-action=sit]")
    expect(bob.page.locator("#table")).to_have_attribute("data-role", "player")
    bob.click("#center [data-action=ready]")
    for person in (alice, bob):
        expect(person.page.locator("#table")).to_have_attribute("data-running", "1")


@pytest.mark.django_db(transaction=True)
def test_no_page_scrolls_sideways_on_the_narrowest_phones(browser, server, seats_to_close):
    """The lobby (signed in or not), the rules, the leaderboard and the player's page on 320
    and 360 px wide screens, in both languages. The quick start's three controls side by side ran 30 px
    past a 320 px screen; the rules' card pictures and the English presets' table did too."""
    visitor = Seat(browser, server.url, "阿强81", viewport={"width": 320, "height": 568})
    seats_to_close.append(visitor)
    page = visitor.page
    pages = ["/", "/rules/", "/rules/classic/", "/rules/qingdao/", "/leaderboard/"]
    wide = []
    for language in ("zh-hans", "en"):
        page.goto(server.url + "/")
        if page.get_attribute("html", "lang") != language:
            page.click("#language-button, form.lang button")
            expect(page.locator("html")).to_have_attribute("lang", language)
        for signed_in in (False, True):
            if signed_in:
                visitor.become_guest()
            mine = [page.get_attribute("a.me", "href")] if signed_in else []  # the player's own page
            for width in (320, 360):
                page.set_viewport_size({"width": width, "height": 640})
                for url in pages + mine:
                    page.goto(server.url + url)
                    over = page.evaluate("() => document.scrollingElement.scrollWidth - innerWidth")
                    if over > 0:
                        visitor.screenshot(f"sideways-{language}-{width}-{url.strip('/').replace('/', '-') or 'lobby'}")
                        wide.append((language, signed_in, width, url, over))
        page.context.clear_cookies()
    assert not wide, f"pages wider than the screen (language, signed in, width, page, px over): {wide}"
