"""Pure Belote rules: cards, contracts, bidding, legal play, tricks, announcements and scoring.

No I/O, no clock, no global random: everything here is a function of its arguments.
"""

from __future__ import annotations

from .announcements import Announcement, compare_announcements, detect_announcements
from .bidding import (
    COINCHE,
    PASS,
    SURCOINCHE,
    TAKE,
    Bid,
    Bidding,
    BidKind,
    ClassicBidding,
    ContreeBidding,
    new_bidding,
)
from .cards import (
    CARDS,
    FULL_DECK_MASK,
    SUIT_MASKS,
    Card,
    Rank,
    Suit,
    cards_of,
    mask_of,
    parse_cards,
    sort_cards,
)
from .contracts import Contract
from .dealing import deal_classic_first, deal_classic_rest, deal_contree
from .errors import BeloteError, CardError, IllegalBidError, IllegalMoveError, RulesError
from .play import PlayState, Trick, explain_illegal, legal_cards, legal_mask
from .scoring import HandScore, Outcome, score_hand
from .trumps import (
    ALL_TRUMP_POINTS,
    ALL_TRUMPS,
    BEATEN_BY,
    BELOTE_POINTS,
    CAPOT_POINTS,
    CAPOT_VALUE,
    CARD_POINTS_TOTAL,
    CONTREE_FAILED_POINTS,
    CONTREE_VALUES,
    GENERALE_VALUE,
    HAND_POINTS_TOTAL,
    LAST_TRICK_BONUS,
    NO_TRUMP_POINTS,
    NO_TRUMPS,
    ORDER_BY_TRUMP,
    PLAIN_ORDER,
    PLAIN_POINTS,
    POINTS_BY_TRUMP,
    SEQUENCE_ORDER,
    TRUMP_ORDER,
    TRUMP_POINTS,
    Trump,
    TrumpMode,
    beats,
    card_points,
    trick_points,
    trick_winner,
    trump_code,
    trump_from_code,
    trump_from_str,
    trump_to_str,
)
from .variants import AnnounceTieRule, MultiplierRule, Rules, UndertrumpRule, Variant

__all__ = [
    # errors
    "BeloteError", "IllegalMoveError", "IllegalBidError", "RulesError", "CardError",
    # cards
    "Suit", "Rank", "Card", "CARDS", "FULL_DECK_MASK", "SUIT_MASKS", "mask_of", "cards_of", "parse_cards",
    "sort_cards",
    # trumps
    "TrumpMode", "Trump", "ALL_TRUMPS", "NO_TRUMPS", "PLAIN_POINTS", "TRUMP_POINTS", "NO_TRUMP_POINTS",
    "ALL_TRUMP_POINTS", "PLAIN_ORDER", "TRUMP_ORDER", "SEQUENCE_ORDER", "LAST_TRICK_BONUS",
    "CARD_POINTS_TOTAL", "HAND_POINTS_TOTAL", "CAPOT_POINTS", "BELOTE_POINTS", "CONTREE_FAILED_POINTS",
    "CONTREE_VALUES", "CAPOT_VALUE", "GENERALE_VALUE", "trump_code", "trump_from_code", "trump_from_str",
    "trump_to_str",
    "POINTS_BY_TRUMP", "ORDER_BY_TRUMP", "BEATEN_BY", "card_points", "beats", "trick_winner", "trick_points",
    # variants
    "Variant", "UndertrumpRule", "MultiplierRule", "AnnounceTieRule", "Rules",
    # contracts
    "Contract",
    # bidding
    "BidKind", "Bid", "PASS", "TAKE", "COINCHE", "SURCOINCHE", "Bidding", "ClassicBidding", "ContreeBidding",
    "new_bidding",
    # announcements
    "Announcement", "detect_announcements", "compare_announcements",
    # scoring
    "Outcome", "HandScore", "score_hand",
    # play
    "legal_mask", "legal_cards", "explain_illegal", "Trick", "PlayState",
    # dealing
    "deal_contree", "deal_classic_first", "deal_classic_rest",
]
