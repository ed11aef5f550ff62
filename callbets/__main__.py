"""``python -m callbets``."""

import sys

from .cli import main

sys.exit(main())
