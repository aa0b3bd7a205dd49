"""The random bot: uniformly random legal bids and cards (level "random")."""

from __future__ import annotations

import random

from ..rules import Bid, Card
from .views import SeatView


class RandomBot:
    """Uniformly random legal bids and cards."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def choose_bid(self, view: SeatView) -> Bid:
        return self.rng.choice(view.legal_bids)

    def choose_card(self, view: SeatView) -> Card:
        return self.rng.choice(view.legal_cards)
