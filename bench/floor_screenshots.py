"""The README's pictures of the floor's web page: a small evening on four tables, the
floor served (``callbets floor --serve``'s own application, on uvicorn), and Debian's
headless chromium (driven by Selenium through its chromedriver) photographing the floor
and one table's page at 1280×800.

    python bench/floor_screenshots.py [--lang it] [--out docs]

Writes ``docs/floor-web.png`` and ``docs/floor-web-table.png``.  Needs the ``floor``
extra, selenium, chromium and chromium-driver (``.ci/run`` installs them).
"""

from __future__ import annotations

import argparse
import os
import socket
import tempfile
import threading
import time
from pathlib import Path

import uvicorn
from selenium import webdriver
from selenium.webdriver.chrome.service import Service

from callbets.table import Table
from callbets.web import Poller, build

CHROMIUM, CHROMEDRIVER = "/usr/bin/chromium", "/usr/bin/chromedriver"
SIZE = (1280, 800)

EVENING: dict[str, tuple[str, str, list[tuple[str, str]]]] = {
    "T1": ("venice-french", "paolo", [("rosso", "vicini dello zero da 2"),
                                      ("blu", "serie 5/8 da 5"), ("verde", "rosso da 20")]),
    "T2": ("france", "marie", [("rouge", "17 en plein à 30"), ("bleu", "orphelins à 1")]),
    "T3": ("venice-french", "giulia", [("nero", "orfanelli da 2"), ("giallo", "dispari da 50"),
                                       ("blu", "il 26 con i vicini da 1")]),
    "T4": ("venice-french", "", [("rosso", "finale 7 da 2")]),
}  # fmt: skip
"""Each table: house, croupier, and (player, announcement) in the table's language."""
SPINS = {"T1": [32, 0, 19], "T2": [17], "T3": [5, 26, 11, 30], "T4": []}


def play(folder: Path) -> None:
    """Open each table, play its spins (every player making his announcement again
    before each), and leave the round's bets on the layout."""
    for name, (house, croupier, bets) in EVENING.items():
        lang = "fr" if house == "france" else "it"
        table = Table.create(folder / f"{name}.sqlite", house, lang, croupier or None)
        for player in dict(bets):
            table.add_player(player)
        for number in [*SPINS[name], None]:
            for player, call in bets:
                table.bet(player, call)
            if number is not None:
                table.close()
                table.spin(number)
        if name == "T4":
            table.announce("rosso", "cavallo 8/11 da 5")
            table.close()
        table.close_file()


def shoot(url: str, out: Path) -> None:
    """The two pictures."""
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for arg in ("--headless=new", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
                f"--window-size={SIZE[0]},{SIZE[1]}"):  # fmt: skip
        options.add_argument(arg)
    driver = webdriver.Chrome(service=Service(executable_path=CHROMEDRIVER), options=options)
    try:
        driver.execute_cdp_cmd(
            "Emulation.setDeviceMetricsOverride",
            {"width": SIZE[0], "height": SIZE[1], "deviceScaleFactor": 1, "mobile": False},
        )
        driver.get(url + "/")
        ready(driver, "return document.querySelectorAll('article.card').length >= 4")
        driver.save_screenshot(str(out / "floor-web.png"))
        driver.get(url + "/table/T3.sqlite")
        ready(driver, "const p = document.getElementById('picture');"
                      "return p.complete && p.naturalWidth > 0")  # fmt: skip
        driver.save_screenshot(str(out / "floor-web-table.png"))
    finally:
        driver.quit()


def ready(driver: webdriver.Chrome, script: str) -> None:
    """Wait until the page says it is drawn (at most 10 s)."""
    deadline = time.monotonic() + 10
    while not driver.execute_script(script) and time.monotonic() < deadline:
        time.sleep(0.1)
    time.sleep(0.3)


def main() -> None:
    """Play, serve, shoot."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--lang", default="it", choices=["fr", "it", "en"])
    ap.add_argument("--out", default="docs", type=Path)
    args = ap.parse_args()
    os.environ["SE_OFFLINE"] = "true"  # Selenium Manager must never fetch a browser
    args.out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        play(Path(tmp))
        poller = Poller([tmp], args.lang, 1.0)
        sock = socket.socket()
        sock.bind(("127.0.0.1", 0))
        config = uvicorn.Config(build(poller), log_level="warning", lifespan="on",
                                timeout_graceful_shutdown=1)  # fmt: skip
        server = uvicorn.Server(config)
        thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
        thread.start()
        while not server.started:
            time.sleep(0.05)
        try:
            shoot(f"http://127.0.0.1:{sock.getsockname()[1]}", args.out)
        finally:
            poller.closing.set()
            server.should_exit = True
            thread.join(timeout=10)
    for name in ("floor-web.png", "floor-web-table.png"):
        print(args.out / name, (args.out / name).stat().st_size, "bytes")


if __name__ == "__main__":
    main()
