"""BGA's Deck component over a ``card`` table (card_id, card_type, card_type_arg,
card_location, card_location_arg)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from framework.core.errors import GameSystemError

if TYPE_CHECKING:
    from framework.game.table import Table

Card = dict[str, Any]


def _card(row: Mapping[str, Any]) -> Card:
    return {
        "id": int(row["card_id"]),
        "type": row["card_type"],
        "type_arg": int(row["card_type_arg"]),
        "location": row["card_location"],
        "location_arg": int(row["card_location_arg"]),
    }


class Deck:
    """Cards in locations (``deck``, ``hand`` with the player id as arg, ``discard``...).

    In a pile, ``location_arg`` is the position: the top card has the highest one.
    """

    COLUMNS = "card_id, card_type, card_type_arg, card_location, card_location_arg"

    def __init__(self, table: Table, name: str = "card") -> None:
        if not name.replace("_", "").isalnum():
            raise GameSystemError(f"Deck table name {name!r} is not a plain identifier")
        self.table = table
        self.name = name
        # location -> discard pile shuffled back into it when it runs out (BGA's autoreshuffle)
        self.autoreshuffle_custom: dict[str, str] = {}

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
                    (str(spec["type"]), int(spec["type_arg"]), location, position),
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
        return None if row is None else _card(row)

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
        return {int(r["card_id"]): _card(r) for r in rows}

    def get_cards_in_location(self, location: str, location_arg: int | None = None,
                              order_by: str | None = None) -> dict[int, Card]:
        order = " ORDER BY card_location_arg, card_id" if order_by is None else (
            f" ORDER BY {self._order_column(order_by)}"
        )
        if location_arg is None:
            rows = self.table.db_query(
                f"SELECT {self.COLUMNS} FROM {self.name} WHERE card_location = %s{order}", (location,)
            ).rows
        else:
            rows = self.table.db_query(
                f"SELECT {self.COLUMNS} FROM {self.name} WHERE card_location = %s "
                f"AND card_location_arg = %s{order}", (location, int(location_arg)),
            ).rows
        return {int(r["card_id"]): _card(r) for r in rows}

    @staticmethod
    def _order_column(order_by: str) -> str:
        allowed = {"card_id", "card_type", "card_type_arg", "card_location_arg"}
        column = order_by.split()[0]
        direction = order_by.split()[1].upper() if len(order_by.split()) > 1 else "ASC"
        if column not in allowed or direction not in ("ASC", "DESC"):
            raise GameSystemError(f"Deck order_by {order_by!r}: use one of {sorted(allowed)}")
        return f"{column} {direction}"

    def get_player_hand(self, player_id: int) -> dict[int, Card]:
        return self.get_cards_in_location("hand", player_id)

    def get_card_on_top(self, location: str) -> Card | None:
        cards = self.get_cards_on_top(1, location)
        return cards[0] if cards else None

    def get_cards_on_top(self, nbr: int, location: str) -> list[Card]:
        rows = self.table.db_query(
            f"SELECT {self.COLUMNS} FROM {self.name} WHERE card_location = %s "
            "ORDER BY card_location_arg DESC, card_id DESC LIMIT %s", (location, int(nbr)),
        ).rows
        return [_card(r) for r in rows]

    def get_extreme_position(self, getmax: bool, location: str) -> int:
        return self._extreme(location, top=getmax)

    def _extreme(self, location: str, top: bool) -> int:
        fn = "MAX" if top else "MIN"
        value = self.table.get_unique_value_from_db(
            f"SELECT {fn}(card_location_arg) FROM {self.name} WHERE card_location = %s", (location,)
        )
        return int(value) if value is not None else (-1 if top else 0)

    def get_cards_of_type(self, card_type: Any, type_arg: int | None = None) -> dict[int, Card]:
        if type_arg is None:
            rows = self.table.db_query(
                f"SELECT {self.COLUMNS} FROM {self.name} WHERE card_type = %s", (str(card_type),)
            ).rows
        else:
            rows = self.table.db_query(
                f"SELECT {self.COLUMNS} FROM {self.name} WHERE card_type = %s AND card_type_arg = %s",
                (str(card_type), int(type_arg)),
            ).rows
        return {int(r["card_id"]): _card(r) for r in rows}

    def get_cards_of_type_in_location(self, card_type: Any, type_arg: int | None, location: str,
                                      location_arg: int | None = None) -> dict[int, Card]:
        return {
            cid: c for cid, c in self.get_cards_of_type(card_type, type_arg).items()
            if c["location"] == location and (location_arg is None or c["location_arg"] == location_arg)
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
        res = self.table.db_query(
            f"UPDATE {self.name} SET card_location = %s, card_location_arg = %s WHERE card_id = %s",
            (location, int(location_arg), int(card_id)),
        )
        if res.rowcount == 0:
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
            res = self.table.db_query(
                f"UPDATE {self.name} SET card_location = %s, card_location_arg = (SELECT "
                f"COALESCE(MAX(pile.card_location_arg), -1) + 1 FROM {self.name} AS pile "
                "WHERE pile.card_location = %s) WHERE card_id = %s",
                (location, location, int(card_id)),
            )
            if res.rowcount == 0:
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
            if no_reform or discard is None or self.count_card_in_location(discard) == 0:
                break
            self.move_all_cards_in_location(discard, from_location)
            self.shuffle(from_location)
        return picked
