"""Statistics of Belote: ids are forever (players' history is keyed on them)."""

from framework.game.stats import Stat
from framework.i18n import clienttranslate

STATS = [
    Stat(10, "hands_played", clienttranslate("Hands played"), "int", "table"),
    Stat(11, "hands_cancelled", clienttranslate("Hands dealt again (everybody passed)"), "int", "table"),
    Stat(12, "capots", clienttranslate("Capots"), "int", "table"),
    Stat(13, "contentions", clienttranslate("Contentions (tied hands)"), "int", "table"),
    Stat(14, "belotes", clienttranslate("Belote-rebelote"), "int", "table"),
    Stat(15, "coinched_contracts", clienttranslate("Coinched contracts"), "int", "table"),
    Stat(16, "announcement_points", clienttranslate("Announcement points scored"), "int", "table"),

    Stat(10, "contracts_taken", clienttranslate("Contracts taken"), "int", "player"),
    Stat(11, "contracts_made", clienttranslate("Contracts made"), "int", "player"),
    Stat(12, "contracts_failed", clienttranslate("Contracts failed"), "int", "player"),
    Stat(13, "capots", clienttranslate("Capots won"), "int", "player"),
    Stat(14, "belotes", clienttranslate("Belote-rebelote held"), "int", "player"),
    Stat(15, "points_per_hand", clienttranslate("Points per hand (team average)"), "float", "player"),
    Stat(16, "announcement_points", clienttranslate("Announcement points scored"), "int", "player"),
    Stat(17, "tricks_won", clienttranslate("Tricks won"), "int", "player"),
    Stat(18, "coinches", clienttranslate("Coinches"), "int", "player"),
]
