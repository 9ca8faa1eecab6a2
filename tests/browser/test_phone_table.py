"""The table on a phone, in landscape and on a desktop, in a real Chromium: everything
needed to play is on one screen, the marks are never covered, and the traps of the old
table are gone (swipe-select, 要不起, 抢庄's confirmation, 取消托管, the offline banner).

One human against four bots (a real Celery worker). Screenshots land in artifacts/.
"""

import random

import pytest
from playwright.sync_api import expect

from tests.browser.driver import Game, Seat

PHONE = {"width": 375, "height": 812}
LANDSCAPE = {"width": 812, "height": 375}
DESKTOP = {"width": 1366, "height": 768}
VIEWPORTS = {"phone": PHONE, "landscape": LANDSCAPE, "desktop": DESKTOP}

# What must lie inside the viewport, measured in the page: the hand's cards, the top set,
# every action button shown; and whether the page scrolls at all.
FITS_JS = """() => {
  const inside = (node) => { const r = node.getBoundingClientRect();
    return r.width > 0 && r.left >= -0.5 && r.top >= -0.5 && r.right <= innerWidth + 0.5 && r.bottom <= innerHeight + 0.5; };
  const shown = (node) => node.offsetParent !== null;
  const out = (selector) => [...document.querySelectorAll(selector)].filter(shown).filter((n) => !inside(n))
    .map((n) => `${selector}: ${n.dataset.action || n.dataset.card || n.className}`);
  return {scroll: document.scrollingElement.scrollHeight, height: innerHeight,
          scrollWidth: document.scrollingElement.scrollWidth, width: innerWidth,
          bar: document.querySelector(".table-bar").getBoundingClientRect().height,
          cards: document.querySelectorAll("#hand .card").length,
          outside: [...out("#hand .card .face"), ...out("#top-set"), ...out("#controls button"), ...out("#prompt button"),
                    ...out(".seat")]};
}"""

# Each marked card's stamp must be the topmost element at its own centre.
STAMPS_JS = """() => [...document.querySelectorAll(".card .stamp")].filter((s) => s.offsetParent !== null).map((stamp) => {
  const r = stamp.getBoundingClientRect();
  const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
  return {card: stamp.closest(".card").dataset.card, top: hit === stamp || stamp.contains(hit),
          hit: hit ? hit.className : null};
})"""

# A 44-card hand holding every marked card, drawn by the page from a view of its own:
# only the drawing is tested here (the real hand's marks are checked above).
MARKED_HAND = ("BJ* BJ BJ SJ SJ 2S 2H 2C AS AH AD KS KH KC QS QH QD JS JH JC TS TH TD 9S 9H 9D "
               "8S 8H 8D 7S 7H 7D 6S 6H 6D 5S 5H 5D 4H* 4S 4C 3S 3H 3D").split()


def wait_for_my_follow(human: Seat, game: Game, *, timeout: float = 180) -> None:
    """Click the human through the hand (bots play the rest) until it must answer a set."""
    page = human.page
    import time

    until = time.monotonic() + timeout
    while time.monotonic() < until:
        now = page.evaluate("""() => { const h = window.bhTable.store.hand; const v = h && h.view;
          return {following: Boolean(v && v.phase === 'playing' && v.table.top && v.actors.includes(v.seat)
                  && window.bhTable.store.hand.running), pending: Boolean(window.bhTable.store.pending)}; }""")
        if now["following"] and not now["pending"]:
            return
        game.step()
        page.wait_for_timeout(20)
    raise AssertionError("the human never had a set to answer")


def check_fits(human: Seat, name: str, viewport: dict) -> None:
    page = human.page
    page.set_viewport_size(viewport)
    page.wait_for_function("([w, h]) => innerWidth === w && innerHeight === h", arg=[viewport["width"], viewport["height"]])
    page.evaluate("() => window.bhTable.render()")
    fits = page.evaluate(FITS_JS)
    human.screenshot(f"fit-{name}")
    assert fits["scroll"] <= fits["height"], f"{name}: the page scrolls ({fits['scroll']} > {fits['height']})"
    assert fits["scrollWidth"] <= fits["width"], f"{name}: the page scrolls sideways"
    assert fits["bar"] <= 52, f"{name}: the header is more than one line ({fits['bar']} px)"
    assert fits["cards"] > 0
    assert not fits["outside"], f"{name}: outside the viewport: {fits['outside']}"
    stamps = page.evaluate(STAMPS_JS)
    assert all(stamp["top"] for stamp in stamps), f"{name}: a stamp is covered: {stamps}"


@pytest.mark.parametrize("preset", ["classic", "lianzhong", "qingdao"])
@pytest.mark.django_db(transaction=True)
def test_a_running_hand_fits_each_screen_without_scrolling(browser, server, bot_worker, seats_to_close, preset):
    human = Seat(browser, server.url, "阿强81", viewport=PHONE)
    seats_to_close.append(human)
    human.become_guest()
    human.create_room(preset, bots=4, pause=0)
    human.click("[data-action=start]")
    expect(human.page.locator("#table")).to_have_attribute("data-running", "1")
    game = Game([human], rng=random.Random(3), name=preset)
    wait_for_my_follow(human, game)
    for name, viewport in VIEWPORTS.items():
        check_fits(human, f"{preset}-{name}", viewport)

    # The drawing of the marks, on a full 44-card hand with every marked card in it.
    human.page.evaluate("""(cards) => { const {store, render} = window.bhTable;
      store.hand.view = {...store.hand.view, hand: cards}; render(); }""", MARKED_HAND)
    for name, viewport in VIEWPORTS.items():
        check_fits(human, f"{preset}-{name}-marked", viewport)
        assert human.page.locator("#hand .card .stamp").count() == 2  # BJ* and 4H*
        rows = human.page.locator("#hand .hand-row").count()
        assert rows <= 2, f"{name}: the 44-card hand takes {rows} rows"
    assert not [line for line in human.console if line.startswith("pageerror")]
