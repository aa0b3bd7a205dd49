"""The table options of a Belote game (`Rules`): classic or contrée and their variants."""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any, Literal

from .errors import RulesError

Variant = Literal["classic", "contree"]
UndertrumpRule = Literal["required", "optional"]
MultiplierRule = Literal["contract", "whole"]
AnnounceTieRule = Literal["nearest", "nobody"]


@dataclass(frozen=True)
class Rules:
    """Table options. Defaults are Board Game Arena's classic Belote.

    Attributes:
        variant: ``"classic"`` (take/pass on a turned card) or ``"contree"`` (bids 80..160).
        undertrump: a player void in the led suit whose opponent is winning must trump, and
            must overtrump a trump already played when possible. When that is impossible,
            ``"required"``: play a lower trump; ``"optional"``: play any card (lower trump or
            discard). With ``"optional"`` a trick not yet trumped must still be trumped, and a
            trump lead must still be overtaken when possible (as in the golden hands of
            ``contree-undertrump-optional.jsonl``).
        second_round_any_suit: classic, second round may also name the turned card's suit.
        all_no_trumps: allow all-trumps and no-trumps contracts (classic: a third round).
        contree_raise_sequence: contrée, after three passes the declarer may raise once,
            then the opponents may double and the declarer's team redouble.
        belote_to_defence_on_failed: contrée, a failed contract gives the takers' belote to
            the defence.
        multiplier: contrée, coinche multiplies the ``"contract"`` value or the ``"whole"``
            hand score.
        announcements: score tierce/quarte/quinte/carré announcements.
        announce_tie: equal best announcements: ``"nearest"`` (player nearest the first
            speaker wins) or ``"nobody"`` scores.
        target: game end score (used by the game code).
    """

    variant: Variant = "classic"
    undertrump: UndertrumpRule = "required"
    second_round_any_suit: bool = False
    all_no_trumps: bool = False
    contree_raise_sequence: bool = False
    belote_to_defence_on_failed: bool = False
    multiplier: MultiplierRule = "contract"
    announcements: bool = False
    announce_tie: AnnounceTieRule = "nearest"
    target: int = 1000

    def __post_init__(self) -> None:
        choices: dict[str, tuple[object, ...]] = {
            "variant": ("classic", "contree"),
            "undertrump": ("required", "optional"),
            "multiplier": ("contract", "whole"),
            "announce_tie": ("nearest", "nobody"),
        }
        for name, allowed in choices.items():
            if getattr(self, name) not in allowed:
                value = getattr(self, name)
                raise RulesError(f"rules.{name} must be one of {allowed}, not {value!r}")
        for item in fields(self):
            if item.type == "bool" and not isinstance(getattr(self, item.name), bool):
                raise RulesError(f"rules.{item.name} must be true or false")
        if not isinstance(self.target, int) or isinstance(self.target, bool) or self.target <= 0:
            raise RulesError(f"rules.target must be a positive integer, not {self.target!r}")

    @property
    def is_contree(self) -> bool:
        return self.variant == "contree"

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Rules:
        """Rules from a JSON object whose keys are field names; absent keys take defaults.

        >>> Rules.from_dict({"variant": "contree"}).undertrump
        'required'

        Raises:
            RulesError: unknown key or bad value.
        """
        if not isinstance(data, dict):
            raise RulesError("rules must be an object")
        known = {item.name for item in fields(cls)}
        unknown = sorted(set(data) - known)
        if unknown:
            raise RulesError(f"unknown rules key(s): {', '.join(unknown)}")
        return cls(**data)

    def to_dict(self) -> dict[str, Any]:
        """All fields as a JSON-ready dictionary."""
        return {item.name: getattr(self, item.name) for item in fields(self)}
