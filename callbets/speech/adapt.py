"""MAP adaptation of PocketSphinx's acoustic model to recordings, with sphinxtrain.

The wheel's US-English model hears French badly (nasal vowels, the uvular R, front
rounded vowels): 6 % of first readings exact on French voices it never heard.  Adapted
by maximum a posteriori (MAP) on a few hundred French recordings, it heard 89 % of other
texts in other voices (bench/voice_data.py splits; MLLR alone: 18 %; adapting the
mixture weights too changed nothing, so only the means and variances are kept, 1.7 MB).
The steps are sphinxtrain's, run as programs:

1. the model's binary ``mdef`` as text (``pocketsphinx_mdef_convert``), and its mixture
   weights, which the wheel ships only quantised (``sendump``), as the float file
   sphinxtrain reads (:func:`write_mixture_weights`);
2. cepstra of each recording (``sphinx_fe``, with the model's ``feat.params``);
3. Baum-Welch counts of the recordings against their transcripts (``bw``);
4. the MAP update of the means and variances (``map_adapt``).

A croupier's enrolment runs them twice: one global MLLR transform first (``mllr_solve``,
then :func:`transform_means`), then MAP from the transformed model.  On Kokoro voices the
models were never adapted on (60 recordings to adapt, 20 held apart) that read Italian
11 → 16 and 13 → 15 of 20 where MAP alone read 11 and 13, and French 15 either way
(2026-12-07, ``bench/enrol_bench.py``).

Debian's ``sphinxtrain``, ``sphinxbase-utils`` and ``pocketsphinx`` packages have them.
"""

from __future__ import annotations

import math
import shutil
import struct
import subprocess
import tempfile
from array import array
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from . import SpeechUnavailable

TOOL_DIRS = (Path("/usr/lib/sphinxtrain"), Path("/usr/local/lib/sphinxtrain"))
"""Where sphinxtrain's programs are installed (they are not on PATH)."""
STEPS = 4
"""The steps :func:`adapt` tells its ``step`` (model, features, counts, update)."""
SENDUMP_LOG_BASE = 1.0001
SENDUMP_SHIFT = 10
"""A ``sendump`` byte is -log(weight) in log base 1.0001, shifted right by 10 bits."""


def tool(name: str) -> str:
    """The path of a sphinxtrain or sphinxbase program.

    :raises SpeechUnavailable: it is not installed.
    """
    found = shutil.which(name) or next(
        (str(d / name) for d in TOOL_DIRS if (d / name).is_file()), None
    )
    if found is None:
        raise SpeechUnavailable(
            f"adaptation needs {name}: apt-get install sphinxtrain sphinxbase-utils pocketsphinx"
        )
    return found


def _checksum(body: bytes) -> int:
    """sphinxtrain's checksum of the 32-bit words of a file's body."""
    words = array("I")
    words.frombytes(body)
    total = 0
    for w in words:
        total = (((total << 20) | (total >> 12)) + w) & 0xFFFFFFFF
    return total


def read_sendump(path: Path) -> tuple[bytes, int, int, int]:
    """The weights' bytes of a ``sendump`` and its (streams, densities, senones)."""
    data = path.read_bytes()
    at = 0
    while True:  # header strings, each after its length; a zero length ends them
        (length,) = struct.unpack_from("<i", data, at)
        at += 4 + length
        if length == 0:
            break
    densities, senones = struct.unpack_from("<ii", data, at)
    at += 8
    streams = (len(data) - at) // (densities * senones)
    return data[at:], streams, densities, senones


def write_mixture_weights(sendump: Path, out: Path) -> None:
    """The float mixture weights sphinxtrain reads, from the wheel's quantised ones
    (each senone's weights of a stream normalised to sum to one)."""
    data, streams, densities, senones = read_sendump(sendump)
    scale = (1 << SENDUMP_SHIFT) * math.log(SENDUMP_LOG_BASE)
    table = [math.exp(-v * scale) for v in range(256)]
    weights = array("f", bytes(4 * senones * streams * densities))
    for f in range(streams):
        for d in range(densities):
            row = data[(f * densities + d) * senones : (f * densities + d + 1) * senones]
            for s, v in enumerate(row):
                weights[(s * streams + f) * densities + d] = table[v]
    for at in range(0, len(weights), densities):
        total = sum(weights[at : at + densities])
        for d in range(at, at + densities):
            weights[d] /= total
    body = array("I", [senones, streams, densities, len(weights)]).tobytes() + weights.tobytes()
    header = b"s3\nversion 1.0\nchksum0 yes\n" + b" " * 2 + b"endhdr\n"  # 4-byte aligned
    out.write_bytes(
        header + struct.pack("<I", 0x11223344) + body + struct.pack("<I", _checksum(body))
    )


@dataclass(frozen=True)
class Recording:
    """One recording to adapt on: its audio and the words said, as the dictionary
    spells them."""

    audio: Path
    words: tuple[str, ...]


def _run(args: Sequence[str], log: Path) -> None:
    """Run a program, its output to ``log``; a failure names the program and the log."""
    with log.open("ab") as f:
        done = subprocess.run(args, stdout=f, stderr=subprocess.STDOUT, check=False)
    if done.returncode != 0:
        raise SpeechUnavailable(f"{Path(args[0]).name} failed (see {log})")


def adapt(
    model: Path,
    dictionary: Path,
    recordings: Sequence[Recording],
    out: Path,
    step: Callable[[str], None] = lambda _: None,
    prior: Path | None = None,
    method: str = "map",
    tau: float | None = None,
) -> None:
    """MAP-adapt the model folder ``model`` to the recordings; write the adapted
    ``means`` and ``variances`` into ``out`` (see the module docstring).

    :param dictionary: the pronunciations of every word said (PocketSphinx's format).
    :param prior: a folder whose ``means`` and ``variances`` replace the model's (a model
        already adapted to the language, adapted further to one voice).
    :param step: told the name of each step as it starts (for a progress bar).
    :param method: ``"map"`` (the means and variances) or ``"mllr"`` (one global linear
        transform of the means, written as ``mllr_matrix``: far fewer parameters, so it
        learns the recordings' channel and speaking style more than their voices).
    :param tau: with MAP, a fixed prior weight for every Gaussian instead of sphinxtrain's
        Bayesian update of the means (larger: closer to the prior model).
    :raises SpeechUnavailable: a program is missing or fails.
    """
    gauss = prior or model
    programs = {n: tool(n) for n in ("pocketsphinx_mdef_convert", "sphinx_fe", "bw", "map_adapt")}
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="callbets-adapt-") as tmp:
        work = Path(tmp)
        log = out / "adapt.log"
        log.write_text("")
        step("model")
        _run([programs["pocketsphinx_mdef_convert"], "-text", str(model / "mdef"),
              str(work / "mdef.txt")], log)  # fmt: skip
        write_mixture_weights(model / "sendump", work / "mixture_weights")
        step("features")
        ids = [f"u{k:05d}" for k in range(len(recordings))]
        (work / "wav").mkdir()
        for uid, rec in zip(ids, recordings, strict=True):
            (work / "wav" / f"{uid}.wav").symlink_to(rec.audio.resolve())
        (work / "fileids").write_text("".join(f"{uid}\n" for uid in ids))
        (work / "transcription").write_text(
            "".join(
                f"<s> {' '.join(r.words)} </s> ({uid})\n"
                for uid, r in zip(ids, recordings, strict=True)
            )
        )
        _run([programs["sphinx_fe"], "-argfile", str(model / "feat.params"), "-samprate", "16000",
              "-c", str(work / "fileids"), "-di", str(work / "wav"), "-do", str(work / "mfc"),
              "-ei", "wav", "-eo", "mfc", "-mswav", "yes"], log)  # fmt: skip
        step("counts")
        _run([programs["bw"], "-moddeffn", str(work / "mdef.txt"),
              "-meanfn", str(gauss / "means"), "-varfn", str(gauss / "variances"),
              "-mixwfn", str(work / "mixture_weights"),
              "-tmatfn", str(model / "transition_matrices"), "-ts2cbfn", ".ptm.",
              "-feat", "1s_c_d_dd", "-svspec", "0-12/13-25/26-38", "-cmn", "current",
              "-agc", "none", "-dictfn", str(dictionary), "-fdictfn", str(model / "noisedict"),
              "-ctlfn", str(work / "fileids"), "-lsnfn", str(work / "transcription"),
              "-cepdir", str(work / "mfc"), "-accumdir", str(work)], log)  # fmt: skip
        step("update")
        if method == "mllr":
            _run([tool("mllr_solve"), "-meanfn", str(gauss / "means"),
                  "-varfn", str(gauss / "variances"), "-accumdir", str(work),
                  "-outmllrfn", str(out / "mllr_matrix")], log)  # fmt: skip
            return
        fixed = [] if tau is None else ["-bayesmean", "no", "-fixedtau", "yes", "-tau", str(tau)]
        _run([programs["map_adapt"], *fixed,
              "-moddeffn", str(work / "mdef.txt"), "-ts2cbfn", ".ptm.",
              "-meanfn", str(gauss / "means"), "-varfn", str(gauss / "variances"),
              "-mixwfn", str(work / "mixture_weights"),
              "-tmatfn", str(model / "transition_matrices"), "-accumdir", str(work),
              "-mapmeanfn", str(out / "means"), "-mapvarfn", str(out / "variances"),
              "-mapmixwfn", str(work / "mixture_weights.map"),
              "-maptmatfn", str(work / "transition_matrices.map")], log)  # fmt: skip


def transform_means(prior: Path, matrix: Path, out: Path, log: Path) -> None:
    """``prior``'s means moved by one MLLR transform (``mllr_transform``), with its
    variances, into ``out``: the prior of a MAP adaptation that starts from where one
    global transform already takes the model ("MLLR before MAP").

    :raises SpeechUnavailable: the program is missing or fails.
    """
    out.mkdir(parents=True, exist_ok=True)
    _run([tool("mllr_transform"), "-inmeanfn", str(prior / "means"),
          "-outmeanfn", str(out / "means"), "-mllrmat", str(matrix)], log)  # fmt: skip
    shutil.copy(prior / "variances", out / "variances")
