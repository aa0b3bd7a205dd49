"""Bot levels by name: "expert" (search), "beginner" (heuristic), "random", and the older
names still found on tables in progress ("heuristic", "search", "default")."""

from __future__ import annotations

import random

from .heuristic import HeuristicBot
from .random_bot import RandomBot
from .search import SearchBot, SearchBudget
from .views import Bot

LEVELS: tuple[str, ...] = ("expert", "beginner", "random")
"""The levels a seat can be given, strongest first (the first is the default)."""

ALIASES: dict[str, str] = {"search": "expert", "heuristic": "beginner", "default": "expert"}
"""Other names for the levels (older tables, the command line)."""


def level_of(kind: str | None) -> str:
    """The level a bot kind names (an unknown or missing kind plays the default level).

    >>> level_of("heuristic"), level_of(None), level_of("random")
    ('beginner', 'expert', 'random')
    """
    if kind in LEVELS:
        return kind
    return ALIASES.get(kind or "default", LEVELS[0])


def make_bot(kind: str | None, rng: random.Random, budget: SearchBudget | None = None) -> Bot:
    """A bot of the level ``kind`` names, drawing from ``rng`` (``budget``: the expert's)."""
    level = level_of(kind)
    if level == "random":
        return RandomBot(rng)
    if level == "beginner":
        return HeuristicBot(rng)
    return SearchBot(rng, budget)
