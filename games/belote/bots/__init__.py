"""Belote bots: "expert" (determinised search), "beginner" (heuristic) and "random"; every
bot sees only a `SeatView`. `make_bot` builds one by level; `play_hand`/`play_match` run
bots without the framework."""

from __future__ import annotations

from .heuristic import HeuristicBot, trump_strength
from .matches import MatchResult, play_dealt_hand, play_hand, play_match
from .random_bot import RandomBot
from .views import Bot, SeatView, bid_view, play_view

__all__ = ["Bot", "SeatView", "bid_view", "play_view", "RandomBot", "HeuristicBot",
           "trump_strength", "MatchResult", "play_hand", "play_match"]
