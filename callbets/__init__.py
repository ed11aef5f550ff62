"""callbets: roulette called bets, spoken or typed, into the exact chips on the layout.

>>> from callbets import parse
>>> parse("voisins du zéro à 5", "fr").total
45
"""

from .errors import AmbiguousError as AmbiguousError
from .errors import AnnouncementError as AnnouncementError
from .errors import CallbetsError as CallbetsError
from .errors import HouseError as HouseError
from .errors import IllegalBetError as IllegalBetError
from .errors import StakeError as StakeError
from .errors import UnrecognizedError as UnrecognizedError
from .language.parse import parse as parse
from .language.readback import readback as readback
from .roulette.announcement import Announcement as Announcement
from .roulette.announcement import Call as Call
from .roulette.announcement import PlacedCall as PlacedCall
from .roulette.announcement import Placement as Placement
from .roulette.announcement import parse_notation as parse_notation
from .roulette.house import House as House
from .roulette.house import find_house as find_house
from .roulette.layout import BetKind as BetKind
from .roulette.layout import Position as Position

__all__ = [
    "AmbiguousError",
    "Announcement",
    "AnnouncementError",
    "BetKind",
    "Call",
    "CallbetsError",
    "House",
    "HouseError",
    "IllegalBetError",
    "PlacedCall",
    "Placement",
    "Position",
    "StakeError",
    "UnrecognizedError",
    "find_house",
    "parse",
    "parse_notation",
    "readback",
]
