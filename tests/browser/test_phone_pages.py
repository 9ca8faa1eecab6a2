"""The pages around the table on a phone, in a real Chromium: the lobby, the rules, the
leaderboard, a player's page, a replay and the score sheet fit the screen's width in both
languages, with the longest names a player can give, and the pages pass the accessibility
check at 320 px. (In English the leaderboard ran 81 px
past a 320 px screen, and with a 20-letter name the player's page and the replay scrolled
sideways even at 390 px; a list's visually hidden column name, positioned past the screen's
edge, did too in one run of five.)"""

import pytest
from playwright.sync_api import expect

from tests.browser.driver import PHONE, Seat, axe_violations

WIDTHS = (320, 360, 390)
PRESETS = ("classic", "lianzhong", "qingdao", "lianzhong_classic")
LONG_NAME = "Alexandrina_Kowalska"  # a nickname's 20 letters, no place to break
LONG_ROOM = "Wednesday_evening_table_of_the_Kowalski_family"

# Whether the page scrolls sideways, and every list that runs past the screen's edge
# without a box of its own to scroll it in (its columns would be out of reach).
WIDTH_JS = """() => {
  const past = (node) => node.getBoundingClientRect().right > innerWidth + 0.5;
  const scrolls = (box) => box && getComputedStyle(box).overflowX === "auto" && box.scrollWidth > box.clientWidth;
  return {page: document.scrollingElement.scrollWidth, width: innerWidth,
          cut: [...document.querySelectorAll("table.list")].filter(past)
            .filter((table) => !scrolls(table.closest(".table-scroll"))).map((table) => table.className),
          // what makes the page wider: outside a list's box, or positioned out of it
          wide: [...document.querySelectorAll("body *")].filter(past)
            .filter((node) => !node.closest(".table-scroll") || getComputedStyle(node).position === "absolute")
            .slice(0, 5).map((node) => `${node.tagName}.${node.className}`)};
}"""

# The score sheet's right edge, its lists that run past it with nothing to scroll them, and
# the roles' cells that break a role over two lines (more lines than roles).
SHEET_JS = """() => { const sheet = document.getElementById("score-sheet"), edge = sheet.getBoundingClientRect().right;
  const scrolls = (box) => box && getComputedStyle(box).overflowX === "auto" && box.scrollWidth > box.clientWidth;
  const lines = (node) => { const words = document.createRange(); words.selectNodeContents(node);
    return new Set([...words.getClientRects()].map((r) => Math.round(r.top))).size; };
  return {right: edge, cut: [...sheet.querySelectorAll("table")].filter((t) => t.getBoundingClientRect().right > edge + 0.5)
    .filter((t) => !scrolls(t.parentElement)).map((t) => t.className),
    broken: [...sheet.querySelectorAll("td.roles")].filter((td) => td.textContent)
      .filter((td) => lines(td) > td.textContent.split(/、|, /).length).map((td) => td.textContent)}; }"""

# The cells of a player's row of the leaderboard that lie inside the screen.
ROW_JS = """(name) => [...[...document.querySelectorAll("table.board tbody tr")].find((tr) => tr.textContent.includes(name)).cells]
  .filter((td) => td.getBoundingClientRect().right <= innerWidth + 0.5).map((td) => td.textContent.trim())"""


@pytest.mark.django_db(transaction=True)
def test_the_pages_around_the_table_fit_a_phone_in_both_languages(browser, server, bot_worker, seats_to_close):
    player = Seat(browser, server.url, LONG_NAME, viewport=PHONE)
    seats_to_close.append(player)
    player.become_guest()
    player.create_room("qingdao", bots=4, pause=0)
    player.click("[data-action=ready]")  # the bots always are
    expect(player.page.locator("#table")).to_have_attribute("data-running", "1")
    player.click("#controls [data-action=trustee]")  # 托管 plays the hand out
    expect(player.page.locator("#table")).to_have_attribute("data-running", "0", timeout=120_000)
    replay = player.page.locator("a[href^='/hands/']").first.get_attribute("href")
    expect(player.page.locator("#score-sheet")).to_be_visible()  # the score sheet, with the long name in it
    for width in WIDTHS:
        player.page.set_viewport_size({"width": width, "height": 700})
        player.screenshot(f"pages-score-sheet-{width}")
        sheet = player.page.evaluate(SHEET_JS)
        assert sheet["right"] <= width + 0.5 and not sheet["cut"], f"the score sheet at {width} px: {sheet}"
        assert not sheet["broken"], f"the score sheet at {width} px breaks a role over two lines: {sheet['broken']}"

    host = Seat(browser, server.url, "Bartholomew_Zielinsk", viewport=PHONE)  # an open room in the lobby's list
    seats_to_close.append(host)
    host.become_guest()
    host.create_room("classic", name=LONG_ROOM)

    page = player.page
    page.goto(server.url + "/leaderboard/")
    profile = page.locator("table.board a", has_text=LONG_NAME).get_attribute("href")
    paths = {"lobby": "/", "rules": "/rules/", "leaderboard": "/leaderboard/", "player": profile, "replay": replay,
             **{f"rules-{preset}": f"/rules/{preset}/" for preset in PRESETS}}
    for language in ("zh", "en"):
        if language == "en":
            player.read_in_english()
        for width in WIDTHS:
            page.set_viewport_size({"width": width, "height": 700})
            for name, path in paths.items():
                page.goto(server.url + path)
                expect(page.locator("html")).to_have_attribute("lang", "en" if language == "en" else "zh-hans")
                if name == "replay":  # its last step, with the scores
                    page.click("#replay-last")
                    expect(page.locator("#replay-result")).to_be_visible()
                fits = page.evaluate(WIDTH_JS)
                where = f"{name} at {width} px ({language})"
                if fits["page"] > fits["width"] or fits["cut"]:
                    player.screenshot(f"pages-{language}-{width}-{name}")
                assert fits["page"] <= fits["width"], f"{where}: the page scrolls sideways ({fits['page']} px): {fits['wide']}"
                assert not fits["cut"], f"{where}: a list runs past the screen with nothing to scroll it: {fits['cut']}"
                if width == 320:  # where the lists scroll
                    assert axe_violations(page) == [], f"{where}: the accessibility check"
            page.goto(server.url + "/")
            expect(page.locator("#room-list tr", has_text=LONG_ROOM)).to_be_visible()
            page.goto(server.url + "/leaderboard/")
            shown = page.evaluate(ROW_JS, LONG_NAME)  # rank, name and points, without scrolling the list
            assert len(shown) >= 3 and shown[1] == LONG_NAME, f"leaderboard at {width} px ({language}): {shown}"
    assert not [line for line in player.console if line.startswith("pageerror")]
