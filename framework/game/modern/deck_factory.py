"""``self.deck_factory``: a ``Deck`` on one of the game's card tables (BGA's
``$this->deckFactory->createDeck``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from framework.game.deck import Deck

if TYPE_CHECKING:
    from framework.game.table_protocol import TableProtocol


class DeckFactory:
    def __init__(self, table: TableProtocol) -> None:
        self._table = table

    def create_deck(self, table_name: str = "card") -> Deck:
        """A ``Deck`` over ``table_name`` (declared in ``dbmodel.sql`` with BGA's card columns)."""
        return Deck(self._table, table_name)
