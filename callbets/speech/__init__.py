"""Offline voice front-end: engines, audio, phrase lists and the accept/ask/refuse decision.

Optional dependencies (``pip install callbets[speech]``) are imported only by the engine
or audio source that needs them; without them callbets raises :class:`SpeechUnavailable`
with the reason and the fix.
"""

from __future__ import annotations

from ..errors import CallbetsError, InputError


class SpeechUnavailable(CallbetsError, RuntimeError):
    """A recogniser, model or audio device that cannot be used here, and why."""


class ModelUnusable(SpeechUnavailable, InputError):
    """The Vosk model asked for is not there, or cannot take the table's grammar: bad
    input (exit 2), said before any audio is read."""


class ModelCannotHear(SpeechUnavailable, InputError):
    """A recognition model that lacks words of the table's bets or dialogue: it could
    only ever hear another bet.  Commands exit 2."""


class BadSpeechFile(SpeechUnavailable, InputError):
    """A WAV file or a model archive that cannot be used (damaged, hostile, not what it
    claims to be), and why.  Commands exit 2."""
