"""The outcome of bidding: a `Contract` (trump, taker, contrée value and coinche)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .errors import RulesError
from .trumps import (
    CAPOT_VALUE,
    CONTREE_VALUES,
    GENERALE_VALUE,
    Trump,
    trump_from_str,
    trump_to_str,
)


@dataclass(frozen=True)
class Contract:
    """The outcome of bidding.

    Attributes:
        trump: trump suit, all trumps or no trumps.
        taker: seat that took (classic) or made the last bid (contrée).
        value: contrée bid (80..160, 250 for capot, 500 for the générale); None in classic.
        coinche: 0 none, 1 coinched (doubled), 2 surcoinched (redoubled).
    """

    trump: Trump
    taker: int
    value: int | None = None
    coinche: int = 0

    def __post_init__(self) -> None:
        if self.taker not in range(4):
            raise RulesError(f"contract taker must be a seat 0..3, not {self.taker!r}")
        if self.coinche not in (0, 1, 2):
            raise RulesError(f"contract coinche must be 0, 1 or 2, not {self.coinche!r}")
        if self.value is not None and self.value not in CONTREE_VALUES + (CAPOT_VALUE,
                                                                          GENERALE_VALUE):
            raise RulesError("contract value must be 80..160 by 10, 250 (capot) or 500 "
                             f"(générale), not {self.value!r}")

    @property
    def taker_team(self) -> int:
        return self.taker % 2

    @property
    def is_capot_bid(self) -> bool:
        return self.value == CAPOT_VALUE

    @property
    def is_generale_bid(self) -> bool:
        """The générale: the taker alone must take all eight tricks."""
        return self.value == GENERALE_VALUE

    def to_dict(self) -> dict[str, Any]:
        """JSON shape used by hand records."""
        data: dict[str, Any] = {
            "trump": trump_to_str(self.trump), "taker": self.taker, "coinche": self.coinche,
        }
        if self.value is not None:
            data["value"] = self.value
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Contract:
        """Inverse of `to_dict`.

        Raises:
            RulesError: missing or bad fields.
            CardError: bad trump code.
        """
        if not isinstance(data, dict) or "trump" not in data or "taker" not in data:
            raise RulesError("contract must be an object with 'trump' and 'taker'")
        return cls(
            trump=trump_from_str(data["trump"]),
            taker=data["taker"],
            value=data.get("value"),
            coinche=data.get("coinche", 0),
        )
