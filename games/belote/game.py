"""Belote on Arena: the table rebuilds the pure rules objects (bidding, card play) from its
rows on every request, checks each move with them, stores it and notifies the players.

Seats are ``player_no - 1``; team 0 is seats 0 and 2, team 1 seats 1 and 3. Announcements
(when the option is on) are declared automatically: each player's are announced by kind
when they play their first card; when the first trick is over the scoring team is named and
shows its announcements' cards to everyone (drawn during the second trick, as the FFB has
them shown), and the end-of-hand breakdown lists them with their cards. The other team's
cards are never shown: only the kind of its announcements, which every player hears.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from typing import Any

from framework.core.errors import GameSystemError, UserError
from framework.game.deck import Deck
from framework.game.states import State
from framework.game.table import ActionContext, Table
from framework.i18n import clienttranslate

from . import material
from .bots import BOT_LEVELS, Bot, bid_view, make_bot, play_view
from .options import LEGACY_VALUES, GameLength, game_length, rules_from_options
from .records import parse_record, record_from_state
from .rules import (
    ALL_TRUMPS,
    CAPOT_VALUE,
    CARDS,
    GENERALE_VALUE,
    Bid,
    Bidding,
    BidKind,
    Card,
    CardError,
    ClassicBidding,
    ContreeBidding,
    HandScore,
    IllegalBidError,
    PlayState,
    Rank,
    Rules,
    Suit,
    Trick,
    TrumpMode,
    cards_of,
    compare_announcements,
    deal_classic_first,
    deal_classic_rest,
    deal_contree,
    mask_of,
    new_bidding,
    trump_code,
)
from .text_view import text_view as belote_text_view

NO_CARD = -1
_ALL_TRUMPS_CODE = trump_code(ALL_TRUMPS)
_BIDDING_STATES = ("playerBid", "contreeWindow")


#: statistics counted by `_hand_stats` and `_notify_bid` (see stats.py)
_TABLE_COUNTS = ("contracts_failed", "surcoinched_contracts")
_PLAYER_COUNTS = ("hands_defended", "dedans_inflicted", "dedans_suffered", "capots_conceded",
                  "coinches_won", "surcoinches", "surcoinches_won", "points_as_taker",
                  "points_as_defender", "tierces", "quartes", "quintes", "carres")
_PLAYER_RATES = ("contracts_made_rate", "defence_success_rate")

_CARD_BY_CODE = {str(card): card for card in CARDS}
_SUIT_INDEX = {suit.char: int(suit) for suit in Suit}

#: A hand's plays and held cards in one statement (``hand_kind`` 1 and 2), and the same with
#: its bids (``hand_kind`` 0): ``Belote._plays_and_dealt_masks``, which puts the bids and plays
#: in order (by ``hand_order``, their ids: an ORDER BY over the whole would sort every card row).
_PLAYS_AND_CARDS_READ = (
    "SELECT 1 AS hand_kind, play_seat AS hand_seat, play_card AS hand_code, 0 AS hand_rank, "
    "play_id AS hand_order FROM card_play WHERE play_hand = %s "
    "UNION ALL SELECT 2 AS hand_kind, card_location_arg AS hand_seat, card_type AS hand_code, "
    "card_type_arg AS hand_rank, card_id AS hand_order FROM card WHERE card_location = %s")
_HAND_READ = (
    "SELECT 0 AS hand_kind, bid_seat AS hand_seat, bid_code AS hand_code, 0 AS hand_rank, "
    "bid_id AS hand_order FROM bid WHERE bid_hand = %s UNION ALL " + _PLAYS_AND_CARDS_READ)


def _card_index(suit: str, rank: Any) -> int:
    """The index in ``CARDS`` of the card of ``suit`` (its letter) and ``rank``."""
    return _SUIT_INDEX[suit] * 8 + int(rank)


def _card_index_of_row(row: Mapping[str, Any]) -> int:
    """The index in ``CARDS`` of a ``card`` row's card (``card_type`` suit letter,
    ``card_type_arg`` rank)."""
    return _card_index(row["card_type"], row["card_type_arg"])


def _card_of_row(row: Mapping[str, Any]) -> Card:
    """The card of a ``card`` row."""
    return CARDS[_card_index_of_row(row)]


def _codes(cards: Iterable[Card]) -> list[str]:
    return [str(card) for card in sorted(cards)]


def _classic_bid_refusal(bidding: ClassicBidding, bid: Bid, rules: Rules) -> UserError:
    """Why ``bid`` is refused in classic belote, where each round allows other takes."""
    is_all_or_none = isinstance(bid.trump, TrumpMode)
    if bid.kind is not BidKind.TAKE:
        return UserError(clienttranslate("In classic belote you take or pass: ${bid} is a "
                                         "contrée bid"), "contree_bid_in_classic", bid=bid.code)
    turned_suit = {"trump_name": material.trump_name(bidding.turned.suit), "i18n": ["trump_name"]}
    if is_all_or_none and not rules.all_no_trumps:
        return UserError(clienttranslate("All trumps and no trumps are not played at this table"),
                         "no_all_no_trumps")
    if bidding.round == 1:
        return UserError(clienttranslate("In the first round you may only take the turned suit "
                                         "(${trump_name}) or pass"), "first_round_turned_suit",
                         **turned_suit)
    if bidding.round == 2:
        if bid.trump is None:
            return UserError(clienttranslate("In the second round, name the trump suit you take"),
                             "second_round_name_suit")
        if is_all_or_none:
            return UserError(clienttranslate("All trumps and no trumps may only be taken in the "
                                             "third round"), "all_no_trumps_third_round")
        return UserError(clienttranslate("In the second round, name another suit than "
                                         "${trump_name}"), "second_round_other_suit", **turned_suit)
    return UserError(clienttranslate("In the third round, take at all trumps or no trumps, or pass"),
                     "third_round_all_or_none")


def _contree_bid_refusal(bidding: ContreeBidding, bid: Bid, rules: Rules) -> UserError:
    """Why ``bid`` is refused in contrée: coinches, closing windows, then the auction's rules."""
    is_all_or_none = isinstance(bid.trump, TrumpMode)
    best = bidding.best
    if bid.kind is BidKind.TAKE:
        return UserError(clienttranslate("In contrée, bid a value and a trump, for example 80 hearts"),
                         "classic_bid_in_contree")
    if bid.kind is BidKind.COINCHE:
        if bidding.bidder is None:
            return UserError(clienttranslate("There is no bid to coinche yet"), "nothing_to_coinche")
        if (bidding.to_play - bidding.bidder) % 2 == 0:
            return UserError(clienttranslate("You cannot coinche your own team's bid"),
                             "coinche_own_team")
        return UserError(clienttranslate("The contract is already coinched"), "already_coinched")
    if bid.kind is BidKind.SURCOINCHE:
        return UserError(clienttranslate("Only the team whose bid was coinched may surcoinche, right "
                                         "after the coinche"), "cannot_surcoinche")
    if bidding.phase in ("surcoinche", "redouble", "double"):
        return UserError(clienttranslate("You may only ${window_action} or pass now"), "closing_phase",
                         window_action=material.WINDOW_ACTIONS[bidding.phase], i18n=["window_action"])
    if is_all_or_none and not rules.all_no_trumps:
        return UserError(clienttranslate("All trumps and no trumps are not played at this table"),
                         "no_all_no_trumps")
    if bid.value == GENERALE_VALUE and not rules.generale:
        return UserError(clienttranslate("The générale is not played at this table"),
                         "no_generale")
    if best is not None and best.value is not None and bid.value is not None and bid.value <= best.value:
        return UserError(clienttranslate("You must bid more than ${value}"), "bid_too_low",
                         value=best.value)
    if bidding.phase == "raise" and best is not None and best.trump is not None:
        return UserError(clienttranslate("You may only raise your bid in ${trump_name}"),
                         "raise_same_trump", trump_name=material.trump_name(best.trump),
                         i18n=["trump_name"])
    return UserError(clienttranslate("You cannot bid ${bid} now"), "illegal_bid", bid=bid.code)


class Belote(Table):
    """A table of Belote (classic or contrée) for four players in two teams."""

    #: The bot levels a seat can be given (the studio and the lobby offer them), strongest
    #: first; older kinds on tables in progress still play ("heuristic" is the beginner).
    BOT_KINDS = BOT_LEVELS
    #: What the studio and the lobby call each level (translated with the game's catalogue).
    BOT_LABELS = {"expert": clienttranslate("Expert"), "beginner": clienttranslate("Beginner"),
                  "random": clienttranslate("Random moves")}
    GLOBALS = {
        "dealer": 10,           # seat of the dealer of the current hand
        "hand_no": 11,          # hands dealt so far, cancelled ones included
        "hands_played": 12,     # hands played to the end
        "hands_cancelled": 13,  # deals where everybody passed
        "carried": 14,          # contention points waiting for the next hand
        "turned": 15,           # classic: index of the turned-up card, or -1
        "team0_score": 16,
        "team1_score": 17,
    }

    def __init__(self, ctx: ActionContext) -> None:
        super().__init__(ctx)
        self.cards = Deck(self, "card")
        # ``self.kept`` (the framework keeps it for the table's next action while no one
        # else writes the table) holds the rules, the seat order, and the current hand's
        # bidding and card play, rebuilt from rows when missing and kept in step with each
        # move stored (bots may play many in a row).

    # ------------------------------------------------------------------ setup
    def setup_new_game(self, players: Mapping[int, Mapping[str, Any]], options: Mapping[int, int]) -> None:
        self.cards.create_cards(
            [{"type": suit.char, "type_arg": int(rank), "nbr": 1} for suit in Suit for rank in Rank],
            "deck",
        )
        for label in self.GLOBALS:
            self.set_game_state_initial_value(label, 0)
        self.set_game_state_initial_value("turned", NO_CARD)
        self.set_game_state_initial_value("dealer", self.random.randrange(4))
        for key in ("hands_played", "hands_cancelled", "capots", "contentions", "belotes",
                    "coinched_contracts", "announcement_points", *_TABLE_COUNTS):
            self.init_stat("table", key, 0)
        for key in ("contracts_taken", "contracts_made", "contracts_failed", "capots", "belotes",
                    "announcement_points", "tricks_won", "coinches", *_PLAYER_COUNTS):
            self.init_stat("player", key, 0)
        for key in ("points_per_hand", *_PLAYER_RATES):
            self.init_stat("player", key, 0.0)

    def upgrade_table_db(self, from_version: int) -> None:
        """A table created before an option existed keeps the rule it was playing with."""
        for option_id, value in LEGACY_VALUES.items():
            if self.get_game_state_value(option_id) is None:
                self.set_game_state_initial_value(option_id, value)

    # ------------------------------------------------------------------ rows <-> rules objects
    @property
    def rules(self) -> Rules:
        """This table's rules, from its options."""
        rules: Rules | None = self.kept.get("rules")
        if rules is None:
            rules = self.kept["rules"] = rules_from_options(self._option_value)
        return rules

    def _option_value(self, key: str) -> int:
        """An option's value; an option newer than the table reads as `LEGACY_VALUES` says."""
        option = self.definition.options.by_key[key]
        if option.id in LEGACY_VALUES and self.get_game_state_value(option.id) is None:
            return LEGACY_VALUES[option.id]
        return self.get_option(key)

    @property
    def game_length(self) -> GameLength:
        return game_length(self._option_value)

    def player_order(self) -> list[int]:
        """Player ids by seat (seat = player_no - 1)."""
        order: list[int] | None = self.kept.get("order")
        if order is None:
            order = self.kept["order"] = list(self.load_players_basic_infos())
        return order

    def seat_of(self, player_id: int) -> int:
        return self.player_order().index(player_id)

    def _global(self, label: str) -> int:
        return int(self.get_game_state_value(label) or 0)

    @property
    def hand_no(self) -> int:
        return self._global("hand_no")

    @property
    def dealer(self) -> int:
        return self._global("dealer")

    @property
    def turned(self) -> Card | None:
        index = self.get_game_state_value("turned")
        return None if index is None or index < 0 else CARDS[index]

    def team_scores(self) -> tuple[int, int]:
        return self._global("team0_score"), self._global("team1_score")

    def bidding(self) -> Bidding:
        """The current hand's bidding, replayed from the ``bid`` rows (read it, never change it)."""
        bidding: Bidding | None = self.kept.get("bidding")
        if bidding is None:
            rows = self.get_object_list_from_db(
                "SELECT bid_seat, bid_code FROM bid WHERE bid_hand = %s ORDER BY bid_id", (self.hand_no,))
            bidding = self._replay_bids((int(row["bid_seat"]), row["bid_code"]) for row in rows)
        return bidding

    def _replay_bids(self, bids: Iterable[tuple[int, str]]) -> Bidding:
        """The hand's bidding from its bids (``(seat, bid code)``, in order), kept."""
        bidding = new_bidding(self.rules, self.dealer, self.turned)
        for seat, code in bids:
            bidding.apply(code, seat)
        self.kept["bidding"] = bidding
        return bidding

    def hands(self, plays: list[tuple[int, Card]] | None = None) -> list[list[Card]]:
        """Cards each seat holds now, sorted. A card played stays at its seat's ``hand``
        location until its trick is gathered (one write a card: its ``card_play`` row), so
        the cards of the current hand's plays are not held any more (``plays``: those plays,
        when the caller has read them already)."""
        state: PlayState | None = self.kept.get("play")
        if state is not None:
            return [cards_of(mask) for mask in state.hands]
        if plays is None and self.hand_no and self.bidding().contract is not None:
            plays, masks = self._plays_and_dealt_masks()
        else:
            masks = self._dealt_masks(plays or [])
        played = mask_of(card for _, card in plays or ())
        return [cards_of(mask & ~played) for mask in masks]

    def _dealt_masks(self, plays: list[tuple[int, Card]]) -> list[int]:
        """The card mask each seat was dealt this hand: what it holds at its ``hand``
        location (a card played stays there until its trick is gathered) and what it played
        (``plays``, the hand's plays)."""
        seats = {pid: seat for seat, pid in enumerate(self.player_order())}
        masks = [0, 0, 0, 0]
        for row in self.get_object_list_from_db(
            "SELECT card_type, card_type_arg, card_location_arg FROM card WHERE card_location = %s",
            ("hand",),
        ):
            masks[seats[int(row["card_location_arg"])]] |= 1 << _card_index_of_row(row)
        for seat, card in plays:
            masks[seat] |= 1 << card.index
        return masks

    def _plays_and_dealt_masks(self) -> tuple[list[tuple[int, Card]], list[int]]:
        """The hand's plays (``(seat, card)``, in order) and ``_dealt_masks`` in one statement;
        the ``bid`` rows too (replayed and kept) when the hand's bidding is not kept: what a
        worker reads of a hand in play whose table another worker played last."""
        with_bids = "bidding" not in self.kept
        hand = self.hand_no
        rows = self.get_object_list_from_db(_HAND_READ, (hand, hand, "hand")) if with_bids else \
            self.get_object_list_from_db(_PLAYS_AND_CARDS_READ, (hand, "hand"))
        seats = {pid: seat for seat, pid in enumerate(self.player_order())}
        masks = [0, 0, 0, 0]
        bids: list[tuple[int, int, str]] = []  # (row id, seat, code): sorted below
        played: list[tuple[int, int, str]] = []
        for r in rows:
            kind, seat, code = int(r["hand_kind"]), int(r["hand_seat"]), r["hand_code"]
            if kind == 2:
                masks[seats[seat]] |= 1 << _card_index(code, r["hand_rank"])
            else:
                (played if kind == 1 else bids).append((int(r["hand_order"]), seat, code))
        if with_bids:
            self._replay_bids((seat, code) for _, seat, code in sorted(bids))
        plays = [(seat, _CARD_BY_CODE[code]) for _, seat, code in sorted(played)]
        for seat, card in plays:
            masks[seat] |= 1 << card.index
        return plays, masks

    def play_state(self, bidding: Bidding | None = None) -> PlayState:
        """The current hand's card play, replayed (and checked) from the stored plays (read
        it, never change it).

        Raises:
            GameSystemError: there is no contract yet.
            BeloteError: the rows are inconsistent.
        """
        state: PlayState | None = self.kept.get("play")
        if state is None:
            plays, masks = self._plays_and_dealt_masks()  # with the bids when they were not kept
            bidding = bidding or self.bidding()
            if bidding.contract is None:
                raise GameSystemError("play_state: the current hand has no contract")
            state = PlayState(masks, bidding.contract, (self.dealer + 1) % 4, self.rules)
            for seat, card in plays:
                state.play(card, seat)
            self.kept["play"] = state
        return state

    def _move_cards(self, cards: Iterable[Card], location: str, location_arg: int) -> None:
        """Move cards, each found by its suit and rank (the deck has one of each): no read of
        the card ids first."""
        pairs = [(card.suit.char, int(card.rank)) for card in cards]
        if pairs:
            match = " OR ".join(["(card_type = %s AND card_type_arg = %s)"] * len(pairs))
            self.db_query(
                f"UPDATE card SET card_location = %s, card_location_arg = %s WHERE {match}",
                (location, location_arg, *(value for pair in pairs for value in pair)),
            )

    def _player_args(self, seat: int) -> dict[str, Any]:
        player_id = self.player_order()[seat]
        return {"player_id": player_id, "player_name": self.get_player_name_by_id(player_id)}

    def _team_args(self, team: int) -> dict[str, Any]:
        first, partner = self.player_order()[team], self.player_order()[team + 2]
        return {"player_id": first, "player_name": self.get_player_name_by_id(first),
                "partner_id": partner, "partner_name": self.get_player_name_by_id(partner),
                "team": team}

    # ------------------------------------------------------------------ views
    def get_all_datas(self, player_id: int | None) -> dict[str, Any]:
        order = self.player_order()
        state_name = self.gamestate.state().name
        bidding = self.bidding() if self.hand_no else None
        contract = bidding.contract if bidding is not None else None
        hands = self.hands()
        mine = order.index(player_id) if player_id in order else None
        turned = self.turned
        data: dict[str, Any] = {
            "rules": self.rules.to_dict(),
            "game_length": {"kind": self.game_length.kind, "amount": self.game_length.amount},
            "seats": {str(pid): seat for seat, pid in enumerate(order)},
            "teams": {str(pid): seat % 2 for seat, pid in enumerate(order)},
            "dealer": order[self.dealer],
            "hand_no": self.hand_no,
            "hands_played": self._global("hands_played"),
            "team_scores": list(self.team_scores()),
            "carried": self._global("carried"),
            "turned": str(turned) if turned is not None else None,
            "bids": [] if bidding is None else [
                {"player_id": order[seat], "bid": bid.code} for seat, bid in bidding.history],
            "contract": None if contract is None else {
                **contract.to_dict(), "taker": order[contract.taker],
                "name": material.contract_name(contract)},
            "hand": _codes(hands[mine]) if mine is not None else [],
            "hand_counts": {str(pid): len(hands[seat]) for seat, pid in enumerate(order)},
            "legal_bids": [],
            "legal_cards": [],
            "trick": [],
            "last_trick": None,
            "tricks_won": [0, 0],
            "announcements": [],
            "score_sheet": self.score_sheet(),
        }
        if bidding is not None and not bidding.is_over and state_name in _BIDDING_STATES:
            data["legal_bids"] = [bid.code for bid in bidding.legal_bids()]
        if bidding is not None and contract is not None and state_name not in ("newHand", "nextBidder"):
            state = self.play_state(bidding)
            data["trick"] = [{"player_id": order[(state.leader + i) % 4], "card": str(card)}
                             for i, card in enumerate(state.trick)]
            if state.tricks:
                last = state.tricks[-1]
                data["last_trick"] = {
                    "winner": order[last.winner], "points": last.points,
                    "cards": [{"player_id": order[(last.leader + i) % 4], "card": str(card)}
                              for i, card in enumerate(last.cards)]}
            data["tricks_won"] = list(state.tricks_won)
            if self.rules.announcements and state.played:
                data["announcements"] = self._declared(state, seats=range(min(state.played, 4)))
            if self.rules.announcements and len(state.tricks) == 1:
                data["shown_announcements"] = self._shown_announcements(state, compare_announcements(
                    state.announced, state.first_leader, state.trump, self.rules.announce_tie))
            acting = player_id == self.get_active_player_id() and mine == state.to_play
            if state_name == "playerTurn" and acting:
                data["legal_cards"] = _codes(state.legal_cards())
        return data

    def _declared(self, state: PlayState, seats: Iterable[int]) -> list[dict[str, Any]]:
        """Announcements declared by the seats that have played in the first trick (the
        first trick's leader first), by name and points: never their cards."""
        order = self.player_order()
        return [{"player_id": order[seat], "name": material.announcement_name(item), "points": item.points}
                for seat in ((state.first_leader + step) % 4 for step in seats)
                for item in state.announced[seat]]

    def score_sheet(self) -> list[dict[str, Any]]:
        """One line per played hand: contract, outcome, points and running totals per team."""
        order = self.player_order()
        return [{
            "hand": int(row["hand_no"]), "dealer": order[int(row["hand_dealer"])],
            "taker": order[int(row["hand_taker"])], "contract": json.loads(row["hand_contract"]),
            "outcome": row["hand_outcome"],
            "points": [int(row["hand_points0"]), int(row["hand_points1"])],
            "totals": [int(row["hand_total0"]), int(row["hand_total1"])],
            "breakdown": json.loads(row["hand_breakdown"]),
        } for row in self.get_object_list_from_db("SELECT * FROM hand_score ORDER BY hand_no")]

    def hand_records(self) -> list[dict[str, Any]]:
        """The records of every played hand, in order (see `records.replay`)."""
        return [json.loads(text) for text in self.get_object_list_from_db(
            "SELECT record_json FROM hand_record ORDER BY record_hand", single_column=True)]

    def hand_record(self, hand_no: int | None = None) -> dict[str, Any] | None:
        """The record of played hand ``hand_no`` (default: the last one), or None; for bug
        reports and ``arena belote replay`` (``arena belote record TABLE`` prints it)."""
        if hand_no is None:
            text = self.get_unique_value_from_db(
                "SELECT record_json FROM hand_record ORDER BY record_hand DESC LIMIT 1")
        else:
            text = self.get_unique_value_from_db(
                "SELECT record_json FROM hand_record WHERE record_hand = %s", (hand_no,))
        return None if text is None else json.loads(text)

    def get_game_progression(self) -> int:
        length = self.game_length
        if length.kind == "hands":
            done = self._global("hands_played")
        else:
            done = max(self.team_scores())
        return min(99, done * 100 // length.amount)

    def text_view(self, player_id: int | None) -> str:
        return belote_text_view(self, player_id)

    def rating_teams(self) -> list[list[int]]:
        """Partners share their team's result in ratings: seats 1 and 3, seats 2 and 4."""
        return [self.player_order()[team::2] for team in (0, 1)]

    def simulation_summary(self) -> dict[str, int]:
        """Summed by ``arena simulate belote``: hands, and the contracts with how many were
        at 160 or more (the contrée maximum short of capot) and how many of those failed."""
        summary = {"hands": self._global("hands_played"),
                   "cancelled_hands": self._global("hands_cancelled"),
                   "contracts": 0, "contracts_failed": 0, "contracts_coinched": 0,
                   "contracts_160": 0, "contracts_160_failed": 0}
        for row in self.get_object_list_from_db("SELECT hand_contract, hand_outcome FROM hand_score"):
            contract = json.loads(row["hand_contract"])
            failed = row["hand_outcome"] == "failed"
            summary["contracts"] += 1
            summary["contracts_failed"] += failed
            summary["contracts_coinched"] += bool(contract.get("coinche"))
            if (contract.get("value") or 0) >= 160:
                summary["contracts_160"] += 1
                summary["contracts_160_failed"] += failed
        return summary

    @classmethod
    def simulation_ratios(cls, totals: Mapping[str, int]) -> dict[str, float]:
        """Shares from summed `simulation_summary` values: contracts at 160 or more among
        all contracts, their failure rate, and the failure rate of all contracts.

        >>> Belote.simulation_ratios({"contracts": 10, "contracts_failed": 3,
        ...                           "contracts_160": 2, "contracts_160_failed": 1})
        {'share_160': 0.2, 'failure_rate_160': 0.5, 'failure_rate': 0.3}
        """
        contracts = totals.get("contracts", 0)
        at_160 = totals.get("contracts_160", 0)
        return {"share_160": round(at_160 / contracts, 4) if contracts else 0.0,
                "failure_rate_160": round(totals.get("contracts_160_failed", 0) / at_160, 4)
                if at_160 else 0.0,
                "failure_rate": round(totals.get("contracts_failed", 0) / contracts, 4)
                if contracts else 0.0}

    # ------------------------------------------------------------------ deal
    def st_new_hand(self) -> None:
        hand_no = self.inc_game_state_value("hand_no")
        dealer = self.dealer
        order = self.player_order()
        self.cards.move_all_cards_in_location(None, "deck")
        self.cards.shuffle("deck")
        deck = [_card_of_row({"card_type": c["type"], "card_type_arg": c["type_arg"]})
                for c in self.cards.get_cards_in_location("deck").values()]
        turned: Card | None = None
        if self.rules.is_contree:
            hands = deal_contree(deck, dealer)
        else:
            hands, turned = deal_classic_first(deck, dealer)
            self._move_cards([turned], "turned", 0)
        for seat, hand in enumerate(hands):
            self._move_cards(hand, "hand", order[seat])
        self.set_game_state_value("turned", turned.index if turned is not None else NO_CARD)
        self.kept.pop("bidding", None)
        self.kept.pop("play", None)
        if turned is None:
            self.notify_all_players(
                "newDeal", clienttranslate("Hand ${hand_no}: ${player_name} deals"),
                hand_no=hand_no, dealer=order[dealer], turned=None, **self._player_args(dealer))
        else:
            self.notify_all_players(
                "newDeal", clienttranslate("Hand ${hand_no}: ${player_name} deals and turns up the "
                                           "${card_name}"),
                hand_no=hand_no, dealer=order[dealer], turned=str(turned),
                card_name=material.card_name(turned), i18n=["card_name"], **self._player_args(dealer))
        for seat, hand in enumerate(hands):
            self.notify_player(order[seat], "newHand", "", cards=_codes(hand), hand_no=hand_no)
        self.gamestate.change_active_player(order[(dealer + 1) % 4])
        self.gamestate.next_state("bid")

    def _deal_rest(self, taker: int) -> None:
        """Classic: the taker gets the turned-up card and 2 more, the others 3 each."""
        turned = self.turned
        assert turned is not None
        hands = self.hands()
        rest = [_card_of_row({"card_type": c["type"], "card_type_arg": c["type_arg"]})
                for c in self.cards.get_cards_in_location("deck").values()]
        # deal_classic_rest reads only the turned card (position 20) and the 11 after it.
        deck = [card for hand in hands for card in hand] + [turned] + rest
        full = deal_classic_rest(deck, self.dealer, hands, taker)
        order = self.player_order()
        for seat in range(4):
            extra = [card for card in full[seat] if card not in hands[seat]]
            self._move_cards(extra, "hand", order[seat])
            self.notify_player(order[seat], "extraCards", "", cards=_codes(extra),
                               hand=_codes(full[seat]))

    # ------------------------------------------------------------------ bidding
    def arg_player_bid(self) -> dict[str, Any]:
        bidding = self.bidding()
        turned = self.turned
        return {"legal_bids": [bid.code for bid in bidding.legal_bids()],
                "round": bidding.round if isinstance(bidding, ClassicBidding) else None,
                "turned": str(turned) if turned is not None else None}

    def arg_contree_window(self) -> dict[str, Any]:
        bidding = self.bidding()
        phase = bidding.phase if isinstance(bidding, ContreeBidding) else "auction"
        return {"legal_bids": [bid.code for bid in bidding.legal_bids()], "phase": phase,
                "window_action": material.WINDOW_ACTIONS.get(phase, ""), "i18n": ["window_action"]}

    def act_bid(self, bid: str) -> None:
        self.check_action("bid")
        self._bid(self.seat_of(self.get_active_player_id()), bid)

    def _bid(self, seat: int, code: str) -> None:
        bidding = self.bidding()
        if bidding.is_over or seat != bidding.to_play:
            raise GameSystemError(f"seat {seat} bids but the bidding expects seat {bidding.to_play}")
        try:
            bid = Bid.from_code(code)
        except IllegalBidError:
            raise UserError(clienttranslate("${bid} is not a bid"), "bad_bid", bid=str(code)[:24]) from None
        if bid not in bidding.legal_bids():
            raise self._bid_refusal(bidding, bid)
        bidding.apply(bid, seat)  # the memo stays in step with the rows
        self.db_query("INSERT INTO bid (bid_hand, bid_seat, bid_code) VALUES (%s, %s, %s)",
                      (self.hand_no, seat, bid.code))
        self._notify_bid(seat, bid, bidding)
        self.gamestate.next_state("next")

    def _notify_bid(self, seat: int, bid: Bid, bidding: Bidding) -> None:
        who = {**self._player_args(seat), "bid": bid.code}
        if bid.kind is BidKind.PASS:
            self.notify_all_players("bid", clienttranslate("${player_name} passes"), **who)
        elif bid.kind is BidKind.TAKE:
            assert bidding.contract is not None
            self.notify_all_players("bid", clienttranslate("${player_name} takes at ${trump_name}"),
                                    trump_name=material.trump_name(bidding.contract.trump),
                                    i18n=["trump_name"], **who)
        elif bid.kind is BidKind.VALUE:
            assert bid.trump is not None
            if bid.value == CAPOT_VALUE:
                log = clienttranslate("${player_name} bids capot at ${trump_name}")
            elif bid.value == GENERALE_VALUE:
                log = clienttranslate("${player_name} bids the générale at ${trump_name}: to take "
                                      "all eight tricks alone")
            else:
                log = clienttranslate("${player_name} bids ${value} ${trump_name}")
            self.notify_all_players("bid", log, value=bid.value, trump_name=material.trump_name(bid.trump),
                                    i18n=["trump_name"], **who)
        elif bid.kind is BidKind.COINCHE:
            self.inc_stat(1, "coinches", who["player_id"])
            self.notify_all_players("bid", clienttranslate("${player_name} coinches"), **who)
        else:
            self.inc_stat(1, "surcoinches", who["player_id"])
            self.notify_all_players("bid", clienttranslate("${player_name} surcoinches"), **who)

    def _bid_refusal(self, bidding: Bidding, bid: Bid) -> UserError:
        """The specific reason why ``bid`` is refused now."""
        rules = self.rules
        if isinstance(bidding, ClassicBidding):
            return _classic_bid_refusal(bidding, bid, rules)
        assert isinstance(bidding, ContreeBidding)
        return _contree_bid_refusal(bidding, bid, rules)

    def st_next_bidder(self) -> None:
        bidding = self.bidding()
        order = self.player_order()
        if not bidding.is_over:
            self.gamestate.change_active_player(order[bidding.to_play])
            closing = isinstance(bidding, ContreeBidding) and bidding.phase != "auction"
            self.gamestate.next_state("window" if closing else "bid")
            return
        contract = bidding.contract
        if contract is None:
            self.inc_game_state_value("hands_cancelled")
            self.inc_stat(1, "hands_cancelled")
            self.set_game_state_value("dealer", (self.dealer + 1) % 4)
            self.notify_all_players("allPassed", clienttranslate("Everybody passes: the cards are dealt "
                                                                 "again"))
            self.gamestate.next_state("redeal")
            return
        if not self.rules.is_contree:
            self._deal_rest(contract.taker)
        self.notify_all_players(
            "contract", clienttranslate("${player_name} plays ${contract_name}"),
            contract={**contract.to_dict(), "taker": order[contract.taker]},
            contract_name=material.contract_name(contract), **self._player_args(contract.taker))
        self.gamestate.change_active_player(order[(self.dealer + 1) % 4])
        self.gamestate.next_state("play")

    # ------------------------------------------------------------------ card play
    def arg_player_turn(self) -> dict[str, Any]:
        state = self.play_state()
        return {"trick_size": len(state.trick), "tricks_played": len(state.tricks),
                "_private": {"active": {"legal_cards": _codes(state.legal_cards())}}}

    def act_play_card(self, card: str) -> None:
        self.check_action("play_card")
        self._play(self.seat_of(self.get_active_player_id()), card)

    def _play(self, seat: int, code: str) -> None:
        try:
            card = Card.from_str(code)
        except CardError:
            raise UserError(clienttranslate("${card} is not a card"), "bad_card",
                            card=str(code)[:16]) from None
        state = self.play_state()
        if state.is_over or seat != state.to_play:
            raise GameSystemError(f"seat {seat} plays but the hand expects seat {state.to_play}")
        if not state.legal_mask() >> card.index & 1:
            raise self._card_refusal(state, card)
        first_trick = state.played < 4
        state.play_unchecked(card.index)  # the memo stays in step with the rows
        self.db_query("INSERT INTO card_play (play_hand, play_seat, play_card) VALUES (%s, %s, %s)",
                      (self.hand_no, seat, str(card)))  # the card moves when its trick is gathered
        who = self._player_args(seat)
        self.notify_all_players("playCard", clienttranslate("${player_name} plays the ${card_name}"),
                                card=str(card), card_name=material.card_name(card), i18n=["card_name"], **who)
        self._notify_belote(state, seat, card)
        if first_trick and self.rules.announcements:
            for item in state.announced[seat]:
                self.notify_all_players(
                    "announce", clienttranslate("${player_name} announces a ${announcement_name}"),
                    announcement_name=material.announcement_name(item), points=item.points,
                    i18n=["announcement_name"], **who)
        self.gamestate.next_state("next")

    def _notify_belote(self, state: PlayState, seat: int, card: Card) -> None:
        """"Belote" when the holder of the trump king and queen plays the first of them,
        "Rebelote" with the second."""
        if card.rank not in (Rank.KING, Rank.QUEEN):
            return
        if state.code != _ALL_TRUMPS_CODE and card.suit != state.code:
            return
        king, queen = CARDS[card.suit * 8 + Rank.KING], CARDS[card.suit * 8 + Rank.QUEEN]
        pair = 1 << king.index | 1 << queen.index
        if state.start_hands[seat] & pair != pair:
            return
        other = queen if card == king else king
        who = self._player_args(seat)
        if state.hands[seat] >> other.index & 1:
            self.notify_all_players("belote", clienttranslate("${player_name} says Belote"), **who)
        else:
            self.notify_all_players("belote", clienttranslate("${player_name} says Rebelote"), **who)

    def _card_refusal(self, state: PlayState, card: Card) -> UserError:
        """The specific reason why ``card`` may not be played now."""
        reason = state.explain_illegal(card) or ""
        name = {"card_name": material.card_name(card), "i18n": ["card_name"]}
        led = {"suit_name": material.SUIT_NAMES[state.trick[0].suit] if state.trick else "",
               "i18n": ["suit_name"]}
        trump = {"suit_name": material.trump_name(state.trump), "i18n": ["suit_name"]}
        if reason == "does not hold it":
            return UserError(clienttranslate("You do not have the ${card_name}"), "not_in_hand", **name)
        if reason.startswith("must follow"):
            return UserError(clienttranslate("You must follow ${suit_name}"), "must_follow", **led)
        if reason.startswith("must play higher"):
            return UserError(clienttranslate("You must play a higher ${suit_name} if you can"),
                             "must_play_higher", **led)
        if reason.startswith("must overtrump"):
            winner = state.current_winner
            assert winner is not None
            best = state.trick[(winner - state.leader) % 4]
            return UserError(clienttranslate("You must overtrump the ${card_name}"), "must_overtrump",
                             card_name=material.card_name(best), i18n=["card_name"])
        if reason.startswith("must undertrump"):
            return UserError(clienttranslate("You cannot overtrump, but you must still play a trump "
                                             "(${suit_name})"), "must_undertrump", **trump)
        if reason.startswith("must trump"):
            return UserError(clienttranslate("You must trump with ${suit_name}"), "must_trump", **trump)
        return UserError(clienttranslate("You cannot play the ${card_name} now"), "illegal_card", **name)

    def st_next_player(self) -> None:
        state = self.play_state()
        order = self.player_order()
        if state.trick:
            self.gamestate.change_active_player(order[state.to_play])
            self.gamestate.next_state("next")
            return
        trick = state.tricks[-1]
        self._move_cards(trick.cards, "taken", order[trick.winner])
        if state.is_over:
            log = clienttranslate("${player_name} wins the last trick: ${points} points with the dix de der")
        else:
            log = clienttranslate("${player_name} wins the trick: ${points} points")
        self.notify_all_players("trickWin", log, points=trick.points, trick_no=len(state.tricks),
                                cards=[str(card) for card in trick.cards], **self._player_args(trick.winner))
        if len(state.tricks) == 1 and self.rules.announcements:
            self._notify_announcement_winner(state)
        if state.is_over:
            self.gamestate.next_state("endHand")
            return
        self.gamestate.change_active_player(order[trick.winner])
        self.gamestate.next_state("next")

    def _notify_announcement_winner(self, state: PlayState) -> None:
        if not any(state.announced):
            return
        team = compare_announcements(state.announced, state.first_leader, state.trump,
                                     self.rules.announce_tie)
        if team is None:
            self.notify_all_players("announcementsScore", clienttranslate(
                "Equal best announcements: neither team scores its announcements"), team=None, points=0)
            return
        points = sum(item.points for seat in (team, team + 2) for item in state.announced[seat])
        self.notify_all_players("announcementsScore", clienttranslate(
            "The announcements of ${player_name} and ${partner_name} count: ${points} points"),
            points=points, shown=self._shown_announcements(state, team), **self._team_args(team))

    def _shown_announcements(self, state: PlayState, team: int | None) -> list[dict[str, Any]]:
        """The announcements of the team whose announcements count, with their cards (what
        that team shows everyone); none for the other team or on a tie."""
        if team is None:
            return []
        order = self.player_order()
        return [{"player_id": order[seat], "name": material.announcement_name(item),
                 "points": item.points, "cards": [str(card) for card in item.cards]}
                for seat in ((state.first_leader + step) % 4 for step in range(4))
                if seat % 2 == team for item in state.announced[seat]]

    # ------------------------------------------------------------------ end of a hand
    def st_end_hand(self) -> None:
        bidding = self.bidding()
        state = self.play_state(bidding)
        contract = state.contract
        order = self.player_order()
        carried = self._global("carried")
        score = state.score(carried)
        hands_played = self.inc_game_state_value("hands_played")
        self.set_game_state_value("carried", score.carry_out)
        before = self.team_scores()
        totals = (before[0] + score.hand_score[0], before[1] + score.hand_score[1])
        self.set_game_state_value("team0_score", totals[0])
        self.set_game_state_value("team1_score", totals[1])
        breakdown = {
            **score.to_dict(),
            "belote_holders": [order[seat] for seat in state.belote_holders],
            "declared": self._declared(state, range(4)) if self.rules.announcements else [],
            "shown": (self._shown_announcements(state, score.announcement_team)
                      if self.rules.announcements else []),
            "tricks_per_player": {str(order[seat]): sum(1 for t in state.tricks if t.winner == seat)
                                  for seat in range(4)},
        }
        contract_json = {**contract.to_dict(), "taker": order[contract.taker]}
        self.db_query(
            "INSERT INTO hand_score (hand_no, hand_dealer, hand_taker, hand_contract, hand_outcome, "
            "hand_points0, hand_points1, hand_total0, hand_total1, hand_breakdown) "
            "VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s)",
            (self.hand_no, self.dealer, contract.taker, json.dumps(contract_json), score.outcome,
             score.hand_score[0], score.hand_score[1], totals[0], totals[1], json.dumps(breakdown)),
        )
        record = record_from_state(state, self.dealer, bids=[bid for _, bid in bidding.history],
                                   turned=self.turned, carried=carried)
        self.db_query("INSERT INTO hand_record (record_hand, record_json) VALUES (%s, %s)",
                      (self.hand_no, json.dumps(record)))
        for seat, player_id in enumerate(order):
            self.set_player_score(player_id, totals[seat % 2], score.hand_score[seat % 2])
        self._hand_stats(state, score, hands_played, totals)
        self._notify_hand_score(state, score, breakdown, totals)
        length = self.game_length
        reached = (hands_played >= length.amount if length.kind == "hands"
                   else max(totals) >= length.amount)
        if reached and totals[0] != totals[1] and not self._litige_plays_on(score):
            self.gamestate.next_state("endGame")
            return
        self.set_game_state_value("dealer", (self.dealer + 1) % 4)
        self.gamestate.next_state("nextHand")

    def _litige_plays_on(self, score: HandScore) -> bool:
        """Whether points held by a contention keep the game going (`Rules.litige_at_end`)."""
        return score.carry_out > 0 and self.rules.litige_at_end == "played_out"

    def _hand_stats(self, state: PlayState, score: HandScore, hands_played: int,
                    totals: tuple[int, int]) -> None:
        order = self.player_order()
        contract = state.contract
        taker = order[contract.taker]
        self.inc_stat(1, "hands_played")
        self.inc_stat(1, "contracts_taken", taker)
        if score.outcome == "made":
            self.inc_stat(1, "contracts_made", taker)
        elif score.outcome == "failed":
            self.inc_stat(1, "contracts_failed", taker)
        else:
            self.inc_stat(1, "contentions")
        if contract.coinche:
            self.inc_stat(1, "coinched_contracts")
        if score.capot_team is not None:
            self.inc_stat(1, "capots")
            for seat in (score.capot_team, score.capot_team + 2):
                self.inc_stat(1, "capots", order[seat])
        for seat in state.belote_holders:
            self.inc_stat(1, "belotes")
            self.inc_stat(1, "belotes", order[seat])
        for trick in state.tricks:
            self.inc_stat(1, "tricks_won", order[trick.winner])
        team = score.announcement_team
        if team is not None and self.rules.announcements:
            for seat in (team, team + 2):
                points = sum(item.points for item in state.announced[seat])
                if points:
                    self.inc_stat(points, "announcement_points", order[seat])
                    self.inc_stat(points, "announcement_points")
        for seat, player_id in enumerate(order):
            self.set_stat(totals[seat % 2] / hands_played, "points_per_hand", player_id)
        self._contract_stats(state, score)

    def _contract_stats(self, state: PlayState, score: HandScore) -> None:
        """Statistics of taking and defending, coinches, capots and announcements by kind."""
        order = self.player_order()
        takers = state.contract.taker_team
        coinchers = [seat for seat, bid in self.bidding().history if bid.kind is BidKind.COINCHE]
        surcoinchers = [seat for seat, bid in self.bidding().history
                        if bid.kind is BidKind.SURCOINCHE]
        if score.outcome == "failed":
            self.inc_stat(1, "contracts_failed")
        if surcoinchers:
            self.inc_stat(1, "surcoinched_contracts")
        for seat, player_id in enumerate(order):
            team = seat % 2
            if team == takers:
                self.inc_stat(score.hand_score[team], "points_as_taker", player_id)
                if score.outcome == "failed":
                    self.inc_stat(1, "dedans_suffered", player_id)
            else:
                self.inc_stat(1, "hands_defended", player_id)
                self.inc_stat(score.hand_score[team], "points_as_defender", player_id)
                if score.outcome == "failed":
                    self.inc_stat(1, "dedans_inflicted", player_id)
            if score.capot_team is not None and score.capot_team != team:
                self.inc_stat(1, "capots_conceded", player_id)
            if seat in coinchers and score.outcome == "failed":
                self.inc_stat(1, "coinches_won", player_id)
            if seat in surcoinchers and score.outcome == "made":
                self.inc_stat(1, "surcoinches_won", player_id)
            for item in state.announced[seat] if self.rules.announcements else ():
                kind = "carres" if item.kind == "carre" else {3: "tierces", 4: "quartes"}.get(
                    item.length, "quintes")
                self.inc_stat(1, kind, player_id)
            taken = int(self.get_stat("contracts_taken", player_id))
            if taken:
                made = int(self.get_stat("contracts_made", player_id))
                self.set_stat(100.0 * made / taken, "contracts_made_rate", player_id)
            defended = int(self.get_stat("hands_defended", player_id))
            if defended:
                inflicted = int(self.get_stat("dedans_inflicted", player_id))
                self.set_stat(100.0 * inflicted / defended, "defence_success_rate", player_id)

    def _notify_hand_score(self, state: PlayState, score: HandScore, breakdown: dict[str, Any],
                           totals: tuple[int, int]) -> None:
        contract = state.contract
        taker = self._player_args(contract.taker)
        name = material.contract_name(contract)
        if score.outcome == "made":
            self.notify_all_players("handOutcome", clienttranslate(
                "${player_name} makes the contract (${contract_name})"), outcome="made",
                contract_name=name, **taker)
        elif score.outcome == "failed":
            self.notify_all_players("handOutcome", clienttranslate(
                "${player_name} fails the contract (${contract_name})"), outcome="failed",
                contract_name=name, **taker)
        else:
            self.notify_all_players("handOutcome", clienttranslate(
                "Contention: ${points} points are held until the next hand is won"),
                outcome="contention", points=score.carry_out, **taker)
        if contract.is_generale_bid and score.outcome == "made":
            self.notify_all_players("capot", clienttranslate(
                "Générale! ${player_name} takes all eight tricks alone"), **taker)
        elif score.capot_team is not None:
            self.notify_all_players("capot", clienttranslate(
                "Capot! ${player_name} and ${partner_name} take all eight tricks"),
                **self._team_args(score.capot_team))
        for team in (0, 1):
            self.notify_all_players("handScore", clienttranslate(
                "${player_name} and ${partner_name}: card points ${card_points}, contract "
                "${contract_points}, belote ${belote}, announcements ${announcements}, carried "
                "${carried}: ${points} points this hand, ${total} in all"),
                card_points=score.scored_cards[team], contract_points=score.scored_contract[team],
                belote=score.scored_belote[team], announcements=score.scored_announcements[team],
                carried=score.carried_awarded[team], points=score.hand_score[team], total=totals[team],
                breakdown=breakdown if team == 0 else None, **self._team_args(team))
        self.notify_all_players("newScores", "", scores={
            str(pid): totals[seat % 2] for seat, pid in enumerate(self.player_order())})

    def st_game_end_scoring(self) -> None:
        totals = self.team_scores()
        winner = 0 if totals[0] > totals[1] else 1
        self.notify_all_players("gameResult", clienttranslate(
            "${player_name} and ${partner_name} win the game, ${points} points to ${other_points}"),
            points=totals[winner], other_points=totals[1 - winner], **self._team_args(winner))
        self.gamestate.next_state("")

    # ------------------------------------------------------------------ bots and zombies
    def bot_turn(self, state: State, active_player: int) -> None:
        """A bot seat's turn at its level (``bots.make_bot``: "expert", the default,
        "beginner" or "random"), drawing from this move's random source so tables replay."""
        self._automatic_turn(state, active_player,
                             make_bot(self.get_bot_kind(active_player), self.random))

    def zombie_turn(self, state: State, active_player: int) -> None:
        """A player who left is played by the expert bot, so their partner is not let down."""
        self._automatic_turn(state, active_player, make_bot("expert", self.random))

    def _match_scores(self) -> tuple[int, int] | None:
        """The public score a bot weighs its risks by, in a game to a target score (None in
        a game of so many hands: its end is not a score to reach)."""
        return self.team_scores() if self.game_length.kind == "points" else None

    def _automatic_turn(self, state: State, player_id: int, bot: Bot) -> None:
        seat = self.seat_of(player_id)
        bidding = self.bidding()
        if state.name in _BIDDING_STATES:
            bid = bot.choose_bid(bid_view(bidding, self.hands()[seat], self._match_scores()))
            self._bid(seat, bid.code)
        elif state.name == "playerTurn":
            play = self.play_state(bidding)
            card = bot.choose_card(play_view(play, self.dealer, bidding.history, self.turned,
                                             self._match_scores()))
            self._play(seat, str(card))
        else:
            raise GameSystemError(f"no automatic turn in state {state.name!r}")

    # ------------------------------------------------------------------ last trick (the framework's hook)
    def get_last_trick(self, player_id: int | None) -> dict[str, Any] | None:
        """The last trick taken, shown on demand: this hand's, else (while the next hand is
        dealt and bid) the last trick of the last hand played; None before the first trick.
        Every card in it was played face up, so every viewer gets the same answer."""
        found: tuple[Trick, int] | None = None
        if self.hand_no and self.gamestate.state().name not in ("newHand", "nextBidder"):
            bidding = self.bidding()
            if bidding.contract is not None:
                tricks = self.play_state(bidding).tricks
                if tricks:
                    found = (tricks[-1], len(tricks))
        if found is None:
            record = self.hand_record()
            if record is None:
                return None
            parsed = parse_record(record)
            if parsed.contract is None:
                return None
            tricks = PlayState.from_plays(parsed.hands, parsed.contract, (parsed.dealer + 1) % 4,
                                          parsed.rules, parsed.plays).tricks
            if not tricks:
                return None
            found = (tricks[-1], len(tricks))
        trick, number = found
        order = self.player_order()
        return {"winner": order[trick.winner], "points": trick.points, "trick_no": number,
                "cards": [{"player_id": order[(trick.leader + i) % 4], "card": str(card)}
                          for i, card in enumerate(trick.cards)]}
