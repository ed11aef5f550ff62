"""``callbets floor --serve``: the floor as a live, read-only web page.

* :mod:`.snapshot`: one background look at every table, shared by every page;
* :mod:`.details`: what a table page shows (picture, bets read back, spins, report);
* :mod:`.app`: the routes (Starlette, served by uvicorn) behind a guard: the Host, GET
  and HEAD only, the tokens, a strict Content-Security-Policy;
* :mod:`.access`: named, revocable tokens and the access log;
* ``static/`` and ``templates/``: the page's script, style sheet and HTML (Jinja2,
  escaped by default; the script puts every word in as text).

Starlette, uvicorn and Jinja2 come with the ``floor`` extra
(``pip install 'callbets[floor]'``); nothing else in callbets imports them.
"""

from __future__ import annotations

from .access import AccessLog, Tokens
from .app import build, serve
from .snapshot import Poller

__all__ = ["AccessLog", "Poller", "Tokens", "build", "serve"]
