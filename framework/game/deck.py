"""BGA's Deck component over a ``card`` table (card_id, card_type, card_type_arg,
card_location, card_location_arg).

``card_type`` is text, as BGA stores it (``varchar(16)``). PHP's ``"2" == 2`` is true and
Python's is false, so a ported ``card["type"] == 2`` would silently never match: the type of a
card comes back as a ``CardType``, a ``str`` that raises ``CardTypeComparisonError`` when it is
compared with a number. A deck whose types are numbers says so, ``Deck(self, "card",
int_type=True)``, and gets ints.
"""

from __future__ import annotations

import numbers
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Final

from framework.core.errors import GameSystemError

if TYPE_CHECKING:
    from framework.game.table_protocol import TableProtocol

Card = dict[str, Any]


class CardTypeComparisonError(GameSystemError, TypeError):
    """A card's text ``type`` was compared with a number (PHP's loose ``==`` habit)."""


class CardType(str):
    """A card's ``type`` as the database holds it: text. Equal to the same text; compared
    with a number it raises instead of answering False, as PHP's ``"2" == 2`` would not.

    >>> CardType("S") == "S"
    True
    """

    __slots__ = ()

    def _refuse(self, other: object) -> None:
        if isinstance(other, numbers.Number):
            raise CardTypeComparisonError(
                f"a card's type is the text {str(self)!r} (BGA stores card_type as text); it was "
                f"compared with the number {other!r}. Compare with {str(other)!r}, or create the "
                "deck with Deck(table, name, int_type=True) to get numbers"
            )

    def __eq__(self, other: object) -> bool:
        self._refuse(other)
        return str.__eq__(self, other)

    def __ne__(self, other: object) -> bool:
        self._refuse(other)
        return str.__ne__(self, other)

    __hash__ = str.__hash__


class AllArgs:
    """The default ``location_arg`` of reads: every location_arg of the location."""

    def __repr__(self) -> str:
        return "ALL_ARGS"


#: "every location_arg": what a read means when its ``location_arg`` is left out.
ALL_ARGS: Final = AllArgs()


def _card(row: Mapping[str, Any], int_type: bool = False) -> Card:
    raw = row["card_type"]
    return {
        "id": int(row["card_id"]),
        "type": int(raw) if int_type else CardType(raw),
        "type_arg": int(row["card_type_arg"]),
        "location": row["card_location"],
        "location_arg": int(row["card_location_arg"]),
    }


class Deck:
    """Cards in locations (``deck``, ``hand`` with the player id as arg, ``discard``...).

    In a pile, ``location_arg`` is the position: the top card has the highest one.
    """

    COLUMNS = "card_id, card_type, card_type_arg, card_location, card_location_arg"
    #: BGA's ``autoreshuffle``: an empty ``deck`` is refilled from ``discard``
    autoreshuffle: bool = False
    #: called with the location after it was refilled (BGA's ``autoreshuffle_trigger``)
    autoreshuffle_trigger: Callable[[str], Any] | None = None
    #: location -> the pile shuffled back into it when it runs out (BGA's ``autoreshuffle_custom``)
    autoreshuffle_custom: dict[str, str]

    def __init__(self, table: TableProtocol, name: str = "card", *, int_type: bool = False,
                 player_locations: Iterable[str] = ("hand",)) -> None:
        """``int_type``: the types are whole numbers, read back as ints. ``player_locations``:
        locations whose ``location_arg`` is a player id; reading one with ``location_arg=None``
        (a spectator's id) is refused rather than read as every player's cards."""
        self.table = table
        self.name = "card"
        self.init(name)
        self.int_type = int_type
        self.player_locations = frozenset(player_locations)
        self.autoreshuffle = False
        self.autoreshuffle_trigger = None
        self.autoreshuffle_custom = {}

    def init(self, table_name: str) -> None:
        """Use the database table ``table_name`` (BGA's ``init``; the constructor's ``name``)."""
        if not isinstance(table_name, str) or not table_name.replace("_", "").isalnum():
            raise GameSystemError(f"Deck table name {table_name!r} is not a plain identifier")
        self.name = table_name

    def _card(self, row: Mapping[str, Any]) -> Card:
        return _card(row, self.int_type)

    def _stored_type(self, card_type: Any, helper: str) -> str:
        """A type as the ``card_type`` column stores it."""
        if self.int_type:
            if isinstance(card_type, bool) or not isinstance(card_type, int):
                raise GameSystemError(
                    f"{helper}: deck {self.name!r} has int types (int_type=True), not {card_type!r}"
                )
            return str(card_type)
        if isinstance(card_type, bool) or not isinstance(card_type, str | int):
            raise GameSystemError(f"{helper}: a card type is a text or a number, not {card_type!r}")
        return str(card_type)

    def _check_arg(self, helper: str, location: str, location_arg: int | None | AllArgs) -> int | None:
        """``location_arg`` of a read: an int, or None for every arg of the location.

        Raises:
            GameSystemError: None for a player location (a spectator's id: it would read
                every player's cards), or not a number.
        """
        if location_arg is ALL_ARGS:
            return None
        if location_arg is None:
            if location in self.player_locations:
                raise GameSystemError(
                    f"{helper}({location!r}, None): {location!r} holds each player's cards and "
                    "None is no player (a spectator?): pass a player id, or leave location_arg "
                    "out to read every player's cards on purpose"
                )
            return None
        if isinstance(location_arg, bool) or not isinstance(location_arg, int):
            raise GameSystemError(f"{helper}: location_arg must be an int, not {location_arg!r}")
        return location_arg

    # ---------------------------------------------------------------- creation
    def create_cards(self, cards: Iterable[Mapping[str, Any]], location: str = "deck",
                     location_arg: int | None = None) -> None:
        """``cards``: ``{"type", "type_arg", "nbr"}`` each; positions follow in order when
        ``location_arg`` is None."""
        position = self._extreme(location, top=True) + 1 if location_arg is None else location_arg
        for spec in cards:
            for _ in range(int(spec.get("nbr", 1))):
                self.table.db_query(
                    f"INSERT INTO {self.name} (card_type, card_type_arg, card_location, "
                    "card_location_arg) VALUES (%s, %s, %s, %s)",
                    (self._stored_type(spec["type"], "create_cards"), int(spec["type_arg"]),
                     location, position),
                )
                if location_arg is None:
                    position += 1

    def shuffle(self, location: str) -> None:
        """Random order (from the table's seeded source), positions 0..n-1."""
        ids = self.table.get_object_list_from_db(
            f"SELECT card_id FROM {self.name} WHERE card_location = %s ORDER BY card_id",
            (location,), single_column=True,
        )
        self.table.random.shuffle(ids)
        for position, cid in enumerate(ids):
            self.table.db_query(
                f"UPDATE {self.name} SET card_location_arg = %s WHERE card_id = %s", (position, cid)
            )

    # ---------------------------------------------------------------- reading
    def get_card(self, card_id: int) -> Card | None:
        row = self.table.get_object_from_db(
            f"SELECT {self.COLUMNS} FROM {self.name} WHERE card_id = %s", (int(card_id),)
        )
        return None if row is None else self._card(row)

    def get_cards(self, card_ids: Sequence[int]) -> dict[int, Card]:
        """Cards by id; every id must exist.

        Raises:
            GameSystemError: some ids are not cards of this deck.
        """
        ids = [int(c) for c in card_ids]
        if not ids:
            return {}
        marks = ", ".join(["%s"] * len(ids))
        rows = self.table.db_query(
            f"SELECT {self.COLUMNS} FROM {self.name} WHERE card_id IN ({marks})", ids
        ).rows
        if len(rows) != len(set(ids)):
            raise GameSystemError(f"get_cards: some of {ids} are not cards of {self.name}")
        return {int(r["card_id"]): self._card(r) for r in rows}

    def get_cards_in_location(self, location: str | Sequence[str],
                              location_arg: int | None | AllArgs = ALL_ARGS,
                              order_by: str | None = None) -> dict[int, Card]:
        """The cards of ``location`` (or of several locations), keyed by id in order
        (``order_by``: ``"card_type_arg DESC"``...; BGA then returns a list, Arena keeps the
        dict, in that order). Leaving ``location_arg`` out reads every arg of the location.

        Raises:
            GameSystemError: ``location_arg=None`` for a player location (``hand``): None is
                no player, and reading every hand for a spectator would leak them.
        """
        locations = [location] if isinstance(location, str) else list(location)
        if not locations or not all(isinstance(loc, str) for loc in locations):
            raise GameSystemError(f"get_cards_in_location: bad location {location!r}")
        arg = None
        for loc in locations:
            arg = self._check_arg("get_cards_in_location", loc, location_arg)
        order = " ORDER BY card_location_arg, card_id" if order_by is None else (
            f" ORDER BY {self._order_column(order_by)}"
        )
        marks = ", ".join(["%s"] * len(locations))
        if arg is None:
            rows = self.table.db_query(
                f"SELECT {self.COLUMNS} FROM {self.name} WHERE card_location IN ({marks}){order}",
                tuple(locations),
            ).rows
        else:
            rows = self.table.db_query(
                f"SELECT {self.COLUMNS} FROM {self.name} WHERE card_location IN ({marks}) "
                f"AND card_location_arg = %s{order}", (*locations, arg),
            ).rows
        return {int(r["card_id"]): self._card(r) for r in rows}

    def get_cards_from_location(self, card_ids: Sequence[int], location: str,
                                location_arg: int | None | AllArgs = ALL_ARGS) -> dict[int, Card]:
        """``get_cards(card_ids)``, every one of them in ``location`` (and ``location_arg``):
        check what a player claims to hold.

        Raises:
            GameSystemError: a card is unknown or elsewhere.
        """
        arg = self._check_arg("get_cards_from_location", location, location_arg)
        cards = self.get_cards(card_ids)
        elsewhere = [cid for cid, c in cards.items()
                     if c["location"] != location or (arg is not None and c["location_arg"] != arg)]
        if elsewhere:
            where = location if arg is None else f"{location}/{arg}"
            raise GameSystemError(f"get_cards_from_location: cards {elsewhere} are not in {where}")
        return cards

    @staticmethod
    def _order_column(order_by: str) -> str:
        allowed = {"card_id", "card_type", "card_type_arg", "card_location_arg"}
        column = order_by.split()[0]
        direction = order_by.split()[1].upper() if len(order_by.split()) > 1 else "ASC"
        if column not in allowed or direction not in ("ASC", "DESC"):
            raise GameSystemError(f"Deck order_by {order_by!r}: use one of {sorted(allowed)}")
        return f"{column} {direction}"

    def get_player_hand(self, player_id: int) -> dict[int, Card]:
        """``player_id``'s hand.

        Raises:
            GameSystemError: ``player_id`` is None (a spectator has no hand).
        """
        if player_id is None:
            raise GameSystemError("get_player_hand(None): None is no player (a spectator has no hand)")
        return self.get_cards_in_location("hand", player_id)

    def get_card_on_top(self, location: str) -> Card | None:
        cards = self.get_cards_on_top(1, location)
        return cards[0] if cards else None

    def get_cards_on_top(self, nbr: int, location: str) -> list[Card]:
        rows = self.table.db_query(
            f"SELECT {self.COLUMNS} FROM {self.name} WHERE card_location = %s "
            "ORDER BY card_location_arg DESC, card_id DESC LIMIT %s", (location, int(nbr)),
        ).rows
        return [self._card(r) for r in rows]

    def get_extreme_position(self, getmax: bool, location: str) -> int:
        return self._extreme(location, top=getmax)

    def _extreme(self, location: str, top: bool) -> int:
        fn = "MAX" if top else "MIN"
        value = self.table.get_unique_value_from_db(
            f"SELECT {fn}(card_location_arg) FROM {self.name} WHERE card_location = %s", (location,)
        )
        return int(value) if value is not None else (-1 if top else 0)

    def get_cards_of_type(self, card_type: Any, type_arg: int | None = None) -> dict[int, Card]:
        stored = self._stored_type(card_type, "get_cards_of_type")
        if type_arg is None:
            rows = self.table.db_query(
                f"SELECT {self.COLUMNS} FROM {self.name} WHERE card_type = %s", (stored,)
            ).rows
        else:
            rows = self.table.db_query(
                f"SELECT {self.COLUMNS} FROM {self.name} WHERE card_type = %s AND card_type_arg = %s",
                (stored, int(type_arg)),
            ).rows
        return {int(r["card_id"]): self._card(r) for r in rows}

    def get_cards_of_type_in_location(self, card_type: Any, type_arg: int | None, location: str,
                                      location_arg: int | None | AllArgs = ALL_ARGS) -> dict[int, Card]:
        arg = self._check_arg("get_cards_of_type_in_location", location, location_arg)
        return {
            cid: c for cid, c in self.get_cards_of_type(card_type, type_arg).items()
            if c["location"] == location and (arg is None or c["location_arg"] == arg)
        }

    def count_card_in_location(self, location: str, location_arg: int | None = None) -> int:
        if location_arg is None:
            value = self.table.get_unique_value_from_db(
                f"SELECT COUNT(*) FROM {self.name} WHERE card_location = %s", (location,)
            )
        else:
            value = self.table.get_unique_value_from_db(
                f"SELECT COUNT(*) FROM {self.name} WHERE card_location = %s AND card_location_arg = %s",
                (location, int(location_arg)),
            )
        return int(value or 0)

    def count_cards_in_location(self, location: str, location_arg: int | None = None) -> int:
        """``count_card_in_location`` (BGA has both spellings)."""
        return self.count_card_in_location(location, location_arg)

    def count_cards_in_locations(self) -> dict[str, int]:
        rows = self.table.db_query(
            f"SELECT card_location, COUNT(*) AS n FROM {self.name} GROUP BY card_location"
        ).rows
        return {r["card_location"]: int(r["n"]) for r in rows}

    def count_cards_by_location_args(self, location: str) -> dict[int, int]:
        rows = self.table.db_query(
            f"SELECT card_location_arg, COUNT(*) AS n FROM {self.name} WHERE card_location = %s "
            "GROUP BY card_location_arg", (location,),
        ).rows
        return {int(r["card_location_arg"]): int(r["n"]) for r in rows}

    # ---------------------------------------------------------------- moving
    def move_card(self, card_id: int, location: str, location_arg: int = 0) -> None:
        matched = self.table.update_matched_rows(
            f"UPDATE {self.name} SET card_location = %s, card_location_arg = %s WHERE card_id = %s",
            (location, int(location_arg), int(card_id)),
        )
        if matched == 0:
            raise GameSystemError(f"move_card: no card {card_id} in {self.name}")

    def move_cards(self, card_ids: Sequence[int], location: str, location_arg: int = 0) -> None:
        self.get_cards(card_ids)  # every id must exist
        for cid in card_ids:
            self.move_card(cid, location, location_arg)

    def insert_card(self, card_id: int, location: str, location_arg: int) -> None:
        """Put a card at position ``location_arg`` of a pile, shifting those at or above it."""
        self.table.db_query(
            f"UPDATE {self.name} SET card_location_arg = card_location_arg + 1 "
            "WHERE card_location = %s AND card_location_arg >= %s", (location, int(location_arg)),
        )
        self.move_card(card_id, location, location_arg)

    def insert_card_on_extreme_position(self, card_id: int, location: str, on_top: bool) -> None:
        if on_top:
            # One statement: the position above the pile's top (0 for an empty pile).
            matched = self.table.update_matched_rows(
                f"UPDATE {self.name} SET card_location = %s, card_location_arg = (SELECT "
                f"COALESCE(MAX(pile.card_location_arg), -1) + 1 FROM {self.name} AS pile "
                "WHERE pile.card_location = %s) WHERE card_id = %s",
                (location, location, int(card_id)),
            )
            if matched == 0:
                raise GameSystemError(f"insert_card_on_extreme_position: no card {card_id} in {self.name}")
        else:
            self.insert_card(card_id, location, 0)

    def move_all_cards_in_location(self, from_location: str | None, to_location: str,
                                   from_arg: int | None = None, to_arg: int = 0) -> None:
        if from_location is None:
            self.table.db_query(
                f"UPDATE {self.name} SET card_location = %s, card_location_arg = %s",
                (to_location, to_arg),
            )
        elif from_arg is None:
            self.table.db_query(
                f"UPDATE {self.name} SET card_location = %s, card_location_arg = %s "
                "WHERE card_location = %s", (to_location, to_arg, from_location),
            )
        else:
            self.table.db_query(
                f"UPDATE {self.name} SET card_location = %s, card_location_arg = %s "
                "WHERE card_location = %s AND card_location_arg = %s",
                (to_location, to_arg, from_location, int(from_arg)),
            )

    def move_all_cards_in_location_keep_order(self, from_location: str, to_location: str) -> None:
        self.table.db_query(
            f"UPDATE {self.name} SET card_location = %s WHERE card_location = %s",
            (to_location, from_location),
        )

    def play_card(self, card_id: int) -> None:
        """Put a card on top of the discard pile."""
        self.insert_card_on_extreme_position(card_id, "discard", on_top=True)

    # ---------------------------------------------------------------- picking
    def pick_card(self, location: str, player_id: int) -> Card | None:
        cards = self.pick_cards(1, location, player_id)
        return cards[0] if cards else None

    def pick_cards(self, nbr: int, location: str, player_id: int) -> list[Card]:
        """Take ``nbr`` cards from the top of ``location`` into ``player_id``'s hand."""
        return self.pick_cards_for_location(nbr, location, "hand", player_id)

    def pick_card_for_location(self, from_location: str, to_location: str,
                               location_arg: int = 0) -> Card | None:
        cards = self.pick_cards_for_location(1, from_location, to_location, location_arg)
        return cards[0] if cards else None

    def pick_cards_for_location(self, nbr: int, from_location: str, to_location: str,
                                location_arg: int = 0, no_reform: bool = False) -> list[Card]:
        """Move the top ``nbr`` cards; refills ``from_location`` from its discard pile when
        one is set in ``autoreshuffle_custom`` (unless ``no_reform``)."""
        picked: list[Card] = []
        while len(picked) < nbr:
            top = self.get_cards_on_top(nbr - len(picked), from_location)
            for card in top:
                self.move_card(card["id"], to_location, location_arg)
                card.update(location=to_location, location_arg=location_arg)
                picked.append(card)
            if len(picked) >= nbr:
                break
            discard = self.autoreshuffle_custom.get(from_location)
            if discard is None and self.autoreshuffle and from_location == "deck":
                discard = "discard"
            if no_reform or discard is None or self.count_card_in_location(discard) == 0:
                break
            self.move_all_cards_in_location(discard, from_location)
            self.shuffle(from_location)
            if self.autoreshuffle_trigger is not None:
                self.autoreshuffle_trigger(from_location)
        return picked
