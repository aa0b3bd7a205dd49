"""Belote bots: "expert" (determinised search), "beginner" (heuristic) and "random"; every
bot sees only a `SeatView`. `make_bot` builds one by level; `play_hand`/`play_match` run
bots without the framework."""

from __future__ import annotations

from .heuristic import HeuristicBot, trump_strength
from .levels import ALIASES as BOT_ALIASES
from .levels import LEVELS as BOT_LEVELS
from .levels import level_of, make_bot
from .matches import MatchResult, play_dealt_hand, play_hand, play_match
from .random_bot import RandomBot
from .search import SearchBot, SearchBudget
from .views import Bot, SeatView, bid_view, play_view

__all__ = ["Bot", "SeatView", "bid_view", "play_view", "RandomBot", "HeuristicBot", "SearchBot",
           "SearchBudget", "trump_strength", "MatchResult", "play_dealt_hand", "play_hand",
           "play_match", "BOT_LEVELS", "BOT_ALIASES", "level_of", "make_bot"]
