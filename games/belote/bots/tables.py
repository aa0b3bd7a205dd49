"""Integer tables for search: card points, trick strength keys and suit masks by trump code.

Built once from the public tables of `games.belote.rules`, so that search and playouts run
on card masks and small integers only.
"""

from __future__ import annotations

from ..rules import ORDER_BY_TRUMP, POINTS_BY_TRUMP, SUIT_MASKS, Rank

ALL_CODE = 4
NONE_CODE = 5


def _keys(code: int) -> tuple[int, ...]:
    """``key[led * 32 + card]``: strength of a card in a trick led in ``led`` (-1: cannot win)."""
    order = ORDER_BY_TRUMP[code]
    keys = []
    for led in range(4):
        for index in range(32):
            suit = index >> 3
            if code < 4 and suit == code:
                keys.append(16 + order[index])
            elif suit == led:
                keys.append(order[index])
            else:
                keys.append(-1)
    return tuple(keys)


KEYS: tuple[tuple[int, ...], ...] = tuple(_keys(code) for code in range(6))
"""``KEYS[code][led * 32 + card]``: the card's strength in a trick led in suit ``led``."""
POINTS: tuple[tuple[int, ...], ...] = POINTS_BY_TRUMP
ORDER: tuple[tuple[int, ...], ...] = ORDER_BY_TRUMP
SUITS: tuple[int, ...] = SUIT_MASKS


def _bits(mask: int) -> tuple[int, ...]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return tuple(out)


BYTE_BITS: tuple[tuple[int, ...], ...] = tuple(_bits(value) for value in range(256))
"""Bit positions of each byte value (a suit's cards within a mask)."""


SUIT_BITS: tuple[tuple[tuple[int, ...], ...], ...] = tuple(
    tuple(tuple(8 * suit + bit for bit in BYTE_BITS[value]) for value in range(256))
    for suit in range(4))
"""``SUIT_BITS[suit][byte]``: card indices of the cards of ``suit`` a byte stands for."""


def indices(mask: int) -> tuple[int, ...]:
    """Card indices of a mask, lowest first.

    >>> indices(0b1010_0000_0001)
    (0, 9, 11)
    """
    return (SUIT_BITS[0][mask & 0xFF] + SUIT_BITS[1][mask >> 8 & 0xFF]
            + SUIT_BITS[2][mask >> 16 & 0xFF] + SUIT_BITS[3][mask >> 24 & 0xFF])


def _highest(code: int) -> tuple[tuple[int, ...], ...]:
    keys = KEYS[code]
    return tuple(tuple(max((keys[suit * 32 + index] for index in SUIT_BITS[suit][value]),
                           default=-1) for value in range(256)) for suit in range(4))


HIGHEST: tuple[tuple[tuple[int, ...], ...], ...] = tuple(_highest(code) for code in range(6))
"""``HIGHEST[code][suit][byte]``: the best trick key among those cards of ``suit`` (on a
trick led in that suit, or trumping one when ``suit`` is the trump)."""


def trump_mask(code: int) -> int:
    """Mask of the trump cards of a contract (all of them in all trumps, none in no trumps)."""
    if code < 4:
        return SUITS[code]
    return (1 << 32) - 1 if code == ALL_CODE else 0


def king_queen(suit: int) -> int:
    """Mask of the king and queen of ``suit`` (the belote pair)."""
    return 1 << (suit * 8 + Rank.KING) | 1 << (suit * 8 + Rank.QUEEN)
