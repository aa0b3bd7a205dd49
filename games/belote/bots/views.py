"""What a bot may know when it acts (`SeatView`), built from the bidding or the card play,
and the `Bot` protocol every bot follows."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from ..rules import (
    CARDS,
    Bid,
    Bidding,
    Card,
    ClassicBidding,
    Contract,
    PlayState,
    Rules,
)
from .tables import ALL_CODE, king_queen


@dataclass(frozen=True)
class SeatView:
    """What one seat may know when it has to act: its own cards and public facts only.

    Attributes:
        seat: the acting seat.
        dealer: the dealer's seat.
        rules: table options.
        hand: the seat's own cards, sorted.
        bids: bidding history ``(seat, bid)`` so far.
        turned: classic, the turned-up card (None in contrée).
        legal_bids: bids allowed now (empty during play).
        contract: the contract, once bidding is over.
        leader: seat that led the trick in progress.
        trick: cards of the trick in progress, in order from ``leader``.
        played: cards of completed tricks, as ``(seat, card)`` in playing order.
        legal_cards: cards allowed now (empty during bidding).
        card_points: card points taken so far per team.
        known: ``(seat, card)`` for cards another seat is publicly known to hold: the
            classic taker's turned-up card, the other half of a belote after "Belote".
        match_scores: the game's public score per team before this hand (team 0 first),
            or None for a hand played on its own (duplicate deals).
    """

    seat: int
    dealer: int
    rules: Rules
    hand: tuple[Card, ...]
    bids: tuple[tuple[int, Bid], ...] = ()
    turned: Card | None = None
    legal_bids: tuple[Bid, ...] = ()
    contract: Contract | None = None
    leader: int = 0
    trick: tuple[Card, ...] = ()
    played: tuple[tuple[int, Card], ...] = ()
    legal_cards: tuple[Card, ...] = ()
    card_points: tuple[int, int] = (0, 0)
    known: tuple[tuple[int, Card], ...] = ()
    match_scores: tuple[int, int] | None = None


def bid_view(bidding: Bidding, hand: Sequence[Card],
             match_scores: tuple[int, int] | None = None) -> SeatView:
    """View of the seat to bid, from a bidding procedure and that seat's cards
    (``match_scores``: the game's score before this hand, see `SeatView`)."""
    turned = bidding.turned if isinstance(bidding, ClassicBidding) else None
    return SeatView(seat=bidding.to_play, dealer=bidding.dealer, rules=bidding.rules,
                    hand=tuple(sorted(hand)), bids=tuple(bidding.history), turned=turned,
                    legal_bids=tuple(bidding.legal_bids()), match_scores=match_scores)


def _public_holdings(state: PlayState, turned: Card | None) -> tuple[tuple[int, Card], ...]:
    """Cards other seats are known to hold from public events (see `SeatView.known`)."""
    known: list[tuple[int, Card]] = []
    me = state.to_play
    taker = state.contract.taker
    if turned is not None and taker != me and state.hands[taker] >> turned.index & 1:
        known.append((taker, turned))
    suits = range(4) if state.code == ALL_CODE else ([state.code] if state.code < 4 else [])
    for suit in suits:
        pair = king_queen(suit)
        for seat in range(4):
            if seat == me or state.start_hands[seat] & pair != pair:
                continue
            held = state.hands[seat] & pair
            if held and held != pair:  # "Belote" said, "Rebelote" still to come
                known.append((seat, CARDS[held.bit_length() - 1]))
    return tuple(known)


def play_view(state: PlayState, dealer: int, bids: Sequence[tuple[int, Bid]] = (),
              turned: Card | None = None,
              match_scores: tuple[int, int] | None = None) -> SeatView:
    """View of the seat to play in ``state`` (``turned``: classic, the turned-up card;
    ``match_scores``: the game's score before this hand, see `SeatView`)."""
    played = tuple(((trick.leader + position) % 4, card) for trick in state.tricks
                   for position, card in enumerate(trick.cards))
    return SeatView(
        seat=state.to_play, dealer=dealer, rules=state.rules,
        hand=tuple(state.hand(state.to_play)), bids=tuple(bids), turned=turned,
        contract=state.contract, leader=state.leader, trick=tuple(state.trick), played=played,
        legal_cards=tuple(state.legal_cards()),
        card_points=(state.card_points[0], state.card_points[1]),
        known=_public_holdings(state, turned), match_scores=match_scores,
    )


class Bot(Protocol):
    """A player for one seat: a bid or a card from what the seat may see."""

    def choose_bid(self, view: SeatView) -> Bid: ...

    def choose_card(self, view: SeatView) -> Card: ...

