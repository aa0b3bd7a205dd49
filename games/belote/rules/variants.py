"""The table options of a Belote game (`Rules`): classic or contrée and their variants."""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any, Literal

from .errors import RulesError

Variant = Literal["classic", "contree"]
UndertrumpRule = Literal["required", "optional"]
MultiplierRule = Literal["contract", "whole"]
AnnounceTieRule = Literal["nearest", "nobody"]
ContreeScoringRule = Literal["bga", "ffb"]
LitigeAtEndRule = Literal["lost", "played_out"]


@dataclass(frozen=True)
class Rules:
    """Table options. Defaults are Board Game Arena's classic Belote and the readings
    Arena had before a rule became an option, so a hand record that lacks a key replays as
    it did when it was written (new tables get their defaults from `options.OPTIONS`).

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
        contree_scoring: contrée, ``"bga"`` (BGA's seed 002 reading: made on reaching the
            bid, coinche per ``multiplier``) or ``"ffb"`` (the French federation's: the takers
            must reach the bid and score more than the defence; a coinched contract gives
            (160 + bid) x 2, x 4 surcoinched, to the side that wins it and 0 to the other;
            a capot is worth 250 card points). See `scoring.score_hand`.
        round_points: contrée, the points made (cards and dix de der) are written rounded to
            the nearest ten (a 5 rounds down: 85 -> 80, 86 -> 90); made or failed is decided
            on the exact points.
        generale: contrée, the générale may be bid (above capot: the taker alone takes all
            eight tricks; 500, scored as a contract of that value, see `scoring.score_hand`).
        litige_at_end: classic, points held by a contention when the target is reached:
            ``"lost"`` (the game ends) or ``"played_out"`` (the game goes on until a hand is
            won, which takes them).
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
    contree_scoring: ContreeScoringRule = "bga"
    round_points: bool = False
    generale: bool = False
    litige_at_end: LitigeAtEndRule = "lost"
    announcements: bool = False
    announce_tie: AnnounceTieRule = "nearest"
    target: int = 1000

    def __post_init__(self) -> None:
        choices: dict[str, tuple[object, ...]] = {
            "variant": ("classic", "contree"),
            "undertrump": ("required", "optional"),
            "multiplier": ("contract", "whole"),
            "announce_tie": ("nearest", "nobody"),
            "contree_scoring": ("bga", "ffb"),
            "litige_at_end": ("lost", "played_out"),
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

    @property
    def is_ffb(self) -> bool:
        """Contrée scored by the French federation's rules."""
        return self.is_contree and self.contree_scoring == "ffb"

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
