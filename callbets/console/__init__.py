"""``callbets console``: the typed console at the table.

* :mod:`.session`: what each line does to the table, and what the console says back
  (no terminal code, so it can be driven and tested directly);
* :mod:`.report`: the words and layout of what is shown (readback, settlement, status);
* :mod:`.app`: the terminal, on prompt_toolkit: line editing, completion, history, the
  status bar, Enter/Esc, and the voice key;
* :mod:`.zero`: the players' choices when a zero catches simple chances;
* :mod:`.words`: the console's words in the table's language (``grammar/console.toml``);
* :mod:`.voice`: listening in the background, feeding what is heard to the same line.
"""
