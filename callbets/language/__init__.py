"""The language of announcements: words into calls, and calls back into words.

It knows the game (:mod:`callbets.roulette`), not the table.  The words themselves are
data in ``grammar/`` (one ``<lang>.lark`` per language, ``shared.lark`` for the shape of
an announcement, ``*.toml`` for what is said back); no language appears in this code.

From text to an announcement:

* :mod:`.normalize`: case, accents, signs and digits, word by word;
* :mod:`.lexicon`: the longest phrase of the language's terminals at each word;
* :mod:`.numbers`: number words grouped into numbers, every grouping;
* :mod:`.tokens`: the role a token takes from its neighbours (amount, count, range…);
* :mod:`.grammar`: the Lark grammar of a language, loaded once;
* :mod:`.transform`: the parse tree into a flat list of elements;
* :mod:`.assemble`: elements into calls with stakes (language-neutral rules);
* :mod:`.parse`: all of the above, with the readings tried and the questions asked.

And back: :mod:`.readback` (what the croupier says back), :mod:`.dialogue` and
:mod:`.talk` (confirmations, choices and table talk), :mod:`.vocabulary` (every word and
generated announcements, for recognisers and completion).
"""
