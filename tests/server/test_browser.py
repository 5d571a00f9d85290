"""The web client in a real browser: people play by clicks against a real server.

Chromium is driven by Playwright (Debian's ``/usr/bin/chromium``, or ``BURACO_CHROMIUM``).
Without Playwright or Chromium these tests skip, unless ``BURACO_REQUIRE_BROWSER=1``,
when they fail. ``BURACO_SCREENSHOT=docs/online.png`` saves a desktop screenshot of a
table in progress there (``BURACO_SCREENSHOT_PHONE=FILE`` the phone one).
"""

from __future__ import annotations

import contextlib
import itertools
import json
import os
import re
import shutil
import socket
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = os.environ.get("BURACO_CHROMIUM", "/usr/bin/chromium")
REQUIRE = os.environ.get("BURACO_REQUIRE_BROWSER") == "1"


def _missing() -> str | None:
    try:
        import playwright.sync_api  # noqa: F401
        import uvicorn  # noqa: F401

        import buraco.server.app  # noqa: F401
    except ImportError as exc:
        return f"the browser tests need playwright and the server extra ({exc.name} is missing)"
    if not (os.path.isfile(CHROMIUM) or shutil.which(CHROMIUM)):
        return f"no Chromium at {CHROMIUM} (set BURACO_CHROMIUM, or apt-get install chromium)"
    return None


_WHY = _missing()
if _WHY is not None:
    if REQUIRE:
        raise RuntimeError(f"BURACO_REQUIRE_BROWSER=1: {_WHY}")
    pytest.skip(_WHY, allow_module_level=True)

import uvicorn  # noqa: E402
from playwright.sync_api import Browser, Page, Playwright, expect, sync_playwright  # noqa: E402
from playwright.sync_api import TimeoutError as PlaywrightTimeout  # noqa: E402

from buraco.server import i18n  # noqa: E402
from buraco.server.app import create_app  # noqa: E402
from buraco.server.settings import Settings  # noqa: E402

DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 360, "height": 740}
TIMEOUT = 30_000
"""Milliseconds a step may take before a test fails (a 2-core machine under load)."""


# ----- the server and the browser ------------------------------------------------------------
@pytest.fixture(scope="module")
def base_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A real server (uvicorn in a thread) on a free loopback port, bots in threads."""
    settings = Settings(
        data_dir=tmp_path_factory.mktemp("browser"),
        bot_workers=0,
        hand_pause=0.0,
        messages_per_second=1000.0,
        max_tables_per_guest=20,
        guests_per_address="100000/minute",
        # the page's rated flow with a guest's conceded match (the rules of rated play,
        # accounts and turns played, are test_ratings')
        rated_guests=True,
        rated_min_turns=0,
    )
    with serve(settings) as url:
        yield url


@contextlib.contextmanager
def serve(settings: Settings) -> Iterator[str]:
    """Run the app with these settings in a thread; yields its address."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(create_app(settings), log_level="warning"))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        if not thread.is_alive() or time.monotonic() > deadline:
            raise RuntimeError("the server did not start")
        time.sleep(0.05)
    yield f"http://127.0.0.1:{port}/"
    server.should_exit = True
    thread.join(15)
    sock.close()


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    pw: Playwright
    with sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        yield b
        b.close()


@pytest.fixture
def open_page(browser: Browser, base_url: str) -> Iterator[Callable[..., Page]]:
    """Opens a page in a new browser context (a person of their own), closed after the test."""
    contexts = []

    def make(viewport: dict[str, int] = DESKTOP, **kw: Any) -> Page:
        ctx = browser.new_context(viewport=viewport, base_url=base_url, **kw)  # type: ignore[arg-type]
        ctx.set_default_timeout(TIMEOUT)
        contexts.append(ctx)
        page = ctx.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.errors = errors  # type: ignore[attr-defined]
        return page

    yield make
    for ctx in contexts:
        for page in ctx.pages:
            assert page.errors == [], page.errors  # type: ignore[attr-defined]
        ctx.close()


# ----- what a person does ---------------------------------------------------------------------
def sign_in(page: Page, name: str) -> None:
    """Open the lobby and choose a name."""
    page.goto("/")
    page.fill("#name", name)
    page.click("#name-submit")
    expect(page.locator("#me")).to_have_text(f"Playing as {name}")
    expect(page.locator("#f-preset")).to_be_visible()


def create_table(
    page: Page, seats: list[str], preset: str = "aberto", timer: int = 0, **options: str
) -> str:
    """Fill in the lobby's form: seats (``me``, ``open``, ``invite`` or a bot spec), options."""
    page.select_option("#f-preset", preset)
    page.select_option("#f-timer", str(timer))
    page.select_option("#f-players", str(len(seats)))
    for i, seat in enumerate(seats):
        kind = seat if seat in ("me", "open", "invite") else "bot"
        page.select_option(f"#f-seat-{i}", kind)
        if kind == "bot":
            page.fill(f"#f-bot-{i}", seat)
    page.fill("#f-pace", "0")
    if options:
        page.click("#f-options summary")
        for name, value in options.items():
            page.fill(f"#f-opt-{name}", value)
    page.click("#create")
    page.wait_for_url(re.compile(r"#/table/"))
    found = re.search(r"#/table/([^?]+)", page.url)
    assert found
    expect(page.locator("#board")).not_to_be_empty()
    return found.group(1)


def hand(page: Page) -> list[str]:
    """The cards of the page's hand, as the page shows them (rank and suit)."""
    return [c.strip() for c in page.locator(".hand .card").all_inner_texts()]


def wait_my_draw(page: Page) -> None:
    """Until it is this page's turn to draw (bots play the other seats)."""
    expect(page.locator("#whose")).to_contain_text("Your turn: draw", timeout=30_000)


def draw_and_discard(page: Page, *, tap: bool = False) -> None:
    """One turn by clicks (or taps): draw, select the first card, discard it."""
    press = page.tap if tap else page.click
    before = len(hand(page))
    press("#act-draw")
    expect(page.locator("#whose")).to_contain_text("meld, add or discard")
    expect(page.locator(".hand .card")).to_have_count(before + 1)
    card = page.locator(".hand .card").first
    if tap:
        card.tap()
    else:
        card.click()
    expect(page.locator('.hand .card[aria-pressed="true"]')).to_have_count(1)
    press("#act-discard")
    # the discard ends the turn (bots at pace 0 may bring it round again at once)
    expect(page.locator(".hand .card")).to_have_count(before)
    expect(page.locator("#whose")).not_to_contain_text("meld, add or discard")


def ask_rematch(page: Page, table: str) -> None:
    """Ask for a rematch and wait for its table; a click that lands as the page redraws (a
    bot's move, the reveal) is lost, so it is clicked again."""

    def left(url: str) -> bool:
        return "#/table/" in url and table not in url

    for _ in range(3):
        if left(page.url):
            break
        if page.locator("#rematch").count():
            page.click("#rematch")
        with contextlib.suppress(PlaywrightTimeout):
            page.wait_for_url(left, timeout=10_000)
    page.wait_for_url(left)


def assert_accessible(page: Page, where: str) -> None:
    """No serious or critical accessibility violation on the page (axe-core)."""
    from axe_playwright_python.sync_playwright import Axe

    found = Axe().run(page).response["violations"]
    bad = [
        (v["id"], v["help"], [n["target"] for n in v["nodes"]][:3])
        for v in found
        if v["impact"] in ("serious", "critical")
    ]
    assert bad == [], f"{where}: {bad}"


def save_screenshot(page: Page, env: str) -> None:
    path = os.environ.get(env)
    if path:
        Path(path).parent.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=path)


# ----- tests ----------------------------------------------------------------------------------
def test_two_people_and_two_bots_play_a_hand_by_clicks(open_page: Callable[..., Page]) -> None:
    ana, bia = open_page(), open_page()
    sign_in(ana, "Ana")
    table = create_table(ana, ["me", "heuristic", "open", "heuristic"], match_hands="1")
    expect(ana.locator("#wait-h")).to_have_text("Waiting for players")

    sign_in(bia, "Bia")
    expect(bia.locator(f'#tables a.join[href="#/table/{table}"]')).to_be_visible()
    bia.click(f'#tables a.join[href="#/table/{table}"]')
    bia.click('[data-key="sit-2"]')
    for page in (ana, bia):  # every seat is taken: the hand is dealt to both
        expect(page.locator(".hand .card")).to_have_count(11)
    expect(ana.locator(".seat.mine")).to_contain_text("Ana (you)")
    # around the table from each one's place: you at the bottom, your partner opposite
    expect(ana.locator(".ring .seat.at-b")).to_contain_text("Ana (you)")
    expect(ana.locator(".ring .seat.at-t")).to_contain_text("Bia")
    expect(ana.locator(".ring .seat.at-t")).to_contain_text("partner")
    expect(bia.locator(".ring .seat.at-b")).to_contain_text("Bia (you)")
    expect(bia.locator(".ring .seat.at-t")).to_contain_text("Ana")
    expect(bia.locator(".seat.mine")).to_contain_text("Bia (you)")
    assert hand(ana) != hand(bia)

    # chat is text, never markup
    ana.fill("#chat-text", "<b>boa sorte</b>")
    ana.press("#chat-text", "Enter")
    expect(bia.locator("#chat")).to_contain_text("Ana: <b>boa sorte</b>")
    assert bia.locator("#chat b").count() == 0

    turns = 0
    shot = False
    deadline = time.monotonic() + 150
    while ana.locator("#hand-over").count() == 0 or bia.locator("#hand-over").count() == 0:
        assert time.monotonic() < deadline, "the hand did not end"
        moved = False
        for page in (ana, bia):
            if page.locator("#hand-over").count() == 0 and page.locator("#stock:enabled").count():
                if page is ana and turns >= 10 and not shot:
                    save_screenshot(ana, "BURACO_SCREENSHOT")  # Ana's turn, mid-hand
                    assert_accessible(ana, "a table mid-hand")
                    shot = True
                draw_and_discard(page)
                assert len(hand(page)) == 11
                turns += 1
                moved = True
        if not moved:
            time.sleep(0.05)
    assert turns >= 4

    for page in (ana, bia):
        over = page.locator("#hand-over")
        expect(over.locator("#over-h")).to_have_text("Match over")
        expect(over.locator("#ended")).to_have_text(
            re.compile(
                r"^(.+ went out\.|The stock ran out\.|No one could draw: the hand is over\.)$"
            )
        )
        expect(over).to_contain_text("hand total")
        expect(over.locator("#hands-table tbody tr")).to_have_count(1)
        expect(over.locator(".winner")).to_contain_text("match")
        expect(over).to_contain_text("Cards left in hand")
    assert_accessible(ana, "the end of a match")
    record = ana.locator("#hand-over a", has_text="Download the game record")
    expect(record).to_be_visible()
    data = json.loads(ana.request.get(str(record.get_attribute("href"))).text())
    assert data["format"] == "buraco-record"
    assert data["names"][0] == "Ana" and data["names"][2] == "Bia"
    assert len(data["hands"]) == 1
    seats_played = {seat for seat, _ in data["hands"][0]["actions"]}
    assert seats_played == {0, 1, 2, 3}

    # a rematch: offered to Bia, who accepts; then both are dealt in at the new table
    ask_rematch(ana, table)
    expect(ana.locator("#wait-h")).to_be_visible()
    expect(ana.locator(".seat-list")).to_contain_text("Bia: asked to the rematch, no answer yet")
    expect(bia.locator("#rematch-offer")).to_contain_text("A rematch is offered")
    bia.click("#rematch-accept")
    bia.wait_for_url(lambda url: "#/table/" in url and table not in url)
    expect(ana.locator(".hand .card")).to_have_count(11, timeout=30_000)
    expect(bia.locator(".hand .card")).to_have_count(11)
    bia.goto(f"/#/table/{table}")  # the old table leads to the new one
    expect(bia.locator("#go-rematch")).to_be_visible()

    # the replay of the finished game, stepped by clicks and keys
    bia.click("#hand-over a:has-text('Replay it')")
    expect(bia.locator("#r-where")).to_contain_text("move 0 of")
    expect(bia.locator(".replay-hands > div")).to_have_count(4)
    expect(bia.locator(".replay-hands > div").first.locator(".card")).to_have_count(11)
    bia.click("#r-next")
    expect(bia.locator("#r-where")).to_contain_text("move 1 of")
    bia.keyboard.press("End")
    steps = len(data["hands"][0]["actions"])
    expect(bia.locator("#r-where")).to_contain_text(f"move {steps} of {steps}")
    expect(bia.locator(".felt")).to_contain_text("Hand over")
    bia.goto("/#/?games=mine")
    expect(bia.locator("#games-h ~ table tbody tr")).to_have_count(1)


def test_a_refused_move_shows_the_reason_and_changes_nothing(
    open_page: Callable[..., Page],
) -> None:
    page = open_page()
    sign_in(page, "Caio")
    create_table(page, ["me", "heuristic", "heuristic", "heuristic"])
    wait_my_draw(page)
    cards = hand(page)
    page.keyboard.press("x")  # before drawing, nothing selected: the draw is missing
    expect(page.locator("#reason")).to_contain_text("Draw from the stock or take the pile")
    page.locator(".hand .card").nth(3).click()
    page.click("#act-discard")  # before drawing
    expect(page.locator("#reason")).to_contain_text("start your turn by drawing")
    assert hand(page) == cards
    expect(page.locator("#whose")).to_contain_text("Your turn: draw")

    # the same turn by keys: d draws, Enter selects the focused card, x discards
    page.keyboard.press("Escape")
    expect(page.locator('.hand .card[aria-pressed="true"]')).to_have_count(0)
    page.keyboard.press("d")
    expect(page.locator("#whose")).to_contain_text("meld, add or discard")
    expect(page.locator("#reason")).to_be_empty()
    # 045 §Defects: a selection that makes no meld says so (the hint used to say "Meld them");
    # Meld then gives the engine's reason and changes nothing
    codes = [c.get_attribute("data-card") or "" for c in page.locator(".hand .card").all()]
    for i, code in enumerate(no_meld_in(codes)):
        page.locator(f'.hand .card[data-card="{code}"][aria-pressed="false"]').first.click()
        if i == 1 and not page.locator(".meld.fits").count():
            expect(page.locator("#hint")).to_have_text(
                "A meld takes at least three cards; or select one card to discard."
            )
    if not page.locator(".meld.fits").count():
        expect(page.locator("#hint")).to_contain_text("These cards make no meld")
    page.click("#act-meld")
    expect(page.locator("#reason")).not_to_be_empty()
    assert len(hand(page)) == 12
    page.keyboard.press("Escape")
    page.locator(".hand .card").first.focus()
    page.keyboard.press("ArrowRight")
    page.keyboard.press("Enter")
    expect(page.locator('.hand .card[aria-pressed="true"]')).to_have_count(1)
    assert page.locator(".hand .card").nth(1).get_attribute("aria-pressed") == "true"
    page.keyboard.press("x")
    expect(page.locator(".hand .card")).to_have_count(11)
    expect(page.locator("#whose")).not_to_contain_text("meld, add or discard")


def test_a_hint_says_what_the_bot_would_play_and_selects_its_cards(
    open_page: Callable[..., Page],
) -> None:
    page = open_page()
    sign_in(page, "Iara")
    create_table(page, ["me", "heuristic", "heuristic", "heuristic"])
    wait_my_draw(page)
    page.click("#act-hint")
    expect(page.locator("#reason")).to_have_text(re.compile(r"^Hint: (draw|take the pile)\.$"))
    page.click("#act-draw")
    expect(page.locator("#whose")).to_contain_text("meld, add or discard")
    page.keyboard.press("h")
    expect(page.locator("#reason")).to_contain_text("Hint: ")
    hinted = page.locator("#reason").inner_text()
    if "discard " in hinted:  # the card to discard is selected, ready for the button
        expect(page.locator('.hand .card[aria-pressed="true"]')).to_have_count(1)


def test_a_reload_restores_the_seat_and_the_view(open_page: Callable[..., Page]) -> None:
    page = open_page()
    sign_in(page, "Duda")
    table = create_table(page, ["heuristic", "me", "heuristic", "heuristic"])
    page.click("#four-colour")
    wait_my_draw(page)
    cards = hand(page)
    labels = page.locator(".hand .card").first.get_attribute("aria-label")
    page.reload()
    expect(page.locator(".seat.mine")).to_contain_text("Duda (you)")
    expect(page.locator(".hand .card")).to_have_count(len(cards))
    assert hand(page) == cards
    assert page.locator(".hand .card").first.get_attribute("aria-label") == labels
    expect(page.locator("#whose")).to_contain_text("Your turn: draw")
    assert table in page.url
    assert page.locator("#four-colour").is_checked()
    assert "four" in str(page.locator("body").get_attribute("class"))
    draw_and_discard(page)  # and play goes on from the restored view


def test_the_socket_drops_and_the_page_reconnects(open_page: Callable[..., Page]) -> None:
    page = open_page()
    sockets: list[Any] = []

    def route(ws: Any) -> None:
        ws.connect_to_server()
        sockets.append(ws)

    page.route_web_socket(re.compile(r"/ws/tables/"), route)
    sign_in(page, "Elis")
    create_table(page, ["me", "heuristic", "heuristic", "heuristic"])
    wait_my_draw(page)
    cards = hand(page)
    assert len(sockets) == 1
    sockets[0].close()
    expect(page.locator("#conn")).to_contain_text("reconnecting")
    expect(page.locator("#conn")).to_be_empty()
    assert len(sockets) == 2
    assert "since=" in sockets[1].url
    assert hand(page) == cards
    draw_and_discard(page)


def test_a_spectator_sees_no_hand(open_page: Callable[..., Page]) -> None:
    player, watcher = open_page(), open_page()
    sign_in(player, "Fabi")
    table = create_table(player, ["me", "heuristic", "heuristic", "heuristic"])
    wait_my_draw(player)
    watcher.goto(f"/#/table/{table}")
    expect(watcher.locator(".felt .ring .seat")).to_have_count(4)
    expect(watcher.locator(".watching")).to_contain_text("hands are hidden")
    expect(watcher.locator(".ring .seat .backs").first).to_have_attribute(
        "aria-label", re.compile(r"^\d+ cards$")
    )
    assert watcher.locator(".hand").count() == 0
    assert watcher.locator("#act-draw").count() == 0
    assert watcher.locator("button.card").count() == 0


def test_a_phone_plays_a_turn(open_page: Callable[..., Page]) -> None:
    page = open_page(PHONE, has_touch=True, is_mobile=True)
    sign_in(page, "Gil")
    create_table(page, ["me", "heuristic", "heuristic", "heuristic"])
    wait_my_draw(page)
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    draw_and_discard(page, tap=True)
    expect(page.locator(".hand .card")).to_have_count(11)
    wait_my_draw(page)
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    box = page.locator(".hand").bounding_box()
    assert box is not None and box["x"] + box["width"] <= PHONE["width"]
    save_screenshot(page, "BURACO_SCREENSHOT_PHONE")


SIZES = [(360, 740), (390, 844), (740, 360), (1280, 800), (1920, 1080)]
"""Phones upright and on their side, and desktops: a whole turn is played at each."""

PLAY_PARTS = """() => {
  const box = (e) => {
    const r = e.getBoundingClientRect();
    return {x: r.x, y: r.y, w: r.width, h: r.height};
  };
  const shown = (e) => !!e && e.getClientRects().length > 0;
  const parts = {};
  for (const e of document.querySelectorAll(".ring > .seat")) {
    if (shown(e)) parts[`seat ${e.dataset.seat}`] = box(e);
  }
  const named = [["stock", "#stock"], ["pile", "#pile"], ["hand", ".hand"],
    ["actions", ".actions"], ["melds", ".table-side > .sides"]];
  for (const [name, sel] of named) {
    const e = document.querySelector(sel);
    parts[name] = shown(e) ? box(e) : null;
  }
  return {parts, cards: [...document.querySelectorAll(".hand .card")].map(box),
    width: innerWidth, height: innerHeight,
    scrollWidth: document.documentElement.scrollWidth};
}"""


def assert_turn_fits(page: Page, size: tuple[int, int]) -> None:
    """During your turn: the seats, stock, pile, hand, melds and actions apart; the stock,
    the pile, the hand (every card) and the actions on the screen; nothing wider than it."""
    page.set_viewport_size({"width": size[0], "height": size[1]})
    page.wait_for_function(f"innerWidth === {size[0]} && innerHeight === {size[1]}")
    page.wait_for_timeout(50)  # the page refits on the resize event
    got = page.evaluate(PLAY_PARTS)
    parts, width, height = got["parts"], got["width"], got["height"]
    where = f"{size[0]}x{size[1]}"
    assert None not in parts.values(), f"{where}: not shown: {parts}"
    assert got["scrollWidth"] <= width, f"{where}: the page is {got['scrollWidth']} wide"
    names = list(parts)
    for i, a in enumerate(names):
        for b in names[i + 1 :]:
            p, q = parts[a], parts[b]
            across = min(p["x"] + p["w"], q["x"] + q["w"]) - max(p["x"], q["x"])
            down = min(p["y"] + p["h"], q["y"] + q["h"]) - max(p["y"], q["y"])
            assert across <= 0.5 or down <= 0.5, f"{where}: {a} {p} overlaps {b} {q}"
    for name in ("stock", "pile", "hand", "actions"):
        p = parts[name]
        inside = p["x"] >= -0.5 and p["y"] >= -0.5
        assert inside and p["x"] + p["w"] <= width + 0.5 and p["y"] + p["h"] <= height + 0.5, (
            f"{where}: the {name} {p} is not all on the {width}x{height} screen"
        )
    hand, cards = parts["hand"], got["cards"]
    for card in cards:  # each card inside the hand, its corner (rank and suit) uncovered
        assert hand["x"] - 0.5 <= card["x"] and card["x"] + card["w"] <= hand["x"] + hand["w"] + 0.5
    steps = [b["x"] - a["x"] for a, b in itertools.pairwise(cards) if b["y"] == a["y"]]
    assert steps and min(steps) >= 18, f"{where}: cards {min(steps, default=0):.0f} px apart"
    assert len({round(c["y"]) for c in cards}) == (1 if len(cards) <= 15 else 2), where


@pytest.mark.parametrize("locale", ["pt-BR", "es", "it", "en"])
def test_a_whole_turn_fits_the_screen_at_each_size(
    open_page: Callable[..., Page], locale: str
) -> None:
    # 045 §Phone first: stock, pile, hand and actions in view; seats and melds apart
    playing, to_draw, to_play, _melded, _added = LANGUAGES[locale]
    page = open_page(PHONE, has_touch=True, is_mobile=True, locale=locale)
    page.goto("/")
    page.fill("#name", "Rui")
    page.click("#name-submit")
    expect(page.locator("#me")).to_have_text(f"{playing} Rui")
    create_table(page, ["me", "greedy", "greedy", "greedy"])
    own = page.locator(".side.own .meld")
    for turn in range(12):
        expect(page.locator("#whose")).to_contain_text(to_draw, timeout=30_000)
        if turn == 0:
            for size in SIZES:  # the draw: the stock and the pile in reach
                assert_turn_fits(page, size)
            page.set_viewport_size({"width": PHONE["width"], "height": PHONE["height"]})
        page.tap("#stock")
        expect(page.locator("#whose")).to_contain_text(to_play)
        codes = [c.get_attribute("data-card") or "" for c in page.locator(".hand .card").all()]
        found = a_meld_in(codes)
        if found is not None and not own.count():
            for code in found[0]:
                page.locator(f'.hand .card[data-card="{code}"][aria-pressed="false"]').first.tap()
            page.tap("#act-meld")
            if page.locator("#choices").count():
                page.locator("#choices button[data-action]").first.tap()
            expect(own).to_have_count(1)
        if own.count() or turn == 11:
            for size in SIZES:  # after a meld: the melds in their place, the hand and discard
                assert_turn_fits(page, size)
            page.set_viewport_size({"width": PHONE["width"], "height": PHONE["height"]})
            return
        discard_least_useful(page, to_play)
    pytest.fail("the turns ran out")


def test_a_rules_error_is_shown_beside_its_field(open_page: Callable[..., Page]) -> None:
    page = open_page()
    sign_in(page, "Hugo")
    page.click("#f-options summary")
    page.fill("#f-opt-hand_size", "31")
    page.click("#create")
    # the engine's refusal as data, worded by the page: the option by its label
    expect(page.locator("#err-hand_size")).to_have_text(
        "option “cards dealt to each player”: 31 is out of range; use 2 to 30"
    )
    expect(page.locator("#f-opt-hand_size")).to_be_focused()
    assert "#/table/" not in page.url
    # in Italian, the same refusal in Italian
    page.select_option("#language", "it")
    expect(page.locator("#create-h")).to_have_text("Crea un tavolo")
    if not page.locator("#f-opt-hand_size").is_visible():
        page.click("#f-options summary")
    page.fill("#f-opt-hand_size", "31")
    page.click("#create")
    expect(page.locator("#err-hand_size")).to_have_text(
        "opzione “carte per giocatore”: 31 è fuori intervallo; usa da 2 a 30"
    )
    page.select_option("#language", "en")


def test_options_the_engine_refuses_are_worded_from_what_was_typed(
    open_page: Callable[..., Page],
) -> None:
    # the morto sizes as typed (not a list of None), the pack's size as a count (not cards)
    page = open_page()
    sign_in(page, "Iara")
    page.click("#f-options summary")
    page.fill("#f-opt-pot_sizes", "x,y")
    page.click("#create")
    expect(page.locator("#err-pot_sizes")).to_contain_text("'x,y'")
    assert "None" not in page.locator("#err-pot_sizes").inner_text()
    page.fill("#f-opt-pot_sizes", "")
    page.fill("#f-opt-hand_size", "30")
    page.fill("#f-opt-decks", "1")
    page.click("#create")
    errors = page.locator(".err")
    expect(errors.filter(has_text="54")).to_have_count(1)
    assert not any("is not a function" in e for e in errors.all_inner_texts())
    assert "#/table/" not in page.url


def test_a_friend_sits_by_the_invite_link(open_page: Callable[..., Page]) -> None:
    host, friend, stranger = open_page(), open_page(), open_page()
    sign_in(host, "Iara")
    host.uncheck("#f-public")
    table = create_table(host, ["me", "heuristic", "invite", "heuristic"])
    link = host.input_value("#invite-link")
    assert f"#/table/{table}?invite=" in link
    stranger.goto(link.split("?")[0])  # a private table without its code: not found
    expect(stranger.locator("#not-found")).to_be_visible()
    friend.goto(link)  # no name yet: the friend chooses one at the table, then sits
    expect(friend.locator("#wait-h")).to_be_visible()
    friend.fill("#name", "Juca")
    friend.click("#name-submit")
    friend.click('[data-key="sit-2"]')
    for page in (host, friend):
        expect(page.locator(".hand .card")).to_have_count(11)
    expect(friend.locator(".seat.mine")).to_contain_text("Juca (you)")


def test_a_portuguese_browser_gets_the_table_in_portuguese_and_may_switch(
    open_page: Callable[..., Page],
) -> None:
    page = open_page(locale="pt-BR")  # the browser sends Accept-Language: pt-BR
    page.goto("/")
    expect(page.locator("#name-h")).to_be_visible()
    assert_accessible(page, "the lobby")
    assert page.locator("html").get_attribute("lang") == "pt-BR"
    expect(page.locator("#name-h")).to_have_text("Escolha um nome para jogar")
    page.fill("#name", "Gabi")
    page.click("#name-submit")
    expect(page.locator("#me")).to_have_text("Jogando como Gabi")
    expect(page.locator("#create-h")).to_have_text("Criar uma mesa")
    # the rule options grouped by topic, in Portuguese, with the preset's own words
    page.click("#f-options summary")
    expect(page.locator("fieldset.topic legend").first).to_have_text("As cartas")
    expect(page.locator("fieldset[data-topic=pile] legend")).to_have_text("O lixo")
    expect(page.locator("label[for=f-opt-pile_open]")).to_have_text("lixo aberto")
    expect(page.locator("#help-pile_open")).to_have_text(
        "lixo aberto (todas as cartas à vista) ou fechado (só a de cima)"
    )
    page.select_option("#f-preset", "italiano")
    expect(page.locator("label[for=f-opt-pot_penalty]")).to_have_text(
        "multa pelo pozzetto não pego"
    )
    page.select_option("#f-preset", "aberto")
    expect(page.locator("label[for=f-opt-pot_penalty]")).to_have_text("multa pelo morto não pego")
    # the choices' values in Portuguese too, in the lists and in the preset's default
    aces = page.locator("#f-opt-aces option").all_text_contents()
    assert aces[1:] == ["ambos (A-2-3 e Q-K-A)", "só embaixo (A-2-3)", "só em cima (Q-K-A)"]
    cutter = page.locator("#f-opt-cutter option").first.text_content() or ""
    assert "quem joga primeiro" in cutter, cutter  # the preset's rule, in its words
    shown = " | ".join(
        page.locator("#f-options select option, #f-options [id^=help-]").all_text_contents()
    )
    english = r"\b(both|low|high|any|deuce|clean|required|optional|penalty|finish-turn|at-once"
    assert not re.search(english + r"|previous|first-player|none|pots|deal)\b", shown), shown
    page.click("#f-options summary")
    create_table(page, ["me", "heuristic", "heuristic", "heuristic"])
    expect(page.locator("#whose")).to_contain_text(
        "Sua vez: compre ou pegue o lixo", timeout=30_000
    )
    expect(page.locator("#act-take")).to_contain_text("Pegar o lixo")
    # the rules of the table, from its options, in Portuguese
    page.click("#rules summary")
    expect(page.locator("#rules")).to_contain_text("O lixo é aberto: todas as cartas à vista.")
    expect(page.locator("#rules")).to_contain_text("2 duplas de 2")
    expect(page.locator(".pots")).to_contain_text("morto")
    # the engine's refusal, worded from the Portuguese catalog
    page.locator(".hand .card").first.click()
    page.click("#act-discard")
    expect(page.locator("#reason")).to_have_text(
        "comece a sua vez comprando do monte ou pegando o lixo"
    )
    label = page.locator(".hand .card").first.get_attribute("aria-label") or ""
    assert re.search(r" de (paus|ouros|copas|espadas)$|^coringa$", label), label
    # the move in words, beside the seat and in the feed, and the drawn card marked
    page.click("#act-draw")
    expect(page.locator(".seat.mine .did")).to_contain_text("Gabi comprou ")
    expect(page.locator(".log summary")).to_contain_text("Última jogada: Gabi comprou ")
    expect(page.locator(".hand .card.fresh")).to_have_count(1)
    # another language from the menu: the page at once, and the next visit
    page.select_option("#language", "it")
    expect(page.locator("html")).to_have_attribute("lang", "it")
    expect(page.locator("#whose")).to_contain_text("Tocca a te: cala, attacca o scarta")
    expect(page.locator(".seat.mine .did")).to_contain_text("Gabi ha pescato ")
    expect(page.locator(".pots")).to_contain_text("pozzett")  # pozzetto, pozzetti
    page.reload()
    expect(page.locator("#act-discard")).to_contain_text("Scarta")
    assert page.locator("html").get_attribute("lang") == "it"


def short_opening(codes: list[str]) -> list[str] | None:
    """Three cards of a hand that make a ``us`` meld worth less than the 50 to open."""
    from itertools import combinations

    from buraco.cards import parse_card
    from buraco.melds import TableMeld, shape_of
    from buraco.rules import make_rules

    rules = make_rules("us", players=2)
    for trio in combinations(codes, 3):
        cards = tuple(parse_card(c) for c in trio)
        shape = shape_of(cards, rules)
        if isinstance(shape, TableMeld) and shape.value < 50:
            return list(trio)
    return None


def test_a_discard_that_fails_the_us_opening_says_what_it_costs_first(
    open_page: Callable[..., Page],
) -> None:
    # 004 (us): an opening short of the minimum goes back to the hand, and the minimum
    # rises by 15; the page asks before a discard does that
    page = open_page()
    sign_in(page, "Enzo")
    # two players: no partner opens for you
    create_table(page, ["me", "heuristic"], preset="us")
    for _ in range(20):
        wait_my_draw(page)
        page.click("#act-draw")
        expect(page.locator("#whose")).to_contain_text("meld, add or discard")
        codes = [c.get_attribute("data-card") or "" for c in page.locator(".hand .card").all()]
        trio = short_opening(codes)
        if trio is None or page.locator(".side.own .meld").count():
            draw_and_discard_rest(page)
            continue
        page.fill("#typed", "meld " + " ".join(trio))
        page.press("#typed", "Enter")
        expect(page.locator(".side.own .meld")).to_have_count(1)
        expect(page.locator(".side.own .meld")).to_contain_text("staged")
        held = len(hand(page))
        page.locator(".hand .card").first.click()
        page.click("#act-discard")
        confirm = page.locator("#confirm")
        expect(confirm).to_contain_text("of the 50 points it needs")
        expect(confirm).to_contain_text("raises your side's minimum to 65")
        page.click("#confirm-no")  # nothing sent, nothing changed
        expect(confirm).to_have_count(0)
        assert len(hand(page)) == held
        expect(page.locator(".side.own .meld")).to_have_count(1)
        page.click("#act-discard")
        page.click("#confirm-yes")
        # the staged cards are back in the hand, less the discard
        expect(page.locator(".hand .card")).to_have_count(held + 3 - 1)
        expect(page.locator(".side.own .meld")).to_have_count(0)
        expect(page.locator(".log ol")).to_contain_text("Enzo's opening fell short (")
        return
    pytest.fail("no short opening came up in 20 turns")


def draw_and_discard_rest(page: Page) -> None:
    """Having drawn: discard the first card (a turn that does nothing else)."""
    page.locator(".hand .card").first.click()
    page.click("#act-discard")
    if page.locator("#confirm").count():
        page.click("#confirm-yes")
    expect(page.locator("#whose")).not_to_contain_text("meld, add or discard")


def test_the_hand_is_sorted_and_arranged_by_taps_on_a_phone_and_kept(
    open_page: Callable[..., Page],
) -> None:
    page = open_page(PHONE, has_touch=True, is_mobile=True)
    sign_in(page, "Flor")
    create_table(page, ["me", "heuristic", "heuristic", "heuristic"])
    expect(page.locator(".hand .card")).to_have_count(11)

    def codes() -> list[str]:
        return [c.get_attribute("data-card") or "" for c in page.locator(".hand .card").all()]

    suits = "SHCD"
    page.tap("#sort-suit")
    got = codes()
    order = [suits.index(c[1]) if c != "JK" else 9 for c in got]
    assert order == sorted(order), got
    page.tap("#sort-rank")
    ranks = "3456789TJQKA2"
    got = codes()
    order = [ranks.index(c[0]) if c != "JK" else 99 for c in got]
    assert order == sorted(order), got
    # arranging by taps: the last card, then the first: it goes before it
    page.tap("#arrange")
    before = codes()
    page.locator(".hand .card").last.tap()
    expect(page.locator("#arrange-help")).to_contain_text("Now tap the card it goes before")
    page.locator(".hand .card").first.tap()
    after = [before[-1], *before[:-1]]
    expect(page.locator(".hand .card").first).to_have_attribute("data-card", before[-1])
    assert codes() == after
    assert (
        page.locator('.hand .card[aria-pressed="true"]').count() == 0
    )  # arranging selects nothing
    page.reload()  # the arrangement is kept for the hand
    expect(page.locator(".hand .card")).to_have_count(11)
    assert codes() == after


def test_a_card_is_dragged_to_its_place_with_the_mouse(open_page: Callable[..., Page]) -> None:
    page = open_page()
    sign_in(page, "Gil")
    create_table(page, ["me", "heuristic", "heuristic", "heuristic"])
    expect(page.locator(".hand .card")).to_have_count(11)
    before = [c.get_attribute("data-card") or "" for c in page.locator(".hand .card").all()]
    page.drag_and_drop(".hand .card >> nth=10", ".hand .card >> nth=2")
    expect(page.locator(".hand .card").nth(2)).to_have_attribute("data-card", before[10])
    after = [c.get_attribute("data-card") or "" for c in page.locator(".hand .card").all()]
    assert after == [*before[:2], before[10], *before[2:10]]


def test_the_turn_clock_warns_and_the_page_says_when_the_stand_in_played(
    open_page: Callable[..., Page],
) -> None:
    page = open_page()
    sign_in(page, "Hugo")
    create_table(page, ["me", "heuristic", "heuristic", "heuristic"], timer=30)
    wait_my_draw(page)
    clock = page.locator("#clock")
    expect(clock).not_to_have_class(re.compile(r"\bwarn\b"))
    # 10 seconds before the end of the turn: the warning
    expect(clock).to_have_class(re.compile(r"\bwarn\b"), timeout=35_000)
    expect(clock).to_contain_text("hurry:")
    # the time runs out: the stand-in moves for you, and the page says so
    expect(page.locator("#reason")).to_contain_text(
        "Your time ran out: the stand-in played for you (", timeout=20_000
    )


def test_chat_shows_its_limit_and_unread_lines_and_the_lobby_leads_back_to_your_seat(
    open_page: Callable[..., Page],
) -> None:
    ana = open_page(PHONE, has_touch=True, is_mobile=True)
    bia = open_page()
    sign_in(ana, "Jana")
    sign_in(bia, "Kiko")
    table = create_table(ana, ["me", "open", "heuristic", "heuristic"])
    bia.goto(f"/#/table/{table}")
    bia.click("#board button[data-key='sit-1']")
    expect(ana.locator(".hand .card")).to_have_count(11, timeout=30_000)
    # the limit of a line, as it is typed
    ana.fill("#chat-text", "x" * 400)  # the box takes 300
    expect(ana.locator("#chat-count")).to_have_text("300/300")
    expect(ana.locator("#chat-count")).to_have_class(re.compile(r"\bfull\b"))
    ana.fill("#chat-text", "")
    # on the phone the chat is below the table: a line said meanwhile is marked
    ana.evaluate("window.scrollTo(0, 0)")
    bia.fill("#chat-text", "boa sorte")
    bia.press("#chat-text", "Enter")
    unread = ana.locator("#chat-unread")
    expect(unread).to_have_text("1 new message")
    unread.tap()
    expect(unread).to_be_hidden()
    expect(ana.locator("#chat")).to_contain_text("Kiko: boa sorte")
    # the lobby lists your table first, with the way back to your seat
    ana.goto("/")
    back = ana.locator(f'#tables a.return[href="#/table/{table}"]')
    expect(back).to_have_text("Return to your seat")
    back.tap()
    expect(ana.locator(".seat.mine")).to_contain_text("Jana (you)")


def test_sound_and_notifications_are_off_until_switched_on_and_then_kept(
    open_page: Callable[..., Page],
) -> None:
    quiet = open_page()
    sign_in(quiet, "Mel")
    create_table(quiet, ["me", "heuristic", "heuristic", "heuristic"])
    wait_my_draw(quiet)
    assert quiet.evaluate("document.body.dataset.sounds || '0'") == "0"  # off by default
    page = open_page()
    sign_in(page, "Lia")
    assert not page.locator("#alert-sound").is_checked()
    assert not page.locator("#alert-notify").is_checked()
    page.check("#alert-sound")
    page.reload()
    expect(page.locator("#alert-sound")).to_be_checked()
    create_table(page, ["me", "heuristic", "heuristic", "heuristic"])
    wait_my_draw(page)
    # your turn is announced (the page counts the sounds it played)
    assert int(page.evaluate("document.body.dataset.sounds || '0'")) >= 1


def test_leaving_a_match_in_play_asks_first_and_a_bot_takes_the_seat(
    open_page: Callable[..., Page],
) -> None:
    page = open_page()
    sign_in(page, "Nina")
    table = create_table(page, ["me", "heuristic", "heuristic", "heuristic"])
    wait_my_draw(page)
    page.click("#leave-match")
    expect(page.locator("#confirm")).to_contain_text("A bot (heuristic) will play your seat")
    # the table moves on while the question is open (here by her own draw; the others'
    # moves do the same), and the question stays until it is answered
    page.click("#act-draw")
    expect(page.locator(".hand .card")).to_have_count(12)
    expect(page.locator("#confirm")).to_contain_text("A bot (heuristic) will play your seat")
    page.click("#confirm-no")
    expect(page.locator("#confirm")).to_have_count(0)
    expect(page.locator(".hand .card")).to_have_count(12)  # still seated
    page.click("#leave-match")
    page.click("#confirm-yes")
    page.wait_for_url(re.compile(r"#/$"))
    page.goto(f"/#/table/{table}")  # now a watcher of the match, played on by the bot
    expect(page.locator(".watching")).to_be_visible()
    expect(page.locator(".ring .seat").first).to_contain_text("Nina")
    expect(page.locator(".ring .seat").first).to_contain_text("bot heuristic")


def a_meld_in(codes: list[str], preset: str = "aberto") -> tuple[list[str], str | None] | None:
    """Three cards of a hand that make a meld under a preset's rules, and a fourth that
    extends it when the hand has one (else None)."""
    from itertools import combinations

    from buraco.cards import parse_card
    from buraco.melds import TableMeld, shape_of
    from buraco.rules import make_rules

    rules = make_rules(preset, players=4)

    def meld(group: tuple[str, ...]) -> bool:
        return isinstance(shape_of(tuple(parse_card(c) for c in group), rules), TableMeld)

    naturals = [c for c in codes if c != "JK" and c[0] != "2"]  # a clean meld takes a wild later
    for four in combinations(naturals, 4):
        if meld(four) and meld(four[:3]):
            return list(four[:3]), four[3]
    for group in (naturals, codes):
        for three in combinations(group, 3):
            if meld(three):
                return list(three), None
    return None


def no_meld_in(codes: list[str], preset: str = "aberto") -> list[str]:
    """Three natural cards of a hand that make no meld under a preset's rules."""
    from itertools import combinations

    from buraco.cards import parse_card
    from buraco.melds import TableMeld, shape_of
    from buraco.rules import make_rules

    rules = make_rules(preset, players=4)
    naturals = [c for c in codes if c != "JK" and c[0] != "2"]
    for three in combinations(naturals, 3):
        if not isinstance(shape_of(tuple(parse_card(c) for c in three), rules), TableMeld):
            return list(three)
    raise AssertionError(f"every three cards of {codes} meld")


def least_useful(codes: list[str]) -> str:
    """A natural card with the fewest cards of its suit near it (kept: wilds, connectors)."""
    order = "A23456789TJQK"
    naturals = [c for c in codes if c != "JK" and c[0] != "2"] or codes

    def near(card: str) -> int:
        return sum(
            1
            for other in naturals
            if other != card
            and other[1] == card[1]
            and abs(order.index(other[0]) - order.index(card[0])) <= 2
        )

    return min(naturals, key=near)


LANGUAGES = {
    # locale: playing as, your turn to draw, your turn to play, melded, added
    "pt-BR": (
        "Jogando como",
        "Sua vez: compre",
        "baixe, encaixe ou descarte",
        "baixou ",
        "encaixou ",
    ),
    "es": ("Jugando como", "Tu turno: robá", "bajá, agregá o descartá", "bajó ", "agregó "),
    "it": (
        "Giochi come",
        "Tocca a te: pesca",
        "cala, attacca o scarta",
        "ha calato ",
        "ha attaccato ",
    ),
    "en": ("Playing as", "Your turn: draw", "meld, add or discard", "melded ", "added "),
}


@pytest.mark.parametrize("locale", list(LANGUAGES))
def test_melding_and_adding_by_clicks_in_each_language(
    open_page: Callable[..., Page], locale: str
) -> None:
    playing, to_draw, to_play, melded_word, added_word = LANGUAGES[locale]
    over_word = i18n.messages(locale)["over.match"]
    page = open_page(locale=locale)
    page.goto("/")
    page.fill("#name", "Olga")
    page.click("#name-submit")
    expect(page.locator("#me")).to_have_text(f"{playing} Olga")
    # two players, one hand: a long hand, played to its end
    create_table(page, ["me", "heuristic"], match_hands="1")
    melded = added = False
    for _ in range(40):
        expect(page.locator("#whose")).to_contain_text(to_draw, timeout=30_000)
        page.click("#act-draw")
        expect(page.locator("#whose")).to_contain_text(to_play)
        cards = page.locator(".hand .card")
        codes = [c.get_attribute("data-card") or "" for c in cards.all()]
        own = page.locator(".side.own .meld")
        # meld whenever a meld comes up until a card has been added (more melds, more chances
        # of a card that fits one: the deal is the server's, not the test's)
        found = None if added else a_meld_in(codes)
        if found is not None:
            group, extra = found
            before = own.count()
            for code in group:  # one click per card, each copy once
                page.locator(f'.hand .card[data-card="{code}"][aria-pressed="false"]').first.click()
            page.click("#act-meld")
            if page.locator("#choices").count():  # where a wild stands: the first way
                page.locator("#choices button[data-action]").first.click()
            expect(own).to_have_count(before + 1)
            expect(page.locator(".seat.mine .did")).to_contain_text(f"Olga {melded_word}")
            melded = True
            codes = [extra] if extra else []  # the card that extends it, added at once
        if melded and not added:
            # a card that fits a meld of the side: selected, the meld lights up; click it
            for code in codes:
                page.locator(f'.hand .card[data-card="{code}"]').first.click()
                fits = page.locator(".side.own .meld.fits")
                if fits.count():
                    fits.first.click()
                    if page.locator("#choices").count():
                        page.locator("#choices button[data-action]").first.click()
                    expect(page.locator(".seat.mine .did")).to_contain_text(f"Olga {added_word}")
                    added = True
                    break
                page.keyboard.press("Escape")
        if melded and added:
            break
        discard_least_useful(page, to_play)
    else:
        melds = page.locator(".side.own .meld").all_inner_texts()
        pytest.fail(f"no meld and add came up in 40 turns (melded: {melds})")
    assert page.locator("html").get_attribute("lang") == locale
    if locale != "pt-BR":
        return  # the hand's end by clicks in Portuguese below (every catalog's words: test_i18n)
    # then on to the hand's end (the bot goes out, or the stock runs out), still by clicks
    whose, over = page.locator("#whose"), page.locator("#hand-over")
    ended = i18n.messages(locale)["table.hand-over"]
    mine = re.compile(f"{re.escape(to_draw)}|{re.escape(to_play)}|{re.escape(ended)}")
    for _ in range(120):
        expect(whose).to_contain_text(mine, timeout=30_000)
        if over.count():
            break
        if to_draw in whose.inner_text():
            page.click("#act-draw")
            expect(whose).to_contain_text(re.compile(f"{re.escape(to_play)}|{re.escape(ended)}"))
            if over.count():
                break
        discard_least_useful(page, to_play)
    expect(over.locator("#over-h")).to_have_text(over_word)
    expect(over.locator("#ended")).not_to_be_empty()
    assert page.locator("html").get_attribute("lang") == locale


def discard_least_useful(page: Page, to_play: str) -> None:
    """Discard the least useful card: wilds and cards near others of their suit are kept."""
    left = [c.get_attribute("data-card") or "" for c in page.locator(".hand .card").all()]
    page.locator(f'.hand .card[data-card="{least_useful(left)}"]').first.click()
    page.click("#act-discard")
    expect(page.locator("#whose")).not_to_contain_text(to_play)


def test_draw_and_the_pile_are_offered_only_when_the_rules_allow(
    open_page: Callable[..., Page],
) -> None:
    page = open_page()
    sign_in(page, "Pia")
    create_table(page, ["me", "heuristic", "heuristic", "heuristic"], preset="fechado")
    wait_my_draw(page)
    expect(page.locator("#act-draw")).to_be_enabled()
    # fechado: the closed pile is offered only when its top card melds at once
    taking = page.locator("#act-take").is_enabled()
    assert page.locator("#pile").is_enabled() == taking
    page.click("#act-draw")
    expect(page.locator("#whose")).to_contain_text("meld, add or discard")
    expect(page.locator("#act-draw")).to_be_disabled()  # drawn already
    expect(page.locator("#act-take")).to_be_disabled()
    expect(page.locator("#pile")).to_be_disabled()


@pytest.mark.parametrize(
    ("meld", "wild", "stands"),
    [
        (["2S", "8H", "9H"], "2S", "7♥"),  # a wild written where it stands: low
        (["8H", "9H", "2S"], "2S", "10♥"),  # high
        (["QS", "KS", "JK"], "JK", "A♠"),  # a high ace
        (["JK", "2S", "3S"], "JK", "A♠"),  # the 2 of the run's suit in its place is natural
        (["KC", "KD", "JK"], "JK", "K"),  # a set: the rank
        (["2S", "3S", "4S"], None, None),  # no wild at all
    ],
)
def test_a_meld_choice_says_what_its_wild_stands_for(
    open_page: Callable[..., Page], meld: list[str], wild: str | None, stands: str | None
) -> None:
    page = open_page()
    page.goto("/")
    expect(page.locator("#name")).to_be_visible()
    got = page.evaluate("async (m) => (await import('/static/table.js')).wildFor(m)", meld)
    assert got == (None if wild is None else {"wild": wild, "stands": stands})


def test_resigning_asks_first_and_ends_the_match_as_a_loss(open_page: Callable[..., Page]) -> None:
    page = open_page()
    sign_in(page, "Rui")
    create_table(page, ["me", "heuristic", "heuristic", "heuristic"])
    expect(page.locator(".hand .card")).to_have_count(11)
    page.click("#resign")
    expect(page.locator("#confirm")).to_contain_text("Your side loses it now")
    page.click("#confirm-yes")
    over = page.locator("#hand-over")
    expect(over.locator("#over-h")).to_have_text("Match over")
    expect(over.locator("#ended")).to_have_text("The match was conceded.")
    expect(over.locator(".winner")).not_to_contain_text("Rui")


@pytest.mark.parametrize("preset", ["aberto", "italiano"])
def test_a_player_without_a_partner_is_spoken_to_alone(
    open_page: Callable[..., Page], preset: str
) -> None:
    # 2 players (and 3 in Burraco): no "your side", and one player wins in the singular
    page = open_page()
    sign_in(page, "Teo")
    create_table(
        page, ["me", "heuristic"] if preset == "aberto" else ["me", "random", "random"], preset
    )
    expect(page.locator(".side-head", has_text="Teo")).to_contain_text("Teo (you)")
    page.click("#resign")
    expect(page.locator("#confirm")).to_contain_text("You lose it now")
    page.click("#confirm-yes")
    expect(page.locator("#hand-over .winner")).to_contain_text("wins the match")


def test_a_rematch_accepted_by_one_and_declined_by_another(
    open_page: Callable[..., Page],
) -> None:
    ana, bia, caio = open_page(), open_page(), open_page()
    for page, name in ((ana, "Sara"), (bia, "Tito"), (caio, "Ugo")):
        sign_in(page, name)
    table = create_table(ana, ["me", "open", "open", "heuristic"])
    for page, seat in ((bia, 1), (caio, 2)):
        page.goto(f"/#/table/{table}")
        page.click(f"#board button[data-key='sit-{seat}']")
    for page in (ana, bia, caio):
        expect(page.locator(".hand .card")).to_have_count(11, timeout=30_000)
    ana.click("#resign")  # the quickest way to a match's end
    ana.click("#confirm-yes")
    expect(ana.locator("#over-h")).to_have_text("Match over")
    ask_rematch(ana, table)
    expect(bia.locator("#rematch-offer")).to_be_visible()
    expect(caio.locator("#rematch-offer")).to_be_visible()
    caio.click("#rematch-decline")
    expect(caio.locator("#declined")).to_have_text("You declined the rematch.")
    bia.click("#rematch-accept")
    bia.wait_for_url(lambda url: "#/table/" in url and table not in url)
    # Caio's seat is open again: the rematch waits for someone to take it
    expect(ana.locator(".seat-list")).to_contain_text("Seat 3: open")
    expect(ana.locator(".seat-list")).to_contain_text("Tito")


def test_the_next_deal_is_counted_down_and_ready_deals_it_at_once(
    browser: Browser, tmp_path: Path
) -> None:
    # a server that waits 90 s between hands (unless every player says ready)
    settings = Settings(data_dir=tmp_path, bot_workers=0, hand_pause=90.0)
    with serve(settings) as url:
        contexts = [browser.new_context(base_url=url) for _ in range(2)]
        for ctx in contexts:
            ctx.set_default_timeout(TIMEOUT)
        ana, watcher = (ctx.new_page() for ctx in contexts)
        sign_in(ana, "Ana")
        # one pack: a stock of 9 cards, so the hand ends within a few turns
        table = create_table(ana, ["me", "heuristic"], target="50000", decks="1")
        watcher.goto(f"/#/table/{table}")
        over = ana.locator("#hand-over")
        for _ in range(40):
            if over.count():
                break
            whose = ana.locator("#whose")
            expect(whose.or_(over)).to_be_visible()
            expect(whose.or_(over)).to_contain_text(re.compile("Your turn: draw|Next hand"))
            if not over.count():
                draw_and_discard(ana)
        expect(over).to_be_visible()
        countdown = watcher.locator("#next-deal")
        expect(countdown).to_have_text(re.compile(r"^Next hand in \d+ s$"))
        first = int(re.findall(r"\d+", countdown.inner_text())[0])
        assert 80 < first <= 90
        watcher.wait_for_timeout(2_500)
        later = int(re.findall(r"\d+", countdown.inner_text())[0])
        assert first - 4 <= later < first  # it counts down while the scores are read
        expect(ana.locator("#next-deal")).to_have_text(re.compile(r"^Next hand in \d+ s$"))
        ana.click("#ready")
        # dealt in seconds, not after the 90 s pause (the bot is always ready)
        expect(over).to_have_count(0)
        expect(ana.locator(".hand .card")).to_have_count(11)
        expect(countdown).to_have_count(0)
        for ctx in contexts:
            ctx.close()


def test_a_guest_keeps_their_name_and_plays_the_same_seat_from_a_second_browser(
    open_page: Callable[..., Page],
) -> None:
    phone, laptop = open_page(viewport=PHONE), open_page()
    sign_in(phone, "Iara")
    table = create_table(phone, ["me", "heuristic"])
    expect(phone.locator(".hand .card")).not_to_have_count(0)
    # back in the lobby, the guest keeps the name with a password
    phone.goto("/#/")
    phone.fill("#claim-password", "a long secret phrase")
    phone.click("#claim-submit")
    expect(phone.locator("#account-state")).to_contain_text("Signed in as Iara")
    assert_accessible(phone, "the account panel")
    # another browser signs in and finds the table as its own
    laptop.goto("/")
    laptop.fill("#signin-name", "iara")
    laptop.fill("#signin-password", "wrong password!")
    laptop.click("#signin-submit")
    expect(laptop.locator("#toast")).to_have_text("No account has this name and password.")
    laptop.fill("#signin-password", "a long secret phrase")
    laptop.click("#signin-submit")
    expect(laptop.locator("#me")).to_have_text("Playing as Iara")
    mine = laptop.locator(f'#tables a[href="#/table/{table}"]')
    expect(mine).to_be_visible()
    mine.click()
    expect(laptop.locator(".seat.mine")).to_contain_text("Iara")
    cards = sorted(hand(laptop))
    phone.goto(f"/#/table/{table}")
    expect(phone.locator(".hand .card")).to_have_count(len(cards))
    assert sorted(hand(phone)) == cards  # one seat, one hand, two browsers
    # signing out everywhere: both browsers are strangers again
    laptop.goto("/#/")
    laptop.click("#signout-all")
    expect(laptop.locator("#name-h")).to_have_text("Choose a name to play")
    phone.goto("/#/")
    phone.reload()
    expect(phone.locator("#name-h")).to_have_text("Choose a name to play")


def test_a_table_page_whose_session_ends_says_so_and_a_new_session_reconnects(
    open_page: Callable[..., Page],
) -> None:
    phone, laptop = open_page(), open_page()
    sign_in(phone, "Selma")
    table = create_table(phone, ["me", "heuristic"])
    expect(phone.locator(".hand .card")).not_to_have_count(0)
    # the name is kept from another tab of the same browser: a new session, whose cookie the
    # table's tab has too, so its socket (closed: the guest's session ended) opens again
    sockets: list[str] = []
    phone.on("websocket", lambda ws: sockets.append(ws.url))
    lobby = phone.context.new_page()
    errors: list[str] = []
    lobby.on("pageerror", lambda e: errors.append(str(e)))
    lobby.errors = errors  # type: ignore[attr-defined]
    lobby.goto("/#/")
    lobby.fill("#claim-password", "a long secret phrase")
    with phone.expect_websocket() as reopened:
        lobby.click("#claim-submit")
    assert f"/ws/tables/{table}" in reopened.value.url
    expect(lobby.locator("#account-state")).to_contain_text("Signed in as Selma")
    expect(phone.locator(".hand .card")).not_to_have_count(0)
    assert len(sockets) == 1 and phone.locator("#signed-out").count() == 0
    # signed out everywhere from another browser: the table's page says so and stays put
    laptop.goto("/")
    laptop.fill("#signin-name", "Selma")
    laptop.fill("#signin-password", "a long secret phrase")
    laptop.click("#signin-submit")
    expect(laptop.locator("#me")).to_have_text("Playing as Selma")
    laptop.click("#signout-all")
    expect(phone.locator("#signed-out")).to_have_text(
        "You were signed out (on this device, or everywhere): sign in again in the lobby to "
        "play from here."
    )
    expect(phone.locator(".hand .card")).to_have_count(0)
    phone.wait_for_timeout(3000)  # longer than the first reconnection's wait
    assert len(sockets) == 1, sockets


def test_a_rated_match_to_its_end_puts_the_player_on_the_leaderboard(
    open_page: Callable[..., Page],
) -> None:
    page = open_page()
    sign_in(page, "Edite")
    page.check("#f-rated")
    create_table(page, ["me", "greedy"])
    expect(page.locator(".hand .card")).to_have_count(11)
    page.click("#resign")  # a conceded rated match: rated as a loss
    page.click("#confirm-yes")
    expect(page.locator("#hand-over #over-h")).to_have_text("Match over")
    page.click("#ratings-link")
    page.select_option("#board-choice", "aberto/2")
    row = page.locator("#board tr.me")
    expect(row).to_contain_text("Edite")
    expect(page.locator("#your-place")).to_contain_text("You are")
    assert_accessible(page, "the leaderboard")
    # her profile: the rating, its chart and the game
    row.locator("a").click()
    expect(page.locator("h1")).to_have_text("Edite")
    expect(page.locator("#profile-ratings")).to_contain_text("2 players: ")
    expect(page.locator("#profile-ratings")).to_contain_text("in 1 rated match (provisional)")
    expect(page.locator("#rating-chart svg circle")).to_have_count(1)
    assert_accessible(page, "a profile")
    # at her next rated table, her rating stands beside her name
    page.goto("/#/")
    page.check("#f-rated")
    create_table(page, ["me", "greedy"])
    expect(page.locator(".seat.mine .rating")).to_have_text(re.compile(r"^ \(-?\d+\)$"))


def test_a_tournament_of_two_tables_of_bots_runs_two_turns_to_its_standings(
    open_page: Callable[..., Page],
) -> None:
    # issue 21: "one Playwright test of a 2-table tournament with bots through two turns to
    # its standings": made, filled with bots and started from the page, in Italian
    page = open_page(locale="it")
    page.goto("/")
    page.fill("#name", "Dora")
    page.click("#name-submit")
    page.click("#tournaments-link")
    expect(page.locator("h1")).to_have_text("Tornei")
    page.fill("#tour-name", "Giovedì al circolo")
    page.select_option("#tour-movement", "mitchell")
    page.fill("#tour-turns", "2")
    page.fill("#tour-break", "0")
    page.select_option("#tour-pace", "0")
    page.click("#tour-create")
    expect(page.locator("h1")).to_have_text("Giovedì al circolo")
    expect(page.locator("#tour-director")).to_be_visible()
    page.fill("#tour-bots", "4")
    page.click("#tour-add-bots")
    expect(page.locator("#entries li")).to_have_count(4)
    assert_accessible(page, "a tournament open for entries")
    page.click("#tour-start")
    expect(page.locator("#tour-turn-1")).to_contain_text("Turno 1 (Mitchell)")
    # both turns played by the bots; the page follows them to the final standings
    expect(page.locator("#tour-standings")).to_have_text("Classifica finale", timeout=120_000)
    expect(page.locator("#tour-turn-2")).to_be_visible()
    rows = page.locator("#standings tbody tr")
    expect(rows).to_have_count(4)
    vps = [int(r.locator("td").nth(2).inner_text()) for r in rows.all()]
    assert sum(vps) == 2 * 2 * 20 and vps == sorted(vps, reverse=True)
    assert_accessible(page, "a tournament's standings")
    assert page.errors == []  # type: ignore[attr-defined]


def test_a_partner_takes_the_place_kept_for_them_by_the_link_they_were_given(
    open_page: Callable[..., Page],
) -> None:
    ana = open_page(locale="es")
    ana.goto("/")
    ana.fill("#name", "Ana")
    ana.click("#name-submit")
    ana.click("#tournaments-link")
    ana.fill("#tour-name", "Jueves")
    ana.click("#tour-create")
    ana.click("#tour-enter-partner")
    link = ana.locator("#tour-partner-link code")
    expect(link).to_contain_text("&code=")
    address = link.inner_text()
    # the players' link has no director's secret; the partner's has the place's code
    assert "secret" not in ana.locator("#tour-share code").inner_text()
    bia = open_page(locale="es")
    bia.goto(address)
    expect(bia.locator("#tour-need-name")).to_be_visible()  # a name first
    bia.goto("/")
    bia.fill("#name", "Bia")
    bia.click("#name-submit")
    expect(bia.locator("#me")).to_contain_text("Bia")
    bia.goto(address)
    bia.click("#tour-join")
    expect(bia.locator("#entries li").first).to_contain_text("Ana / Bia")
    expect(bia.locator("#tour-entered")).to_be_visible()
    assert ana.errors == [] and bia.errors == []  # type: ignore[attr-defined]


def test_an_individual_tournament_seats_you_with_a_partner_of_the_turn(
    open_page: Callable[..., Page],
) -> None:
    # issue 21: players enter as individuals; in Portuguese, the page names both partners
    page = open_page(locale="pt-BR")
    page.goto("/")
    page.fill("#name", "Ana")
    page.click("#name-submit")
    page.click("#tournaments-link")
    page.fill("#tour-name", "Quinta individual")
    page.select_option("#tour-players", "individual")
    expect(page.locator("#tour-movement")).to_be_disabled()
    expect(page.locator("#tour-movement")).to_have_value("swiss")
    page.click("#tour-create")
    expect(page.locator("#tour-summary")).to_contain_text("parceiro novo a cada rodada")
    expect(page.locator("#tour-enter-bot")).to_have_count(0)  # alone: no partner to bring
    page.click("#tour-enter")
    expect(page.locator("#tour-entered")).to_be_visible()
    page.fill("#tour-bots", "4")
    page.click("#tour-add-bots")
    expect(page.locator("#entries li")).to_have_count(5)
    page.click("#tour-start")
    expect(page.locator("#tour-turn-1")).to_contain_text("Rodada 1 (suíço)")
    # Ana rests or sits with a partner of the turn: "Ana e X" on her side
    rows = page.locator("section:has(#tour-turn-1) tbody tr")
    expect(rows).to_have_count(2)  # a table of four, and one player resting
    text = " ".join(rows.all_inner_texts())
    assert " e " in text and "Ana" in text
    assert_accessible(page, "an individual tournament's turn")
    assert page.errors == []  # type: ignore[attr-defined]
