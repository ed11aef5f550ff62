"""The floor's web door: Starlette routes over the poller's snapshot, behind a guard.

Routes (all GET or HEAD; every other method is refused with 405 on every path):

* ``/``: the floor page; ``/table/KEY``: a table's page;
* ``/api/floor``: the floor as JSON (:func:`~callbets.table.floor.as_json`, plus each
  table's ``key``, its flags and error in the floor's language, ``version``);
* ``/api/table/KEY``: what a table page shows (:mod:`.details`);
* ``/table/KEY/picture.svg``: the layout and the wheel with the round's chips;
* ``/events``: server-sent events, one ``floor`` event each time the floor changes, its
  data the floor's JSON (as ``/api/floor`` gives it, written once for every stream): a
  floor page draws it as it comes, a table page then reads its table's JSON;
* ``/static/…``: the page's script and style sheet (no inline script or style, so the
  Content-Security-Policy allows none).

:class:`Guard` wraps the whole application: the ``Host``, the method, the tokens
(:mod:`.access`: named, revocable, compared in constant time), the security headers on
every response, error pages included, and the access log.  :class:`FloorProtocol`
closes connections whose headers never finish.
"""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import json
import logging
import socket
import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from types import FrameType
from typing import Any

import h11
import jinja2
import uvicorn
from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse, PlainTextResponse, Response, StreamingResponse
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Message, Receive, Scope, Send
from uvicorn.protocols.http.h11_impl import H11Protocol

from ..messages import say_in
from ..table.table import Table
from ..table.watch import Proof
from .access import AccessLog, Tokens
from .details import Details, table_details
from .snapshot import Poller, safe_json

log = logging.getLogger(__name__)

HERE = Path(__file__).resolve().parent
CSP = (
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; "
    "connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
)
SECURITY_HEADERS = {
    "content-security-policy": CSP,
    "x-content-type-options": "nosniff",
    "referrer-policy": "no-referrer",
    "x-frame-options": "DENY",
    "cache-control": "no-store",
}
"""On every response, error pages and static files included."""
READING = frozenset({"GET", "HEAD"})
KEEP_ALIVE = 15.0
"""Seconds of silence after which an event stream sends a comment (proxies keep it open)."""
MAX_STREAMS = 100
"""Event streams open at once (each page open keeps one): beyond it a new one is refused
(503, Retry-After) and the floor's log says so; pages and JSON still answer."""
HEADER_TIMEOUT = 10.0
"""Seconds a connection has to send a request's line and headers (:class:`FloorProtocol`)."""
MAX_CONNECTIONS = 2000
"""Connections at once, finished requests or not (uvicorn's ``limit_concurrency``): beyond
it a new one is answered 503 at once.  Well above :data:`MAX_STREAMS`, so that a flood of
streams is refused one by one by the floor (and logged) while its pages still answer;
half-sent requests are closed after :data:`HEADER_TIMEOUT`.  With 1,000 streams asked
and 200 half-sent requests open, a page answered in 0.3 s."""
WORDS = (
    "floor_columns", "web_title", "web_totals", "web_live", "web_lost", "web_no_tables",
    "web_back", "web_layout", "web_picture_alt", "web_bets", "web_no_bets", "web_spins",
    "web_no_spins", "web_audit", "web_report",
)  # fmt: skip
"""The page's fixed words, handed to its script in the floor's language."""


class SafeJSON(JSONResponse):
    """JSON with ``<``, ``>`` and ``&`` escaped (``\\u003c``…): a name a player typed can
    never read as markup, whatever a client does with the text."""

    def render(self, content: Any) -> bytes:
        """The body."""
        return safe_json(content).encode("utf-8")


def served_name(host_header: str, named: frozenset[str]) -> bool:
    """Whether a request's ``Host`` names this floor: an address (IPv4 or IPv6, any
    port), ``localhost``, this machine's own name, or a name given (``--allow-host``).
    Any other name is a page elsewhere that had its name pointed at this machine (DNS
    rebinding): it must not read the floor."""
    name = host_header.strip().lower()
    if name.startswith("["):  # [::1]:8024
        name = name[1 : name.find("]")] if "]" in name else name
    elif name.count(":") == 1:
        name = name.split(":")[0]
    if not name:
        return False
    try:
        ipaddress.ip_address(name)
        return True
    except ValueError:
        pass
    own = {"localhost", socket.gethostname().lower(), socket.getfqdn().lower()}
    return name.rstrip(".") in own | {n.lower() for n in named}


class Guard:
    """Every request: a ``Host`` this floor serves (421 otherwise: :func:`served_name`),
    GET or HEAD only (405), a token it accepts when it has any (401, with
    ``WWW-Authenticate: Basic`` so a browser asks for it), the security headers, and a
    line in the access log (:mod:`.access`)."""

    def __init__(
        self,
        app: ASGIApp,
        tokens: Tokens,
        lang: str,
        hosts: frozenset[str] = frozenset(),
        access: AccessLog | None = None,
    ) -> None:
        self.app, self.tokens, self.lang, self.hosts = app, tokens, lang, hosts
        self.access = access

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """The ASGI call."""
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        who = ""

        async def secured(message: Message) -> None:
            if message["type"] == "http.response.start":
                kept = [(k, v) for k, v in message.get("headers", [])
                        if k.decode("latin-1").lower() not in SECURITY_HEADERS]  # fmt: skip
                added = [(k.encode(), v.encode()) for k, v in SECURITY_HEADERS.items()]
                message = {**message, "headers": kept + added}
                if self.access is not None:
                    client = (scope.get("client") or ("", 0))[0]
                    self.access.write(who, client, scope["method"], scope["path"],
                                      int(message["status"]))  # fmt: skip
            await send(message)

        refused: Response | None = None
        headers = dict(scope["headers"])
        host = headers.get(b"host", b"").decode("latin-1")
        if not served_name(host, self.hosts):
            log.warning("a request for host %r refused (not a name this floor serves)", host)
            refused = PlainTextResponse(say_in(self.lang, "web_host") + "\n", 421)
        elif scope["method"] not in READING:
            refused = PlainTextResponse(
                say_in(self.lang, "web_read_only") + "\n", 405, {"Allow": "GET, HEAD"}
            )
        elif self.tokens.required:
            found = self.tokens.who(headers.get(b"authorization", b"").decode("latin-1"))
            if found is None:
                challenge = 'Basic realm="callbets floor", charset="UTF-8"'
                refused = PlainTextResponse(say_in(self.lang, "web_token") + "\n", 401,
                                            {"WWW-Authenticate": challenge})  # fmt: skip
            else:
                who = found
        if refused is not None:
            await refused(scope, receive, secured)
            return
        await self.app(scope, receive, secured)


def _pages() -> jinja2.Environment:
    return jinja2.Environment(
        loader=jinja2.FileSystemLoader(HERE / "templates"), autoescape=True,
        undefined=jinja2.StrictUndefined,
    )  # fmt: skip


class FloorSite:
    """The floor's pages, JSON and event stream over one poller: the state the handlers
    share (the words said, the details kept, the event loops' doorbells) in one place."""

    def __init__(self, poller: Poller, start: bool = True, banner: str = "") -> None:
        """A site over ``poller`` (started and stopped with the server when ``start``);
        ``banner`` is said on stderr once it listens."""
        self.poller, self.lang, self.start, self.banner = poller, poller.lang, start, banner
        self.pages = _pages()
        self.details = Details(
            lambda table, key, read: table_details(table, key, self.lang, self.proved(table), read),
            self.stamp,
        )
        blanks = {f: f"{{{f}}}" for f in ("tables", "open", "staked", "prison", "flags")}
        self.words = {key: say_in(self.lang, key, **(blanks if key == "web_totals" else {}))
                      for key in WORDS}  # fmt: skip
        self.bells: dict[asyncio.AbstractEventLoop, Doorbell] = {}
        self.streams = 0
        """Event streams open now."""

    def proved(self, table: Table) -> tuple[Proof | None, dict[str, Any] | None]:
        """The table's last proof of its books (and what it proved)."""
        if self.poller.prover is not None:
            return self.poller.prover.proved_of(table)
        return self.poller.watch.proofs.get(table.uid), None

    def stamp(self, table: Table) -> str:
        """What changes when the table's details must be read again."""
        proof = self.proved(table)[0]
        return f"{table.head()} {proof.at if proof is not None else ''}"

    def app(self) -> Starlette:
        """The web application."""
        routes = [
            Route("/", self.floor_page),
            Route("/table/{key}", self.table_page),
            Route("/table/{key}/picture.svg", self.picture),
            Route("/api/floor", self.floor_json),
            Route("/api/table/{key}", self.table_json),
            Route("/events", self.events),
            Mount("/static", StaticFiles(directory=HERE / "static"), name="static"),
        ]
        return Starlette(routes=routes, lifespan=self.lifespan,
                         exception_handlers={500: self.server_error})  # fmt: skip

    def page(self, name: str, **fields: Any) -> Response:
        """A page of the floor in its language."""
        html = self.pages.get_template(name).render(
            lang=self.lang, title=self.words["web_title"], words=json.dumps(self.words), **fields
        )
        return Response(html, media_type="text/html; charset=utf-8")

    def keys(self) -> list[str]:
        """The keys of the tables on the floor now."""
        return [t["key"] for t in self.poller.snapshot.data["tables"]]

    def missing(self, key: str) -> Response:
        """No such table (404)."""
        return PlainTextResponse(say_in(self.lang, "web_no_table", table=key) + "\n", 404)

    async def floor_page(self, request: Request) -> Response:
        """The floor: every table."""
        return self.page("floor.html")

    async def table_page(self, request: Request) -> Response:
        """One table's page."""
        key = request.path_params["key"]
        if key not in self.keys():
            return self.missing(key)
        return self.page("table.html", key=key, back=self.words["web_back"])

    async def floor_json(self, request: Request) -> Response:
        """The floor as JSON."""
        return Response(self.poller.snapshot.text, media_type="application/json")

    async def read(self, key: str) -> dict[str, Any] | Response:
        """One table's details, read once a version (a 404 for an unknown table)."""
        snapshot = self.poller.snapshot
        entry = next((t for t in snapshot.data["tables"] if t["key"] == key), None)
        if entry is None:
            return self.missing(key)
        if entry["error"]:
            return {"key": key, "table": entry["table"], "said_error": entry["said_error"],
                    "version": snapshot.version}  # fmt: skip
        try:  # read once a version: the page's picture then comes from what is kept
            found = self.details.kept(snapshot, key) or await run_in_threadpool(
                self.details.of, snapshot, key
            )
        except Exception as err:  # the table went away or broke since the last look
            log.warning("table %s cannot be read", key, exc_info=True)
            reason = say_in(self.lang, "floor_unreadable", reason=" ".join(str(err).split()))
            return {"key": key, "table": entry["table"], "said_error": reason,
                    "version": snapshot.version}  # fmt: skip
        return found if found is not None else self.missing(key)

    async def table_json(self, request: Request) -> Response:
        """One table's details as JSON (its picture apart)."""
        found = await self.read(request.path_params["key"])
        if isinstance(found, Response):
            return found
        return SafeJSON({k: v for k, v in found.items() if k != "svg"})

    async def picture(self, request: Request) -> Response:
        """One table's layout with its chips (SVG)."""
        found = await self.read(request.path_params["key"])
        if isinstance(found, Response):
            return found
        if "svg" not in found:
            return PlainTextResponse(found["said_error"] + "\n", 503)
        return Response(found["svg"], media_type="image/svg+xml")

    def doorbell(self) -> Doorbell:
        """The running event loop's bell, rung by the poller at each change."""
        loop = asyncio.get_running_loop()
        if loop not in self.bells:
            self.bells[loop] = Doorbell(loop)
            self.poller.listeners.append(self.bells[loop].ring)
        return self.bells[loop]

    async def events(self, request: Request) -> Response:
        """The floor's changes as server-sent events (at most :data:`MAX_STREAMS`)."""
        if self.streams >= MAX_STREAMS:
            log.warning("event streams: %d open, the most allowed; one more refused",
                        self.streams)  # fmt: skip
            return PlainTextResponse(say_in(self.lang, "web_busy") + "\n", 503,
                                     {"Retry-After": "10"})  # fmt: skip
        self.streams += 1
        return StreamingResponse(self.stream(self.doorbell()), media_type="text/event-stream")

    async def stream(self, bell: Doorbell) -> AsyncIterator[str]:
        """Each new version of the floor, and a keep-alive between them."""
        try:
            async for event in self._events(bell):
                yield event
        finally:  # the page went away, or the floor stops
            self.streams -= 1

    async def _events(self, bell: Doorbell) -> AsyncIterator[str]:
        seen = -1
        while not self.poller.closing.is_set():  # the floor stopping ends every stream
            rung = bell.event  # taken before the look: a change after it rings it
            snapshot = self.poller.snapshot
            if snapshot.version != seen:  # the floor itself: no page reads it again
                seen = snapshot.version
                yield f"event: floor\ndata: {snapshot.text}\n\n"
                continue
            try:
                await asyncio.wait_for(rung.wait(), KEEP_ALIVE)
            except TimeoutError:
                yield ": still here\n\n"

    @asynccontextmanager
    async def lifespan(self, app: Starlette) -> AsyncIterator[None]:
        """Start the poller with the server, say where it listens, stop it after."""
        if self.start:
            await run_in_threadpool(self.poller.start)
        if self.banner:
            print(self.banner, file=sys.stderr, flush=True)
        try:
            yield
        finally:
            if self.start:
                await run_in_threadpool(self.poller.stop)

    async def server_error(self, request: Request, exc: Exception) -> Response:
        """Any failure: a line in the floor's language, never a trace."""
        return PlainTextResponse(say_in(self.lang, "web_error") + "\n", 500)


def build(
    poller: Poller,
    token: str = "",
    *,
    start: bool = True,
    banner: str = "",
    hosts: frozenset[str] = frozenset(),
    tokens: Tokens | None = None,
    access: AccessLog | None = None,
) -> ASGIApp:
    """The floor's web application over a poller (started and stopped with the server
    when ``start``), behind its guard: ``token`` (one token) or ``tokens`` (named ones),
    ``hosts`` (names it answers to besides addresses and this machine's), ``access``
    (where each request is written); ``banner`` is said on stderr once it listens."""
    guard_tokens = tokens if tokens is not None else Tokens(token)
    return Guard(FloorSite(poller, start, banner).app(), guard_tokens, poller.lang, hosts,
                 access)  # fmt: skip


def server_config(app: ASGIApp, host: str = "127.0.0.1", port: int = 8024) -> uvicorn.Config:
    """uvicorn's settings for the floor: its bounds (:data:`MAX_CONNECTIONS`, half-sent
    requests closed after :data:`HEADER_TIMEOUT`), no access log of its own (the
    guard's), no server header."""
    return uvicorn.Config(
        app, host=host, port=port, http=FloorProtocol, log_level="warning",
        limit_concurrency=MAX_CONNECTIONS, access_log=False, server_header=False,
        timeout_graceful_shutdown=2, lifespan="on",
    )  # fmt: skip


def serve(
    poller: Poller,
    host: str = "127.0.0.1",
    port: int = 8024,
    tokens: Tokens | None = None,
    hosts: frozenset[str] = frozenset(),
    access: AccessLog | None = None,
) -> int:
    """Serve the floor until interrupted (Ctrl-C); returns the exit status."""
    banner = say_in(poller.lang, "web_serving", host=host, port=port)
    app = build(poller, banner=banner, hosts=hosts, tokens=tokens, access=access)
    Server(server_config(app, host, port), poller).run()
    return 0


class FloorProtocol(H11Protocol):
    """uvicorn's HTTP/1.1 protocol, which closes a connection whose request line and
    headers are not all there :data:`HEADER_TIMEOUT` seconds after they began (or after
    it opened): slow or half-sent requests cannot hold connections (uvicorn times out
    only idle kept-alive ones)."""

    _begun: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        """A new connection: its first request's headers are awaited."""
        super().connection_made(transport)
        self._watch_headers()

    def data_received(self, data: bytes) -> None:
        """More bytes: the headers may be complete now, or a next request begun."""
        super().data_received(data)
        self._watch_headers()

    def connection_lost(self, exc: Exception | None) -> None:
        """The connection ended: nothing more to await."""
        if self._begun is not None:
            self._begun.cancel()
            self._begun = None
        super().connection_lost(exc)

    def _watch_headers(self) -> None:
        waiting = self.conn.their_state is h11.IDLE and not self.transport.is_closing()
        if waiting and self._begun is None:
            self._begun = self.loop.call_later(HEADER_TIMEOUT, self._too_slow)
        elif not waiting and self._begun is not None:
            self._begun.cancel()
            self._begun = None

    def _too_slow(self) -> None:
        self._begun = None
        if self.conn.their_state is h11.IDLE and not self.transport.is_closing():
            client = f"{self.client[0]}:{self.client[1]}" if self.client else "?"
            log.warning("a request from %s closed: its headers were not all sent within "
                        "%g s", client, HEADER_TIMEOUT)  # fmt: skip
            self.transport.close()


class Doorbell:
    """Wakes every event stream of one event loop when the poller, in its own thread,
    says the floor has changed (or is closing)."""

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self.loop = loop
        self.event = asyncio.Event()
        """Set once at the next ring; a stream takes it, then waits on it."""

    def ring(self) -> None:
        """From any thread: wake the streams waiting now."""
        with contextlib.suppress(RuntimeError):  # the loop has closed: no stream is left
            self.loop.call_soon_threadsafe(self._ring)

    def _ring(self) -> None:
        rung, self.event = self.event, asyncio.Event()
        rung.set()


class Server(uvicorn.Server):
    """uvicorn's server, which on Ctrl-C first ends the event streams (a browser keeps
    them open for ever: the server would wait for them)."""

    def __init__(self, config: uvicorn.Config, poller: Poller) -> None:
        super().__init__(config)
        self.poller = poller

    def handle_exit(self, sig: int, frame: FrameType | None) -> None:
        """Stop: the streams first."""
        self.poller.close()
        super().handle_exit(sig, frame)
