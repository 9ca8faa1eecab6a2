"""Real-browser fixtures: Debian's Chromium through Playwright, a live Uvicorn server on the
test database (tests/conftest.py's `live_servers`), and a Celery worker for bots.

Outside CI a missing /usr/bin/chromium skips these tests with a loud warning; with
CI=true it fails them. Screenshots go to artifacts/ (also on any failure).
"""

import os
import sys
import uuid
import warnings
from pathlib import Path

import pytest
from playwright.sync_api import expect

from tests.browser.driver import ARTIFACTS, CHROMIUM, CHROMIUM_ARGS

IN_CI = os.environ.get("CI", "").strip().lower() in {"1", "true", "yes"}
PAGE_LOG_TAIL = 80  # lines of each page's log (messages, socket frames) in a failure's report

# Every wait is on a state (an attribute, a count, a visible node); these are only its upper
# bound, generous because a shared CI machine may run a page 10× slower than a laptop.
# Playwright's own defaults (5 s for `expect`) made the five-table test fail under load.
expect.set_options(timeout=30_000)


def _missing_chromium(reason: str):
    message = f"BROWSER TESTS NOT RUN: {reason} (install it: apt-get install -y chromium)"
    if IN_CI:
        pytest.fail(f"{message}; CI=true requires them", pytrace=False)
    print(f"\n{'!' * 78}\n{message}\n{'!' * 78}", file=sys.stderr)
    warnings.warn(message, stacklevel=1)
    pytest.skip(message)


@pytest.fixture(scope="module")
def browser():
    # Module scope, not session: Playwright's sync API keeps an event loop running in this
    # thread while it is open, and later async tests (scale-out, consumers) need their own.
    if not Path(CHROMIUM).exists():
        _missing_chromium(f"{CHROMIUM} is missing")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        _missing_chromium("playwright is not installed")
    # The test's own database reads are plain synchronous code between Playwright's calls,
    # inside its running loop; allow that only while the browser is open, so the variable
    # never leaks into later tests or the subprocesses they start.
    with pytest.MonkeyPatch.context() as env:
        env.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
        with sync_playwright() as playwright:
            chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            yield chromium
            chromium.close()


@pytest.fixture(scope="session")
def browser_queue():
    """A Celery queue of this session's own: timers the test servers arm never reach
    another run's worker (and stale ones from earlier runs never reach ours)."""
    from django.conf import settings

    queue = f"browser-test-{uuid.uuid4().hex[:12]}"
    yield queue
    try:
        import redis

        redis.Redis.from_url(settings.CELERY_BROKER_URL).delete(
            queue, f"_kombu.binding.{queue}", f"_kombu.binding_permanent.{queue}")
    except Exception:  # Redis gone at the end of the session: nothing to clean
        pass


@pytest.fixture
def server(live_servers, browser_queue):
    """One Uvicorn process serving the site on the test database."""
    return live_servers(1, CELERY_QUEUE=browser_queue)[0]


@pytest.fixture
def bot_worker(transactional_db, isolated_prefix, browser_queue, tmp_path, monkeypatch):
    """A real Celery worker (with beat) on the test database, for bots and timers. It
    broadcasts on the servers' Redis prefix, or the pages would never hear a bot."""
    from rooms.tests.worker import Worker

    with monkeypatch.context() as env:  # the worker copies os.environ when it starts
        env.setenv("DJANGO_SETTINGS_MODULE", "tests.live_settings")
        env.setenv("CHANNEL_PREFIX", isolated_prefix)
        worker = Worker(tmp_path, browser_queue).start()
    yield worker
    worker.kill()
    ARTIFACTS.mkdir(exist_ok=True)
    (ARTIFACTS / "bot-worker.log").write_text(worker.log())


@pytest.fixture
def seats_to_close():
    """Seats (browser contexts) a test opened; closed after it, with screenshots on failure."""
    opened = []
    yield opened
    for seat in opened:
        seat.close()


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    report = outcome.get_result()
    if report.when == "call" and report.failed:
        for index, seat in enumerate(item.funcargs.get("seats_to_close") or []):
            try:
                ARTIFACTS.mkdir(exist_ok=True)
                seat.page.screenshot(path=str(ARTIFACTS / f"FAILED-{item.name}-{index}-{seat.name}.png"),
                                     full_page=True)
                (ARTIFACTS / f"FAILED-{item.name}-{index}-{seat.name}.log").write_text("\n".join(seat.console))
            except Exception:  # the page may be gone; the report matters more
                pass
            # The page's last frames and messages in the report itself: CI prints the report,
            # and a failure seen once under load is read from there.
            report.sections.append((f"page log of {seat.name} (last {PAGE_LOG_TAIL} lines)",
                                    "\n".join(seat.console[-PAGE_LOG_TAIL:])))
