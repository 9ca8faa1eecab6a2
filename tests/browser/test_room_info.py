"""The room's settings and replays on the table, and the sheet's −40 and tribute lines, in a
real Chromium on a phone: a qingdao hand where bob forces an exit mid-hand (−40, 托管 to
the end), so the room is dissolved at its end and the tribute owed becomes points.

The hand is moved by the services in this process; its last moves run in a thread of
their own, so their broadcasts reach the open page (a dissolved room's page, loaded
again, has no socket: the sheet is what its players saw live).
"""

import threading

import pytest
from playwright.sync_api import expect

from scoring.models import TributeDebt
from tests.browser.driver import PHONE, Seat
from tests.browser.test_history import seated_table, show, until

pytestmark = pytest.mark.django_db(transaction=True)

def moves_left(state: dict) -> int:
    """How many moves the baseline policy (every seat here: alice's own turns included)
    still makes before the hand ends."""
    from baohuang import engine

    count = 0
    while engine.result(state) is None:
        seat = engine.actors(state)[0]
        state, _ = engine.apply(state, {**engine.autoplay(state, seat), "seat": seat})
        count += 1
    return count


def in_a_thread(work) -> None:
    """Run ``work`` outside Playwright's event loop (the services' broadcasts need one free)."""
    failed = []

    def run():
        try:
            work()
        except BaseException as error:  # noqa: BLE001 - re-raised below
            failed.append(error)

    thread = threading.Thread(target=run)
    thread.start()
    thread.join(120)
    assert not thread.is_alive() and not failed, failed


FITS = "() => document.scrollingElement.scrollHeight <= innerHeight && document.scrollingElement.scrollWidth <= innerWidth"


def test_sheet_lines_room_settings_and_replays_on_a_phone(browser, server, seats_to_close):
    from rooms.models import Player
    from rooms.services import seat_leave
    from rooms.models import Hand
    from rooms.tests.play import step

    alice = Seat(browser, server.url, "alice", viewport=PHONE)
    seats_to_close.append(alice)
    alice.become_guest()
    room, hand = seated_table(alice, "qingdao")
    for _ in range(5):
        step(hand.pk)
    seat_leave(room_id=room.pk, player=Player.objects.get(display_name="bob"))
    last = 3
    for _ in range(moves_left(Hand.objects.get(pk=hand.pk).state) - last):
        step(hand.pk)
    show(alice, room.pk)
    in_a_thread(lambda: until(hand.pk, lambda h: not h.running))
    ended = Hand.objects.get(pk=hand.pk)
    converted = TributeDebt.objects.filter(hand=ended, status=TributeDebt.Status.CONVERTED).count()
    assert converted  # a seat under 托管 at the end dissolves the room: every debt became points

    # The sheet, live: bob's −40 and each debt turned into points, each a line of its own.
    sheet = alice.page.locator("#score-sheet")
    expect(sheet).to_be_visible()
    leave = sheet.locator("#ledger-lines li[data-kind=leave_penalty]")
    expect(leave).to_have_count(1)
    expect(leave).to_contain_text("bob")
    expect(leave).to_contain_text("强退")
    expect(leave).to_contain_text("-40")
    expect(sheet.locator("#ledger-lines li[data-kind=tribute_points]")).to_have_count(converted)
    expect(sheet.locator("#ledger-lines li[data-kind=tribute_points]").first).to_contain_text("每张折 1 分")
    alice.screenshot("sheet-leave-and-tribute-lines")
    # The hand just ended joins the room panel's replays on the open page.
    sheet.locator("[data-action=close-sheet]").click()
    alice.page.click("#menu summary")
    alice.page.click("#room-info-button")
    expect(alice.page.locator(f"#room-hands li[data-hand='{ended.pk}']")).to_have_count(1)
    expect(alice.page.locator("#room-hands li.empty")).to_have_count(0)

    # The room panel, from the bar's menu (the page loaded again): the settings, and the
    # replay of the hand.
    alice.page.reload()
    # The dissolved room closes the socket for good: the page says so, and does not
    # pretend to be reconnecting.
    expect(alice.page.locator("#conn")).to_have_class("conn closed")
    expect(alice.page.locator("#offline-banner")).to_have_count(0)
    alice.page.click("#menu summary")
    alice.page.click("#room-info-button")
    panel = alice.page.locator("#room-info")
    expect(panel).to_be_visible()
    expect(panel.locator("[data-option=preset] dd")).to_have_text("青岛保皇")
    expect(panel.locator("[data-option=card_counter] dd")).to_have_text("开")
    expect(panel.locator("[data-option=timer_play] dd")).to_have_text("20 秒")
    expect(panel.locator("[data-option=hold_sixes]")).to_have_count(0)  # qingdao has no 憋6
    assert alice.page.evaluate(FITS), "the room panel made the page scroll"
    alice.screenshot("room-settings-panel")
    panel.locator(f"#room-hands li[data-hand='{ended.pk}'] a").click()
    expect(alice.page.locator("#replay")).to_have_attribute("data-at", "0")
