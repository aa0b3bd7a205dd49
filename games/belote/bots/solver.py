"""An exact solver for the end of a hand with every hand known (alpha-beta on card masks,
with a transposition table of bounds at trick starts): the most card points the team of
seats 0 and 2 can be sure of from a position.

Unchecked fast path for search: positions come from legal play, nothing is checked.
"""

from __future__ import annotations

# mask_of and parse_cards: the doctests deal hands with them
from ..rules import LAST_TRICK_BONUS, legal_mask, mask_of, parse_cards  # noqa: F401
from .tables import KEYS, ORDER, POINTS, SUITS, indices


class Solver:
    """Double-dummy solver for one contract (trump ``code``); reuse it for positions of the
    same deal so its table is shared.

    Attributes:
        nodes: card plays searched so far (a measure of the work done).
    """

    def __init__(self, code: int, optional_undertrump: bool = False) -> None:
        self.code = code
        self.optional = optional_undertrump
        self.keys = KEYS[code]
        self.points = POINTS[code]
        self.order = ORDER[code]
        self.table: dict[tuple[int, int, int, int, int], tuple[int, int]] = {}
        self.nodes = 0

    def value(self, hands: list[int], leader: int, trick: list[int]) -> int:
        """Card points (dix de der included) team 0 takes from now on, both teams playing
        perfectly; ``trick`` holds the cards of the trick in progress, led by ``leader``.

            >>> hands = [mask_of(parse_cards(cards.split())) for cards in ("AH", "TH", "7S", "KH")]
        >>> Solver(0).value(hands, 0, [])  # seat 2 trumps the last trick: 25 + 10 for team 0
        35
        """
        played = 32 - sum(hand.bit_count() for hand in hands)
        keys = self.keys
        if len(trick) == 4:
            led = trick[0] >> 3
            winner = max(range(4), key=lambda position: keys[led * 32 + trick[position]])
            seat = (leader + winner) & 3
            gained = sum(self.points[card] for card in trick)
            if played == 32:
                gained += LAST_TRICK_BONUS
            gained = 0 if seat & 1 else gained
            if played == 32:
                return gained
            return gained + self._start(list(hands), seat, played, -1, 1000)
        if trick:
            led = trick[0] >> 3
            base = led * 32
            win_pos = 0
            for position in range(1, len(trick)):
                if keys[base + trick[position]] > keys[base + trick[win_pos]]:
                    win_pos = position
            win_card = trick[win_pos]
            state = (led, win_card, (leader + win_pos) & 3, keys[base + win_card],
                     sum(self.points[card] for card in trick))
        else:
            state = (-1, 0, leader, -2, 0)
        return self._play(list(hands), leader, len(trick), *state, played, -1, 1000)

    def _start(self, hands: list[int], leader: int, played: int, alpha: int, beta: int) -> int:
        key = (hands[0], hands[1], hands[2], hands[3], leader)
        low, high = self.table.get(key, (0, 1000))
        if low >= beta or low == high:
            return low
        if high <= alpha:
            return high
        alpha, beta = max(alpha, low), min(beta, high)
        value = self._play(hands, leader, 0, -1, 0, leader, -2, 0, played, alpha, beta)
        if value <= alpha:
            high = value
        elif value >= beta:
            low = value
        else:
            low = high = value
        self.table[key] = (low, high)
        return value

    def _moves(self, hands: list[int], legal: int, trick_mask: int) -> list[int]:
        """Legal cards, strongest first, without equivalent ones (same points, adjacent in
        their suit among the cards still in play)."""
        order, points = self.order, self.points
        live = hands[0] | hands[1] | hands[2] | hands[3] | trick_mask
        moves: list[int] = []
        for suit in range(4):
            mine = legal & SUITS[suit]
            if not mine:
                continue
            ranked = sorted(indices(live & SUITS[suit]), key=order.__getitem__, reverse=True)
            previous = -1
            for index in ranked:
                if mine >> index & 1:
                    if previous < 0 or points[previous] != points[index]:
                        moves.append(index)
                    previous = index
                else:
                    previous = -1
        keys_row = self.keys
        moves.sort(key=lambda index: -keys_row[(index >> 3) * 32 + index])
        return moves

    def _play(self, hands: list[int], leader: int, count: int, led: int, win_card: int,
              win_seat: int, win_key: int, trick_points: int, played: int, alpha: int,
              beta: int) -> int:
        seat = (leader + count) & 3
        legal = legal_mask(hands[seat], seat, led, win_card, win_seat, self.code, self.optional)
        hand = hands[seat]
        keys, points = self.keys, self.points
        maximizing = not seat & 1
        trick_mask = 0  # cards of the trick are out of the hands; only the winner matters
        if count:
            trick_mask = 1 << win_card
        best = -1 if maximizing else 1000
        for index in self._moves(hands, legal, trick_mask):
            self.nodes += 1
            if count == 0:
                new_led = index >> 3
                card_key = keys[new_led * 32 + index]
                state = (new_led, index, seat, card_key)
            else:
                card_key = keys[led * 32 + index]
                if card_key > win_key:
                    state = (led, index, seat, card_key)
                else:
                    state = (led, win_card, win_seat, win_key)
            total = trick_points + points[index]
            hands[seat] = hand & ~(1 << index)
            if count == 3:
                last = played + 1 == 32
                gained = total + (LAST_TRICK_BONUS if last else 0)
                if state[2] & 1:
                    gained = 0
                if last:
                    value = gained
                else:
                    value = gained + self._start(hands, state[2], played + 1, alpha - gained,
                                                 beta - gained)
            else:
                value = self._play(hands, leader, count + 1, state[0], state[1], state[2],
                                   state[3], total, played + 1, alpha, beta)
            hands[seat] = hand
            if maximizing:
                if value > best:
                    best = value
                    if best > alpha:
                        alpha = best
            elif value < best:
                best = value
                if best < beta:
                    beta = best
            if alpha >= beta:
                break
        return best
