"""A fast greedy playout on card masks, every seat seeing every hand (for determinised
search: each sampled deal is played out this way to estimate a card's or a contract's worth).

Unchecked fast path: it trusts its arguments (four disjoint hands, a consistent trick) and
only ever plays legal cards, computed with `games.belote.rules.legal_mask`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from ..rules import LAST_TRICK_BONUS, legal_mask
from .tables import HIGHEST, KEYS, ORDER, POINTS, SUITS, indices


class Outcome(NamedTuple):
    """Card points (dix de der included) and tricks per team, the last trick's team, and
    tricks per seat."""

    points: tuple[int, int]
    tricks: tuple[int, int]
    last_team: int
    seat_tricks: tuple[int, int, int, int] = (0, 0, 0, 0)


_bits = indices


def _best_key(hand: int, led: int, code: int, keys: tuple[int, ...]) -> int:
    """Highest trick key ``hand`` can reach on a trick led in ``led`` (-1: none)."""
    follow = hand >> (8 * led) & 0xFF
    if follow:
        return HIGHEST[code][led][follow]
    if code < 4:
        trumps = hand >> (8 * code) & 0xFF
        if trumps:
            return HIGHEST[code][code][trumps]
    return -1


def greedy_card(hands: list[int], seat: int, legal: int, code: int, led: int, win_key: int,
                win_seat: int, position: int, taker_team: int) -> int:
    """The card a greedy double-dummy player picks (see the module docstring)."""
    cards = _bits(legal)
    if len(cards) == 1:
        return cards[0]
    if position == 0:
        return _lead(hands, seat, legal, cards, code, taker_team)
    return _follow(hands, seat, cards, code, led, win_key, win_seat, position)


def _lead(hands: list[int], seat: int, legal: int, cards: tuple[int, ...], code: int,
          taker_team: int) -> int:
    """Lead: a master trump to draw trumps (takers), the richest sure winner, a low card to
    a partner's sure winner, else the cheapest card."""
    keys, points, order = KEYS[code], POINTS[code], ORDER[code]
    left, right = hands[(seat + 1) & 3], hands[(seat + 3) & 3]
    trumps = SUITS[code] if code < 4 else 0
    opponents = left | right
    if trumps and seat & 1 == taker_team:
        mine = legal & trumps
        theirs = opponents & trumps
        if mine and theirs:
            top = max(_bits(mine), key=order.__getitem__)
            if all(order[top] > order[other] for other in _bits(theirs)):
                return top
    best, best_points = -1, -1
    for index in cards:
        suit = index >> 3
        if suit == code:
            continue
        key = keys[suit * 32 + index]
        if _best_key(left, suit, code, keys) < key and _best_key(right, suit, code, keys) < key:
            if points[index] > best_points:
                best, best_points = index, points[index]
    if best >= 0:
        return best
    partner = hands[seat ^ 2]
    for suit in range(4):
        if not legal >> (8 * suit) & 0xFF:
            continue
        if suit == code and (seat & 1 != taker_team or not opponents & trumps):
            continue  # trumps go through a partner's master trump only to draw them
        ally = HIGHEST[code][suit][partner >> (8 * suit) & 0xFF]
        if ally > _best_key(left, suit, code, keys) and ally > _best_key(right, suit, code, keys):
            return min((index for index in cards if index >> 3 == suit),
                       key=lambda index: (points[index], order[index]))
    plain = [index for index in cards if index >> 3 != code] or cards
    return min(plain, key=lambda index: (points[index], order[index]))


def _feed(hands: list[int], seat: int, cards: Sequence[int], code: int) -> int:
    """The richest card to give a trick the partner wins, keeping the cards that would win
    a trick of their own (no opponent can beat them in their suit) when another will do."""
    keys, points, order = KEYS[code], POINTS[code], ORDER[code]
    left, right = hands[(seat + 1) & 3], hands[(seat + 3) & 3]
    spare = [index for index in cards if max(
        _best_key(left, index >> 3, code, keys),
        _best_key(right, index >> 3, code, keys)) > keys[(index >> 3) * 32 + index]]
    return max(spare or cards, key=lambda index: (points[index], -order[index]))


def _follow(hands: list[int], seat: int, cards: Sequence[int], code: int, led: int,
            win_key: int, win_seat: int, position: int) -> int:
    """Follow: feed a trick the partner surely wins, else win it for sure as cheaply as
    possible (richly when following suit), else throw the cheapest card."""
    keys, points, order = KEYS[code], POINTS[code], ORDER[code]
    base = led * 32
    later = [(seat + step) & 3 for step in range(1, 4 - position)]
    threat = max((_best_key(hands[other], led, code, keys) for other in later
                  if (other ^ seat) & 1), default=-1)
    plain = [index for index in cards if index >> 3 != code] or list(cards)
    if win_seat == seat ^ 2:
        if threat < win_key:
            return _feed(hands, seat, plain, code)
        return min(cards, key=lambda index: (points[index], order[index]))
    if seat ^ 2 in later and _best_key(hands[seat ^ 2], led, code, keys) > max(threat, win_key):
        return _feed(hands, seat, plain, code)
    safe = [index for index in cards if keys[base + index] > win_key
            and keys[base + index] > threat]
    if safe:
        following = [index for index in safe if index >> 3 == led and led != code]
        if following:
            return max(following, key=lambda index: points[index])
        return min(safe, key=lambda index: (order[index], points[index]))
    return min(plain, key=lambda index: (points[index], order[index]))


def playout(hands: list[int], code: int, leader: int, trick: list[int], played: int,
            taker_team: int, optional_undertrump: bool) -> Outcome:
    """Play the rest of the hand greedily from ``trick`` (cards led by ``leader``) with
    ``played`` cards already played (``trick`` included) and return the points and tricks
    won from now on. ``hands`` is changed in place.
    """
    keys, points = KEYS[code], POINTS[code]
    won_points = [0, 0]
    won_tricks = [0, 0]
    seat_tricks = [0, 0, 0, 0]
    last_team = 0
    trick = list(trick)
    while played < 32:
        if trick:
            led = trick[0] >> 3
            base = led * 32
            win_index = 0
            for position in range(1, len(trick)):
                if keys[base + trick[position]] > keys[base + trick[win_index]]:
                    win_index = position
            win_card, win_seat = trick[win_index], (leader + win_index) & 3
            win_key = keys[base + win_card]
        else:
            led, win_card, win_seat, win_key = -1, 0, leader, -2
        while len(trick) < 4:
            seat = (leader + len(trick)) & 3
            legal = legal_mask(hands[seat], seat, led, win_card, win_seat, code,
                               optional_undertrump)
            index = greedy_card(hands, seat, legal, code, led, win_key, win_seat, len(trick),
                                taker_team)
            hands[seat] ^= 1 << index
            if not trick:
                led = index >> 3
                win_card, win_seat, win_key = index, seat, keys[led * 32 + index]
            else:
                key = keys[led * 32 + index]
                if key > win_key:
                    win_card, win_seat, win_key = index, seat, key
            trick.append(index)
            played += 1
        total = points[trick[0]] + points[trick[1]] + points[trick[2]] + points[trick[3]]
        if played == 32:
            total += LAST_TRICK_BONUS
            last_team = win_seat & 1
        won_points[win_seat & 1] += total
        won_tricks[win_seat & 1] += 1
        seat_tricks[win_seat] += 1
        leader = win_seat
        trick = []
    return Outcome((won_points[0], won_points[1]), (won_tricks[0], won_tricks[1]), last_team,
                   (seat_tricks[0], seat_tricks[1], seat_tricks[2], seat_tricks[3]))
