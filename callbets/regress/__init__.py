"""Regression suites of announcements, typed or recorded: :mod:`.runner` scores a suite
(``callbets regress``), :mod:`.record` records one at a microphone."""
