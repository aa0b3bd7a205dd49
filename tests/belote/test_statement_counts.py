"""The statements one Belote move costs, on every backend (issue: less work per move).

The engine's own statements are counted where they leave it: every ``execute`` on the
table's connection during ``Runtime.act`` (the store's BEGIN and COMMIT, and its lock, come
on top: two statements on SQLite, so a card costs at most 6 with them). The table is played
as its players would: each action goes through the runtime, which keeps the decoded table
between actions, and each action says the move its player's view was at, as the page does
(the engine then refuses a second action sent from the same view)."""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from framework.game.globals import GLOBAL_MOVE
from framework.storage.base import Result, TableConnection
from framework.testing import GameHarness, TestTable
from tests.backends import PlatformTemplate

pytestmark = pytest.mark.all_backends

#: what an action may send, BEGIN and COMMIT not included: on SQLite the write of the
#: globals checks the worker's kept copy of the table (nothing is read first); the servers
#: cannot tell whether another connection wrote the table since, so they read the globals
#: first, in the lock's round trip (counted: ``first_read``), one statement more
CARD_LIMIT = {"sqlite": 4, "postgresql": 5, "mysql": 5}  # a card that does not end a trick
TRICK_END_LIMIT = {"sqlite": 5, "postgresql": 6, "mysql": 6}  # it also gathers the trick
BID_LIMIT = {"sqlite": 4, "postgresql": 5, "mysql": 5}


class Counting:
    """A connection that records the statements sent through it."""

    def __init__(self, db: TableConnection, log: list[str]) -> None:
        self._db, self._log = db, log

    def execute(self, sql: str, params: Sequence[Any] = ()) -> Result:
        self._log.append(sql)
        return self._db.execute(sql, params)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._db, name)


@pytest.fixture
def harness(tmp_path: Path, database_url: str | None,
            platform_template: PlatformTemplate) -> Iterator[GameHarness]:
    platform_template.seed(tmp_path / "instance", database_url)
    with GameHarness("belote", tmp_path, database_url=database_url) as h:
        yield h


def counted(t: TestTable, log: list[str]) -> Any:
    """The store's ``connect``, its write transactions' connections counting into ``log``."""
    store = t.runtime.store
    plain = store.connect

    @contextmanager
    def connect(table_id: int, write: bool = True, first_read: str | None = None) -> Iterator[Any]:
        if first_read is not None and store.dialect != "sqlite":  # SQLite leaves it to the caller
            log.append(f"(with the lock) {first_read}")  # a statement, in the lock's round trip
        with plain(table_id, write, first_read) as db:
            yield Counting(db, log) if write else db

    return connect


def hand_of(t: TestTable) -> int:
    with t.read() as table:
        return int(table.hand_no)


def next_move(t: TestTable, rng: random.Random) -> tuple[int, str, dict[str, Any], int, int]:
    """The active player, a legal action for them, the trick's size before it and the move
    the player's view is at (what the page sends with the action, ``X-Arena-Move``)."""
    with t.read() as table:
        pid = table.get_active_player_id()
        move = int(table.get_game_state_value(GLOBAL_MOVE) or 0)
        if table.gamestate.state().name == "playerTurn":
            args = table.arg_player_turn()
            return pid, "play_card", {"card": rng.choice(args["_private"]["active"]["legal_cards"])}, \
                int(args["trick_size"]), move
        bids = table.arg_player_bid()["legal_bids"]
        bid = "pass" if "pass" in bids and rng.random() < 0.6 else rng.choice(bids)
        return pid, "bid", {"bid": bid}, -1, move


def played(t: TestTable, rng: random.Random, log: list[str], moves: int,
           behind: bool = False) -> Iterator[tuple[str, int]]:
    """Play up to ``moves`` moves; after each one that stays within its hand (a hand that ends,
    with its scoring and a new deal, is not one move's cost), yield its action and the trick's
    size before it, ``log`` holding its statements. ``behind``: each move starts without the
    runtime's kept copy, as on a worker that did not play the move before."""
    for _ in range(moves):
        if t.is_over:
            return
        pid, action, args, trick, move = next_move(t, rng)
        hand = hand_of(t)
        if behind:
            t.runtime.forget_kept(t.id)
        log.clear()
        t.runtime.act(t.id, pid, action, args, seen_move=move)  # as the page sends it
        if hand_of(t) == hand:
            yield action, trick


def test_a_card_and_a_bid_cost_few_statements(harness: GameHarness, monkeypatch: pytest.MonkeyPatch) -> None:
    t = harness.create_table(players=4, seed=7)
    rng = random.Random(3)
    log: list[str] = []
    monkeypatch.setattr(t.runtime.store, "connect", counted(t, log))
    cards: list[int] = []
    trick_ends: list[int] = []
    bids: list[int] = []
    for action, trick in played(t, rng, log, 80):
        if action == "bid":
            with t.read() as table:  # the bid that ends the bidding also deals the rest
                if table.gamestate.state().name == "playerTurn":
                    continue
            bids.append(len(log))
        elif trick == 3:
            trick_ends.append(len(log))
        else:
            cards.append(len(log))
    assert cards and trick_ends and bids, "the game must have played cards, ended tricks and bid"
    # the first action of each table builds what the next ones reuse: count the steady ones
    dialect = t.runtime.store.dialect
    assert max(cards[1:]) <= CARD_LIMIT[dialect], (cards, log)
    assert max(trick_ends) <= TRICK_END_LIMIT[dialect], trick_ends
    assert max(bids[1:]) <= BID_LIMIT[dialect], bids


#: a card played by a worker that did not play the table's last move (its kept copy is
#: behind): the globals, the player rows and the hand (bids, plays and held cards in one
#: statement) are read again, on top of the card's own statements
CARD_AFTER_ANOTHER_WORKER_READS = 3


def test_a_card_after_another_worker_reads_the_hand_in_one_statement(
        harness: GameHarness, monkeypatch: pytest.MonkeyPatch) -> None:
    t = harness.create_table(players=4, seed=11)
    rng = random.Random(5)
    log: list[str] = []
    monkeypatch.setattr(t.runtime.store, "connect", counted(t, log))
    reads: list[int] = []
    for action, trick in played(t, rng, log, 60, behind=True):
        if action != "play_card" or trick == 3:
            continue
        selects = [sql for sql in log if sql.lstrip().upper().startswith(("SELECT", "(WITH THE LOCK) SELECT"))]
        assert any("card_play" in sql and "bid" in sql and "card_location" in sql for sql in selects), selects
        reads.append(len(selects))
    assert reads, "the game must have played cards"
    assert max(reads) <= CARD_AFTER_ANOTHER_WORKER_READS, (reads, log)
