"""Card play: which cards are legal and why the others are not, and `PlayState`, one hand
played trick by trick from the deal to its score.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from typing import Any, NamedTuple

from .announcements import Announcement, detect_announcements
from .cards import (
    CARDS,
    FULL_DECK_MASK,
    SUIT_MASKS,
    Card,
    Rank,
    Suit,
    cards_of,
    mask_of,
    parse_cards,  # noqa: F401 (used by the doctests)
)
from .contracts import Contract
from .errors import BeloteError, CardError, IllegalMoveError
from .scoring import HandScore, score_hand
from .trumps import (
    _ABOVE,
    _ALL_CODE,
    _ORDER,
    _POINTS,
    _WIN_KEY,
    BELOTE_POINTS,
    LAST_TRICK_BONUS,
    Trump,
    trick_winner,
    trump_code,
)
from .variants import Rules, UndertrumpRule

# ---------------------------------------------------------------------------
# Legal moves


def legal_mask(hand: int, seat: int, led: int, win_card: int, win_seat: int, code: int,
               optional_undertrump: bool) -> int:
    """Mask of the cards of ``hand`` that ``seat`` may play (fast, integer arguments).

    ``led`` is the led suit (-1 for an empty trick), ``win_card``/``win_seat`` the card and
    seat currently winning the trick, ``code`` the `trump_code`.
    """
    if led < 0:
        return hand
    follow = hand & SUIT_MASKS[led]
    if code < 4:
        if led == code:
            if follow:
                return (follow & _ABOVE[code][win_card]) or follow
            return hand
        if follow:
            return follow
        if win_seat == seat ^ 2:
            return hand
        trumps = hand & SUIT_MASKS[code]
        if not trumps:
            return hand
        if win_card >> 3 == code:
            higher = trumps & _ABOVE[code][win_card]
            if higher:
                return higher
            return hand if optional_undertrump else trumps
        return trumps
    if code == _ALL_CODE:
        if follow:
            return (follow & _ABOVE[code][win_card]) or follow
        return hand
    return follow or hand


def legal_cards(hand: Iterable[Card], trick: Sequence[Card], leader: int, trump: Trump,
                undertrump: UndertrumpRule = "required") -> list[Card]:
    """Cards of ``hand`` the next seat may play on ``trick`` (led by ``leader``), sorted.

    >>> [str(c) for c in legal_cards(parse_cards(["7H", "JS", "9C"]),
    ...  parse_cards(["JD", "AD"]), leader=0, trump=Suit.SPADES)]
    ['JS']
    >>> [str(c) for c in legal_cards(parse_cards(["7H", "JS", "9C"]),
    ...  parse_cards(["AD", "JD"]), leader=0, trump=Suit.SPADES)]
    ['JS', '7H', '9C']
    """
    code = trump_code(trump)
    hand_mask = mask_of(hand)
    if not trick:
        return cards_of(hand_mask)
    winner = trick_winner(trick, leader, trump)
    win_card = trick[(winner - leader) % 4]
    seat = (leader + len(trick)) % 4
    return cards_of(legal_mask(hand_mask, seat, trick[0].suit, win_card.index, winner, code,
                               undertrump == "optional"))


def explain_illegal(hand: Iterable[Card], trick: Sequence[Card], leader: int, trump: Trump,
                    card: Card, undertrump: UndertrumpRule = "required") -> str | None:
    """Why ``card`` may not be played (a short phrase), or None when it is legal.

    >>> explain_illegal(parse_cards(["9H", "7D"]), parse_cards(["AD"]), 0, Suit.SPADES,
    ...                 Card.from_str("9H"))
    'must follow diamonds'
    """
    held = list(hand)
    if card not in held:
        return "does not hold it"
    allowed = legal_cards(held, trick, leader, trump, undertrump)
    if card in allowed:
        return None
    led = trick[0].suit
    if any(c.suit == led for c in held):
        if card.suit == led:
            return f"must play higher in {led.label}"
        return f"must follow {led.label}"
    assert isinstance(trump, Suit)  # only suit contracts force a void player to trump
    trumped = [c for c in trick if c.suit == trump]
    if trumped:
        best = max(trumped, key=lambda c: _ORDER[trump][c.index])
        if all(_ORDER[trump][c.index] > _ORDER[trump][best.index] for c in allowed):
            return f"must overtrump {best}"
        return f"must undertrump (play a {trump.label[:-1]})"
    return f"must trump with {trump.label}"


# ---------------------------------------------------------------------------
# Playing a hand


class Trick(NamedTuple):
    """A completed trick."""

    leader: int
    cards: tuple[Card, ...]
    winner: int
    points: int  # card points, plus the dix de der on the last trick

    def to_dict(self) -> dict[str, Any]:
        return {"leader": self.leader, "cards": [str(card) for card in self.cards],
                "winner": self.winner, "points": self.points}


def _belote_team_points(hands: Sequence[int], code: int) -> tuple[list[int], list[int]]:
    """Belote points per team and the seats holding each belote."""
    team = [0, 0]
    holders: list[int] = []
    suits = range(4) if code == _ALL_CODE else ([code] if code < 4 else [])
    for suit in suits:
        pair = (1 << (suit * 8 + Rank.KING)) | (1 << (suit * 8 + Rank.QUEEN))
        for seat, hand in enumerate(hands):
            if hand & pair == pair:
                team[seat % 2] += BELOTE_POINTS
                holders.append(seat)
    return team, holders


class PlayState:
    """One hand's card play: 32 cards, 8 tricks, from ``leader`` (dealer + 1).

    Tracks the trick in progress, tricks won and card points per team (the dix de der is
    added to the last trick), belotes (from the hands at the start of play) and
    announcements (when `Rules.announcements`).
    """

    def __init__(self, hands: Sequence[Iterable[Card] | int], contract: Contract, leader: int,
                 rules: Rules | None = None) -> None:
        """``hands[seat]`` is an iterable of cards or a card mask.

        Raises:
            CardError: not four hands of 8 distinct cards making the 32-card deck.
        """
        self.rules = rules or Rules()
        if len(hands) != 4:
            raise CardError(f"a hand needs 4 seats, got {len(hands)}")
        masks = []
        for seat, hand in enumerate(hands):
            if isinstance(hand, int):
                mask, count = hand, hand.bit_count()
            else:
                cards = list(hand)
                mask, count = mask_of(cards), len(cards)
            if count != 8 or mask.bit_count() != 8:
                raise CardError(f"seat {seat} must hold 8 distinct cards, got {count}"
                                f" ({mask.bit_count()} distinct)")
            masks.append(mask)
        if masks[0] | masks[1] | masks[2] | masks[3] != FULL_DECK_MASK:
            raise CardError("the four hands must hold the 32 cards once each")
        if leader not in range(4):
            raise CardError(f"leader must be a seat 0..3, not {leader!r}")
        self.contract = contract
        self.trump = contract.trump
        self.code = trump_code(contract.trump)
        self.optional_undertrump = self.rules.undertrump == "optional"
        self.start_hands: tuple[int, ...] = tuple(masks)
        self.hands: list[int] = masks
        self.first_leader = leader
        self.leader = leader
        self.to_play = leader
        self.trick: list[Card] = []
        self.tricks: list[Trick] = []
        self.tricks_won = [0, 0]
        self.card_points = [0, 0]
        self.played = 0
        self._led = -1
        self._win_card = 0
        self._win_seat = leader
        self._win_key = -2
        self._trick_points = 0
        self._keys = _WIN_KEY[self.code]
        self._points = _POINTS[self.code]
        self.belote, self.belote_holders = _belote_team_points(masks, self.code)
        if self.rules.announcements:
            self.announced: list[list[Announcement]] = [
                detect_announcements(mask, seat) for seat, mask in enumerate(masks)]
        else:
            self.announced = [[], [], [], []]

    @classmethod
    def from_plays(cls, hands: Sequence[Iterable[Card] | int], contract: Contract, leader: int,
                   rules: Rules | None = None, plays: Iterable[Card | str] = ()) -> PlayState:
        """Rebuild a state from the starting hands and the cards played so far (checked).

        Raises:
            CardError: bad hands.
            IllegalMoveError: an illegal play.
        """
        state = cls(hands, contract, leader, rules)
        for card in plays:
            state.play(card)
        return state

    # -- queries
    @property
    def is_over(self) -> bool:
        return self.played == 32

    def hand(self, seat: int) -> list[Card]:
        """Cards still held by ``seat``, sorted."""
        return cards_of(self.hands[seat])

    def legal_mask(self) -> int:
        """Mask of the legal cards of the seat to play (0 when the hand is over)."""
        if self.played == 32:
            return 0
        return legal_mask(self.hands[self.to_play], self.to_play, self._led, self._win_card,
                          self._win_seat, self.code, self.optional_undertrump)

    def legal_cards(self) -> list[Card]:
        """Legal cards of the seat to play, in the card-list sort order."""
        return cards_of(self.legal_mask())

    def explain_illegal(self, card: Card) -> str | None:
        """Why the seat to play may not play ``card`` now, or None if it may."""
        if self.played == 32:
            return "the hand is over"
        return explain_illegal(self.hand(self.to_play), self.trick, self.leader, self.trump,
                               card, self.rules.undertrump)

    @property
    def current_winner(self) -> int | None:
        """Seat currently winning the trick in progress (None before its first card)."""
        return self._win_seat if self.trick else None

    # -- moves
    def play(self, card: Card | str, seat: int | None = None) -> Trick | None:
        """Play ``card`` (a `Card` or its code) for the seat to play, checking it; returns
        the trick it completes.

        Raises:
            CardError: a malformed card code.
            IllegalMoveError: the hand is over, it is not ``seat``'s turn, or the card is
                not held or not legal.
        """
        if isinstance(card, str):
            card = Card.from_str(card)
        if self.played == 32:
            raise IllegalMoveError("the hand is over")
        if seat is not None and seat != self.to_play:
            raise IllegalMoveError(f"seat {seat} played but it is seat {self.to_play}'s turn")
        if not self.legal_mask() >> card.index & 1:
            reason = self.explain_illegal(card) or "not legal"
            raise IllegalMoveError(f"seat {self.to_play} played {card} but {reason}")
        return self.play_unchecked(card.index)

    def play_unchecked(self, index: int) -> Trick | None:
        """Play card ``index`` WITHOUT any check (fast path for bots and simulations only:
        an illegal or unheld card silently corrupts the state). Returns the completed trick.
        """
        seat = self.to_play
        self.hands[seat] &= ~(1 << index)
        trick = self.trick
        if trick:
            key = self._keys[self._led * 32 + index]
            if key > self._win_key:
                self._win_key, self._win_card, self._win_seat = key, index, seat
            self._trick_points += self._points[index]
        else:
            self._led = led = index >> 3
            self._win_key = self._keys[led * 32 + index]
            self._win_card, self._win_seat = index, seat
            self._trick_points = self._points[index]
        trick.append(CARDS[index])
        self.played += 1
        if len(trick) < 4:
            self.to_play = (seat + 1) & 3
            return None
        return self._close_trick()

    def _close_trick(self) -> Trick:
        winner = self._win_seat
        points = self._trick_points + (LAST_TRICK_BONUS if self.played == 32 else 0)
        done = Trick(self.leader, tuple(self.trick), winner, points)
        self.tricks.append(done)
        self.tricks_won[winner & 1] += 1
        self.card_points[winner & 1] += points
        self.trick = []
        self.leader = self.to_play = winner
        self._led, self._win_key, self._trick_points = -1, -2, 0
        return done

    def play_random(self, rng: random.Random) -> None:
        """Finish the hand with uniformly random legal cards drawn from ``rng``.

        Simulation fast path (random playouts, benchmarks): it runs on local integers and
        only ever plays legal cards, so it needs no checks.
        """
        uniform = rng.random
        while self.trick and self.played < 32:
            mask = self.legal_mask()
            for _ in range(int(uniform() * mask.bit_count())):
                mask &= mask - 1
            self.play_unchecked((mask & -mask).bit_length() - 1)
        hands, keys, points = self.hands, self._keys, self._points
        code, optional = self.code, self.optional_undertrump
        leader = self.leader
        while self.played < 32:
            hand = hands[leader]
            for _ in range(int(uniform() * hand.bit_count())):
                hand &= hand - 1
            index = (hand & -hand).bit_length() - 1
            hands[leader] ^= 1 << index
            led = index >> 3
            base = led * 32
            win_key, win_card, win_seat = keys[base + index], index, leader
            trick_points = points[index]
            indices = [index]
            for step in (1, 2, 3):
                seat = (leader + step) & 3
                mask = legal_mask(hands[seat], seat, led, win_card, win_seat, code, optional)
                for _ in range(int(uniform() * mask.bit_count())):
                    mask &= mask - 1
                index = (mask & -mask).bit_length() - 1
                hands[seat] ^= 1 << index
                key = keys[base + index]
                if key > win_key:
                    win_key, win_card, win_seat = key, index, seat
                trick_points += points[index]
                indices.append(index)
            self.played += 4
            if self.played == 32:
                trick_points += LAST_TRICK_BONUS
            self.tricks.append(Trick(leader, (CARDS[indices[0]], CARDS[indices[1]],
                                              CARDS[indices[2]], CARDS[indices[3]]),
                                     win_seat, trick_points))
            self.tricks_won[win_seat & 1] += 1
            self.card_points[win_seat & 1] += trick_points
            leader = win_seat
        self.leader = self.to_play = leader

    # -- scoring
    def score(self, carried: int = 0) -> HandScore:
        """Score of the finished hand (see `score_hand`).

        Raises:
            BeloteError: the hand is not over.
        """
        if self.played != 32:
            raise BeloteError("the hand is not over")
        taker_tricks = sum(1 for trick in self.tricks if trick.winner == self.contract.taker)
        return score_hand(self.contract, self.rules, self.card_points, self.tricks_won,
                          self.belote, self.announced, self.first_leader, carried,
                          last_trick_team=self.tricks[-1].winner % 2, taker_tricks=taker_tricks)
