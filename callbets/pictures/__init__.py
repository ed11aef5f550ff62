"""Pictures of the layout with its chips: :mod:`.drawing` as text for a terminal,
:mod:`.svg` as an SVG image with the wheel."""
