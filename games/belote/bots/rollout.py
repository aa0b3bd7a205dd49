"""A fast greedy playout on card masks, every seat seeing every hand (for determinised
search: each sampled deal is played out this way to estimate a card's or a contract's worth).

Unchecked fast path: it trusts its arguments (four disjoint hands, a consistent trick) and
only ever plays legal cards, computed with `games.belote.rules.legal_mask`.
"""

from __future__ import annotations

from typing import NamedTuple

from ..rules import LAST_TRICK_BONUS, legal_mask
from .tables import BYTE_BITS, KEYS, ORDER, POINTS, SUITS


class Outcome(NamedTuple):
    """Card points (dix de der included) and tricks per team, and the last trick's team."""

    points: tuple[int, int]
    tricks: tuple[int, int]
    last_team: int


def _bits(mask: int) -> list[int]:
    out: list[int] = []
    base = 0
    while mask:
        byte = mask & 0xFF
        if byte:
            out.extend(base + bit for bit in BYTE_BITS[byte])
        mask >>= 8
        base += 8
    return out


def _best_key(hand: int, led: int, code: int, keys: tuple[int, ...]) -> int:
    """Highest trick key ``hand`` can reach on a trick led in ``led`` (-1: none)."""
    follow = hand & SUITS[led]
    pool = follow if follow else (hand & SUITS[code] if code < 4 else 0)
    best = -1
    base = led * 32
    for index in _bits(pool):
        key = keys[base + index]
        if key > best:
            best = key
    return best


def greedy_card(hands: list[int], seat: int, legal: int, code: int, led: int, win_key: int,
                win_seat: int, position: int, taker_team: int) -> int:
    """The card a greedy double-dummy player picks (see the module docstring)."""
    cards = _bits(legal)
    if len(cards) == 1:
        return cards[0]
    keys, points, order = KEYS[code], POINTS[code], ORDER[code]
    left, right = hands[(seat + 1) & 3], hands[(seat + 3) & 3]
    trumps = SUITS[code] if code < 4 else 0
    if position == 0:
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
            base = suit * 32
            key = keys[base + index]
            if _best_key(left, suit, code, keys) < key and _best_key(right, suit, code, keys) < key:
                if points[index] > best_points:
                    best, best_points = index, points[index]
        if best >= 0:
            return best
        plain = [index for index in cards if index >> 3 != code] or cards
        return min(plain, key=lambda index: (points[index], order[index]))
    base = led * 32
    later = [(seat + step) & 3 for step in range(1, 4 - position)]
    later_opponents = [other for other in later if (other ^ seat) & 1]
    if win_seat == seat ^ 2:
        threat = max((_best_key(hands[other], led, code, keys) for other in later_opponents),
                     default=-1)
        if threat < win_key:
            plain = [index for index in cards if index >> 3 != code] or cards
            return max(plain, key=lambda index: (points[index], -order[index]))
        return min(cards, key=lambda index: (points[index], order[index]))
    threat = max((_best_key(hands[other], led, code, keys) for other in later_opponents),
                 default=-1)
    safe = [index for index in cards if keys[base + index] > win_key
            and keys[base + index] > threat]
    if safe:
        following = [index for index in safe if index >> 3 == led and led != code]
        if following:
            return max(following, key=lambda index: points[index])
        return min(safe, key=lambda index: (order[index], points[index]))
    plain = [index for index in cards if index >> 3 != code] or cards
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
        leader = win_seat
        trick = []
    return Outcome((won_points[0], won_points[1]), (won_tricks[0], won_tricks[1]), last_team)
