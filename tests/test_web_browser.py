"""The floor's web page in a real browser: Debian's chromium, driven by Selenium through
Debian's chromedriver (nothing is downloaded), over a folder of SQLite tables and a
PostgreSQL database at once.  The page lists every table, follows a bet and a spin made
with ``callbets table`` without a reload, draws the round's chips, shows a name a player
typed as text, and speaks the floor's language."""

from __future__ import annotations

import os
import re
import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from callbets.table import Table

from .test_table_words import ENGLISH
from .web_server import cb, new_database, serving, table

CHROMIUM, CHROMEDRIVER = "/usr/bin/chromium", "/usr/bin/chromedriver"
INJECTED = "<img src=x onerror=alert(1)>"
LIVE = 3.0
"""Seconds within which a change made at a table must be on the open page."""


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """One headless chromium for the module."""
    if not (os.access(CHROMIUM, os.X_OK) and os.access(CHROMEDRIVER, os.X_OK)):
        pytest.skip(f"no {CHROMIUM} or {CHROMEDRIVER}: install Debian's chromium and "
                    "chromium-driver (.ci/run does)")  # fmt: skip
    os.environ["SE_OFFLINE"] = "true"  # Selenium Manager must never fetch a browser
    from selenium import webdriver  # only with a browser to drive
    from selenium.webdriver.chrome.service import Service  # the same

    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for arg in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                "--window-size=1280,800", "--lang=it"):  # fmt: skip
        options.add_argument(arg)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(service=Service(executable_path=CHROMEDRIVER), options=options)
    driver.set_page_load_timeout(20)
    try:
        yield driver
    finally:
        driver.quit()


@pytest.fixture(scope="module")
def casino(tmp_path_factory: pytest.TempPathFactory, postgres_server: str) -> dict[str, str]:
    """Where the tables are: a folder of files and a database, each with two tables."""
    folder = tmp_path_factory.mktemp("pit")
    table(str(folder / "t1.sqlite"), ("player", INJECTED), ("player", "rouge"),
          ("bet", INJECTED, "le 17 et les voisins à 1"), ("bet", "rouge", "tiers à 5"))  # fmt: skip
    table(str(folder / f"{INJECTED}.sqlite"), ("player", "bleu"))
    db = new_database(postgres_server)
    table(f"{db}?table=P1", ("player", "nero"), ("bet", "nero", "orfanelli da 1"), lang="it")
    table(f"{db}?table=P2", ("player", "rosso"), lang="it")
    return {"folder": str(folder), "db": db}


@pytest.fixture(scope="module")
def floor(casino: dict[str, str]) -> Iterator[str]:
    with serving([casino["folder"], casino["db"]], "it") as url:
        yield url


def wait_for(what: Callable[[], Any], within: float = LIVE, step: float = 0.05) -> Any:
    deadline = time.monotonic() + within
    while True:
        found = what()
        if found or time.monotonic() > deadline:
            return found
        time.sleep(step)


def cards(driver: Any) -> dict[str, str]:
    """Each card's table name and its text, as the page shows them (read at once: the
    page may draw them again at any time)."""
    return dict(driver.execute_script(
        "return Array.from(document.querySelectorAll('article.card'))"
        ".map(c => [c.querySelector('h2').textContent, c.innerText])"
    ))  # fmt: skip


def last_numbers(driver: Any, name: str) -> list[tuple[str, str]]:
    """(number, its colour's class) of a card's last numbers, newest first."""
    return [tuple(n) for n in driver.execute_script(
        "const c = Array.from(document.querySelectorAll('article.card'))"
        ".find(c => c.querySelector('h2').textContent === arguments[0]);"
        "return c ? Array.from(c.querySelectorAll('.number'))"
        ".map(n => [n.textContent, n.className]) : []", name)]  # fmt: skip


def no_alert(driver: Any) -> bool:
    from selenium.common.exceptions import NoAlertPresentException  # with selenium only

    try:
        driver.switch_to.alert  # noqa: B018
    except NoAlertPresentException:
        return True
    return False


def test_the_page_lists_every_table_of_a_folder_and_a_database(browser: Any, floor: str):
    browser.get(floor + "/")
    shown = wait_for(lambda: len(cards(browser)) == 4 and cards(browser))
    assert sorted(shown) == sorted(["t1.sqlite", f"{INJECTED}.sqlite", "P1", "P2"])
    assert browser.find_elements("css selector", "img") == []  # the name made no element
    assert no_alert(browser)
    assert browser.execute_script("return document.documentElement.lang") == "it"
    text = browser.find_element("tag name", "body").text
    for table_name in shown:
        text = text.replace(table_name, "")
    assert not ENGLISH.search(text), text
    assert "aperto" in shown["P1"] and "orfanelli" not in shown["P1"]


@pytest.mark.parametrize("where", ["sqlite", "postgresql"])
def test_a_bet_and_a_spin_reach_the_open_page_without_a_reload(
    browser: Any, floor: str, casino: dict[str, str], where: str
):
    name, location, player, bet = (
        ("P2", f"{casino['db']}?table=P2", "rosso", "rosso da 10") if where == "postgresql"
        else ("t1.sqlite", f"{casino['folder']}/t1.sqlite", "rouge", "rouge à 10")
    )  # fmt: skip
    browser.get(floor + "/")
    assert wait_for(lambda: name in cards(browser))
    browser.execute_script("window.notReloaded = true")
    staked = re.search(r"PUNTATO\n(\d+)", cards(browser)[name])
    before = int(staked[1]) if staked else 0
    assert cb("table", "--table", location, "bet", player, bet).returncode == 0
    done = time.monotonic()
    assert wait_for(lambda: f"PUNTATO\n{before + 10}\n" in cards(browser)[name]), cards(browser)
    assert time.monotonic() - done < LIVE
    for step in (("close",), ("spin", "32")):
        assert cb("table", "--table", location, *step).returncode == 0
    done = time.monotonic()
    assert wait_for(lambda: last_numbers(browser, name)[:1] == [("32", "number red")])
    assert time.monotonic() - done < LIVE
    assert browser.execute_script("return window.notReloaded") is True


def test_the_table_page_draws_the_rounds_chips(browser: Any, floor: str, casino: dict[str, str]):
    location = f"{casino['db']}?table=P1"
    browser.get(floor + "/table/P1")
    picture = wait_for(lambda: browser.execute_script(
        "const p = document.getElementById('picture');"
        "return p.complete && p.naturalWidth > 0 && p.dataset.chips ? p.dataset.chips : null"
    ))  # fmt: skip
    with Table.open(location, write=False) as t:
        positions = {b.position for b in t.open_bets()}
    assert int(picture) == len(positions) == 5  # orphelins: 5 chips at 1
    src = browser.find_element("id", "picture").get_attribute("src")
    svg = browser.execute_script(
        "const r = new XMLHttpRequest(); r.open('GET', arguments[0], false); r.send();"
        "return r.responseText", src)  # fmt: skip
    assert svg.count('class="chip"') == len(positions)
    bets = browser.find_element("id", "bets").text
    assert bets.startswith("nero\n#1 orfanelli")
    assert "Le puntate del colpo" in browser.find_element("tag name", "body").text


def test_a_name_typed_at_the_table_is_shown_as_text(browser: Any, floor: str):
    browser.get(floor + "/table/t1.sqlite")
    players = wait_for(
        lambda: browser.execute_script(  # read at once: the page may redraw
            "return [...document.querySelectorAll('#bets h3')].map(e => e.textContent)"
        )
    )
    assert INJECTED in players
    assert len(browser.find_elements("css selector", "img")) == 1  # the picture alone
    assert no_alert(browser)
    browser.get(floor + "/")
    assert wait_for(lambda: f"{INJECTED}.sqlite" in cards(browser))
    assert browser.find_elements("css selector", "img") == [] and no_alert(browser)


def test_the_policy_blocked_nothing_the_page_needs(browser: Any, floor: str):
    browser.get(floor + "/table/t1.sqlite")
    wait_for(lambda: browser.find_elements("css selector", "#bets h3"))
    logs = [e["message"] for e in browser.get_log("browser")]
    assert not [m for m in logs if "Content Security Policy" in m or "Refused" in m], logs


def test_a_browser_with_the_token_sees_the_floor_live(browser: Any, casino: dict[str, str]):
    token = "pit-s3cret"
    with serving([casino["folder"]], "it", token) as url:
        browser.get(url + "/")  # no token: the server asks for one (HTTP Basic)
        assert not cards(browser)
        browser.get(url.replace("http://", f"http://pit:{token}@") + "/")
        assert wait_for(lambda: len(cards(browser)) == 2)  # the JSON, with the token
        live = wait_for(lambda: browser.execute_script(
            "return document.getElementById('live').className"
        ) == "live")  # fmt: skip
        assert live
        location = f"{casino['folder']}/t1.sqlite"
        staked = int(re.search(r"PUNTATO\n(\d+)", cards(browser)["t1.sqlite"])[1])
        assert cb("table", "--table", location, "bet", "rouge", "noir à 5").returncode == 0
        assert wait_for(lambda: f"PUNTATO\n{staked + 5}\n" in cards(browser)["t1.sqlite"])
