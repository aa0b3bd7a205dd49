"""Error classes of the Belote engine: one narrow `ValueError` subclass per kind of mistake."""

from __future__ import annotations


class BeloteError(ValueError):
    """Base class of every error raised by the Belote engine."""


class IllegalMoveError(BeloteError):
    """A card that the seat to play may not play now (or does not hold)."""


class IllegalBidError(BeloteError):
    """A bid that is not allowed at this point of the bidding."""


class RulesError(BeloteError):
    """A `Rules` value or rules dictionary that makes no sense."""


class CardError(BeloteError):
    """A card code, card set or deal that is malformed."""
