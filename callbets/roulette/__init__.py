"""The game of roulette: pure, it knows no language and no storage.

* :mod:`.layout`: the numbers, the wheel, every position and what it pays;
* :mod:`.tableau`: where each position sits on the cloth (for the pictures);
* :mod:`.house`: a casino's rules, read from ``callbets/houses/*.toml``;
* :mod:`.catalogue`: every called bet, chip by chip;
* :mod:`.announcement`: calls, their stakes and the chips they place;
* :mod:`.limits`: the house's minimums and maximums across the table;
* :mod:`.settle`: a spin paid position by position (prison, partage, the zero rules);
* :mod:`.replay`: a winning call played again (à refaire, à compléter, pour le tout).

Everything above (the language, the table, speech, the doors) builds on these; nothing
here imports from them.
"""
