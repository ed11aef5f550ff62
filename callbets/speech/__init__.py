"""Offline voice front-end: engines, audio, phrase lists and the accept/ask/refuse decision.

Optional dependencies (``pip install callbets[speech]``) are imported only by the engine
or audio source that needs them; without them callbets raises :class:`SpeechUnavailable`
with the reason and the fix.
"""

from __future__ import annotations

from ..errors import CallbetsError


class SpeechUnavailable(CallbetsError, RuntimeError):
    """A recogniser, model or audio device that cannot be used here, and why."""
