"""Belote: the French trick-taking game for two teams of two, classic or contrée."""

from framework.game.registry import GameInfo

GAME_INFO = GameInfo(
    name="belote",
    display_name="Belote",
    min_players=4,
    max_players=4,
    suggested_players=(4,),
    estimated_duration_min=30,
    reflexion_time_s=300,
    extra_time_s=20,
    tie_breaker_description="Points scored by the team in the last hand",
    description="Two teams of two take tricks with trumps, belote-rebelote and announcements; "
                "classic (take or pass on a turned-up card) or contrée (bids and coinche).",
)
