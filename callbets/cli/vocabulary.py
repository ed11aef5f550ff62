"""``callbets vocabulary`` and ``callbets houses``: what the grammar and the houses hold."""

from __future__ import annotations

import argparse
from typing import Any

from ..language.grammar import LANGUAGES
from ..language.vocabulary import sample_phrases, vocabulary
from ..roulette.house import DEFAULT_HOUSE, find_house, house_names
from .options import EXIT_OK, lang_code, whole_number


def cmd_vocabulary(args: argparse.Namespace) -> int:
    """Print the words, samples, the Vosk phrase list or the language model."""
    if args.phrases or args.lm:
        from ..speech.lm import model  # start-up time: about 5 ms here, for these two only
        from ..speech.phrases import phrase_list  # (the same)

        print(model(args.lang).arpa() if args.lm else "\n".join(phrase_list(args.lang)))
        return EXIT_OK
    if args.samples:
        for phrase in sample_phrases(args.lang, args.samples, args.seed, find_house(args.house)):
            print(phrase)
    else:
        print("\n".join(vocabulary(args.lang)))
    return EXIT_OK


def cmd_houses(args: argparse.Namespace) -> int:
    """List the shipped house profiles; the default one is marked."""
    for name in house_names():
        mark = "*" if name == DEFAULT_HOUSE else " "
        print(f"{mark} {name:16} {find_house(name).description}")
    print(f"(* the default: --house {DEFAULT_HOUSE}; --house also takes a profile file)")
    return EXIT_OK


def add_commands(sub: Any) -> None:
    """Register ``vocabulary`` and ``houses`` on the top-level parser."""
    v = sub.add_parser(
        "vocabulary",
        help="list the words of a language, or generate sample announcements",
        description="The words the grammar knows (for recognisers and completion), "
        "or --samples N announcements generated from the grammar that parse.",
    )
    v.add_argument(
        "--lang", type=lang_code, choices=LANGUAGES, default="fr", help="language (default: fr)"
    )
    v.add_argument(
        "--samples",
        type=whole_number(1, 10_000),
        metavar="N",
        help="print N sample announcements (1 to 10000)",
    )
    v.add_argument("--seed", type=int, default=0, help="random seed for --samples")
    v.add_argument("--phrases", action="store_true", help="print the Vosk phrase list")
    v.add_argument("--lm", action="store_true", help="print the recognisers' language model (ARPA)")
    v.add_argument("--house", default=DEFAULT_HOUSE, metavar="NAME", help="house profile")
    v.set_defaults(run=cmd_vocabulary)
    h = sub.add_parser("houses", help="list the shipped house profiles (* marks the default)")
    h.set_defaults(run=cmd_houses)
