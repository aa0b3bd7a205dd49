"""A test harness for game developers: tables of test players, acting as anyone, reading
each player's view and notifications, studio slots and zombie turns.

    from framework.testing import GameHarness
    def test_a_full_game(tmp_path):
        with GameHarness("mygame", tmp_path) as h:
            t = h.create_table(players=2, seed=1)
            t.act(t.active_player, "roll")
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from types import TracebackType
from typing import Any

from framework.core.errors import ArenaError, UserError
from framework.core.kinds import TableMode
from framework.engine.runtime import ActionResult
from framework.game.registry import GameRegistry, load_game_from_directory
from framework.game.states import State
from framework.game.table import Table
from framework.site import Site
from framework.storage.sql.names import quote_identifier


class TestTable:
    """One table seen from the harness."""

    __test__ = False  # not a pytest test class

    def __init__(self, harness: GameHarness, table_id: int) -> None:
        self.harness = harness
        self.id = table_id
        self.runtime = harness.site.runtime

    # --------------------------------------------------------------- acting
    def act(self, player_id: int, action: str, **args: Any) -> ActionResult:
        return self.runtime.act(self.id, player_id, action, args)

    def act_expecting_error(self, player_id: int, action: str, **args: Any) -> UserError:
        """Act and return the UserError it must raise; asserts the table is unchanged."""
        before = self.snapshot()
        try:
            self.runtime.act(self.id, player_id, action, args)
        except UserError as exc:
            after = self.snapshot()
            assert after == before, "a refused action changed the table"
            return exc
        raise AssertionError(f"{action} by {player_id} was accepted")

    def zombie(self, player_id: int) -> None:
        """The player leaves; their turns are played by ``zombie_turn`` from now on."""
        self.runtime.leave(self.id, player_id)

    # --------------------------------------------------------------- reading
    @property
    def players(self) -> list[int]:
        return [int(p) for p in self.data(None)["playerorder"]]

    @property
    def state(self) -> State:
        with self.runtime.read(self.id) as t:
            return t.gamestate.state()

    @property
    def active_player(self) -> int:
        with self.runtime.read(self.id) as t:
            return t.get_active_player_id()

    @property
    def active_players(self) -> list[int]:
        with self.runtime.read(self.id) as t:
            return t.gamestate.get_active_player_list()

    @property
    def is_over(self) -> bool:
        with self.runtime.read(self.id) as t:
            return t.gamestate.is_game_over()

    def data(self, player_id: int | None) -> dict[str, Any]:
        """What ``player_id`` receives from ``/table/<id>/data``."""
        return self.runtime.get_data(self.id, player_id)

    def notifications(self, player_id: int | None, after: int = 0) -> list[dict[str, Any]]:
        """The notifications ``player_id`` receives (spectator when None)."""
        return self.runtime.events(self.id, player_id, after)

    def read(self) -> Any:
        """``with t.read() as table:`` — the game's Table instance, read-only."""
        return self.runtime.read(self.id)

    def query(self, sql: str, params: Sequence[Any] = ()) -> list[dict[str, Any]]:
        with self.runtime.read(self.id) as t:
            return t.get_object_list_from_db(sql, params)

    def stat(self, key: str, player_id: int | None = None) -> float | int | bool:
        with self.runtime.read(self.id) as t:
            return t.get_stat(key, player_id)

    def scores(self) -> dict[int, tuple[int, int]]:
        with self.runtime.read(self.id) as t:
            return t.get_player_scores()

    def ranking(self) -> list[dict[str, Any]]:
        return self.runtime.ranking(self.id)

    def snapshot(self) -> dict[str, list[dict[str, Any]]]:
        """Every row of every live table (for "nothing changed" assertions)."""
        with self.runtime.read(self.id) as t:
            db = t.context.db
            out = {}
            for name in self.runtime.live_tables(db):
                quoted = quote_identifier(name, db.dialect, keep_case=True)
                out[name] = db.execute(f"SELECT * FROM {quoted}").rows
            return out

    # --------------------------------------------------------------- studio
    def save(self, slot: int) -> None:
        self.runtime.save_slot(self.id, slot)

    def load(self, slot: int) -> None:
        self.runtime.load_slot(self.id, slot)

    def with_table(self) -> Any:
        """A writable game Table for setting up a test situation (one transaction)."""
        return _WritableTable(self)


class _WritableTable:
    def __init__(self, t: TestTable) -> None:
        self._t = t
        self._cm: Any = None

    def __enter__(self) -> Table:
        from framework.game.table import ActionContext

        runtime = self._t.runtime
        info = runtime.table_info(self._t.id)
        self._cm = runtime.store.connect(info.id)
        db = self._cm.__enter__()
        return runtime.game_for(info).table_class(ActionContext(db=db, now=runtime.now))

    def __exit__(self, *exc: Any) -> None:
        self._cm.__exit__(*exc)
        # what the test wrote makes the runtime's kept state of the table stale
        self._t.runtime.forget_kept(self._t.id)


class GameHarness:
    """A private Arena site in ``directory`` (a temporary folder in tests)."""

    def __init__(self, game: str, directory: Path | str, registry: GameRegistry | None = None,
                 database_url: str | None = None) -> None:
        self.game = game
        self.site = Site.open(Path(directory) / "instance", database_url=database_url, registry=registry)

    @classmethod
    def for_folder(cls, folder: Path | str, directory: Path | str) -> GameHarness:
        """The game whose files are in ``folder`` (a game's own tests use this)."""
        folder = Path(folder).resolve()
        name = folder.name
        registry = GameRegistry()
        try:
            gdef = registry.get(name)
            if gdef.directory.resolve() == folder:
                return cls(name, directory, registry)
        except ArenaError:
            pass
        registry = GameRegistry(packages={})
        registry.add_definition(load_game_from_directory(folder, f"arena_game_{name}"))
        return cls(name, directory, registry)

    def create_table(
        self, players: int | Sequence[str] = 0, options: Mapping[Any, Any] | None = None,
        seed: int | str | None = 0, bots: Sequence[int] = (), mode: str = TableMode.STUDIO,
    ) -> TestTable:
        if players == 0:
            players = self.site.registry.get(self.game).info.min_players
        table_id = self.site.runtime.create_table(
            self.game, players, options or {}, seed=seed, bots=bots, mode=mode
        )
        return TestTable(self, table_id)

    def close(self) -> None:
        self.site.close()

    def __enter__(self) -> GameHarness:
        return self

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.close()
