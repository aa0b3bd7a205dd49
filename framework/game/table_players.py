"""BGA's player helpers of ``Table``: who plays, in which order, who sent the request, who is
active next, colours, scores and elimination."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, Literal, overload

from framework.core.errors import GameSystemError
from framework.game.globals import GLOBAL_ACTIVE_PLAYER
from framework.game.table_notify import TableNotifications

if TYPE_CHECKING:
    from framework.game.gamestate import GameStateMachine

_COLOR = re.compile(r"[0-9a-fA-F]{6}")
#: ``arena_meta`` key of a player's favourite colour (``color_preference:<player id>``).
COLOR_PREFERENCE_META = "color_preference:"


def attribute_colors(
    current: Mapping[int, str], preferences: Mapping[int, str], colors: Sequence[str],
    pairings: Mapping[str, str | Sequence[str] | None] | None = None,
) -> dict[int, str]:
    """Each player's colour once favourite colours are honoured, in seat order: a player whose
    favourite colour (or one paired with it) is free gets it; the others keep theirs if it is
    still free, else take the first free colour of ``colors``.

    >>> attribute_colors({1: "ff0000", 2: "008000"}, {2: "ff0000"}, ["ff0000", "008000"])
    {1: '008000', 2: 'ff0000'}
    """
    taken: dict[int, str] = {}
    used: set[str] = set()
    paired = {k.lower(): v for k, v in (pairings or {}).items()}

    def candidates(preferred: str) -> list[str]:
        found = [c for c in colors if c.lower() == preferred.lower()]
        for game_color, wanted in paired.items():
            options = [wanted] if isinstance(wanted, str) else list(wanted or [])
            if any(o.lower() == preferred.lower() for o in options):
                found += [c for c in colors if c.lower() == game_color]
        return found

    for pid in current:
        preferred = preferences.get(pid)
        for color in candidates(preferred) if preferred else []:
            if color not in used:
                taken[pid] = color
                used.add(color)
                break
    for pid, color in current.items():
        if pid in taken:
            continue
        if color in colors and color not in used:
            taken[pid] = color
        else:
            taken[pid] = next(c for c in colors if c not in used)
        used.add(taken[pid])
    return {pid: taken[pid] for pid in current}


class TablePlayers(TableNotifications):
    """The players of the table (cached for the request), the current and active players."""

    gamestate: GameStateMachine

    # ----------------------------------------------------------------- the players
    def load_players_basic_infos(self) -> dict[int, dict[str, Any]]:
        """player_id -> id, name, color, no, zombie, eliminated, ai (ordered by player_no)."""
        return {pid: dict(p) for pid, p in self._player_rows().items()}

    def reload_players_basic_infos(self) -> dict[int, dict[str, Any]]:
        """``load_players_basic_infos`` read again from the database (after the game changed
        ``player`` rows behind the cache, e.g. colours)."""
        self._players = None
        return self.load_players_basic_infos()

    def _player_rows(self) -> dict[int, dict[str, Any]]:
        if self._players is None:
            rows = self.db_query(
                "SELECT player_id, player_name, player_color, player_no, player_zombie, "
                "player_eliminated, player_ai, player_is_multiactive, "
                "player_remaining_reflexion_time, player_start_reflexion_time, "
                "player_score, player_score_aux FROM player ORDER BY player_no"
            ).rows
            self._players = {
                int(r["player_id"]): {
                    "player_id": int(r["player_id"]),
                    "player_name": r["player_name"],
                    "player_color": r["player_color"],
                    "player_no": int(r["player_no"]),
                    "player_zombie": int(r["player_zombie"]),
                    "player_eliminated": int(r["player_eliminated"]),
                    "player_ai": int(r["player_ai"]),
                    "player_is_multiactive": int(r["player_is_multiactive"]),
                }
                for r in rows
            }
            self._clocks = {int(r["player_id"]): (r["player_remaining_reflexion_time"],
                                                  r["player_start_reflexion_time"]) for r in rows}
            self._scores = {int(r["player_id"]): (int(r["player_score"]), int(r["player_score_aux"]))
                            for r in rows}
        return self._players

    def _player_row(self, player_id: int, helper: str) -> dict[str, Any]:
        rows = self._player_rows()
        if isinstance(player_id, bool) or not isinstance(player_id, int) or player_id not in rows:
            raise GameSystemError(
                f"{helper}({player_id!r}): no such player at this table "
                f"(players: {', '.join(map(str, rows)) or 'none'})"
            )
        return rows[player_id]

    def get_players_number(self) -> int:
        """How many players sit at the table (zombies and eliminated players included)."""
        return len(self._player_rows())

    def get_player_count(self) -> int:
        """``get_players_number`` (BGA's newer name)."""
        return self.get_players_number()

    def get_player_name_by_id(self, player_id: int) -> str:
        return str(self._player_row(player_id, "get_player_name_by_id")["player_name"])

    def get_player_color_by_id(self, player_id: int) -> str:
        return str(self._player_row(player_id, "get_player_color_by_id")["player_color"])

    def get_player_no_by_id(self, player_id: int) -> int:
        """The player's seat number, 1 for the first (an int; BGA gives the text)."""
        return int(self._player_row(player_id, "get_player_no_by_id")["player_no"])

    # ----------------------------------------------------------------- who sent the request
    @overload
    def get_current_player_id(self, return_none_if_not_logged: Literal[False] = False) -> int: ...
    @overload
    def get_current_player_id(self, return_none_if_not_logged: Literal[True]) -> int | None: ...

    def get_current_player_id(self, return_none_if_not_logged: bool = False) -> int | None:
        """The person who sent this request: a player, or a signed-in spectator (as on BGA;
        ``is_spectator()`` tells them apart).

        Raises:
            GameSystemError: nobody sent it (a game state, a zombie or bot turn, setup, a
                visitor who is not signed in), unless ``return_none_if_not_logged`` (then the
                result is None).
        """
        pid = self._ctx.current_player_id
        if pid is None:
            if return_none_if_not_logged:
                return None
            raise GameSystemError(
                "get_current_player_id: no current player here (a game state, a zombie or "
                "bot turn, setup, or a visitor who is not signed in)"
            )
        return pid

    def get_current_player_name(self) -> str:
        return self.get_player_name_by_id(self._current_seated("get_current_player_name"))

    def get_current_player_color(self) -> str:
        return self.get_player_color_by_id(self._current_seated("get_current_player_color"))

    def _current_seated(self, helper: str) -> int:
        pid = self.get_current_player_id()
        if pid not in self._player_rows():
            raise GameSystemError(f"{helper}: the current user {pid} is a spectator, not a player")
        return pid

    def is_spectator(self) -> bool:
        """The request comes from someone who does not play at this table (a signed-in
        spectator or a visitor)."""
        return self._ctx.current_player_id not in self._player_rows()

    def is_current_player_zombie(self) -> bool:
        """The player who sent the request has left the table.

        Raises:
            GameSystemError: the request comes from a spectator (as on BGA).
        """
        return bool(self._player_row(
            self._current_seated("is_current_player_zombie"), "is_current_player_zombie",
        )["player_zombie"])

    # ----------------------------------------------------------------- turn order
    def get_active_player_id(self) -> int:
        """The active player of an ``activeplayer`` state (0: none yet)."""
        return int(self._read_global(GLOBAL_ACTIVE_PLAYER) or 0)

    def get_active_player_name(self) -> str:
        return self.get_player_name_by_id(self.get_active_player_id())

    def create_next_player_table(self, player_ids: Sequence[int], loop: bool = True) -> dict[int, int]:
        """player -> next player in ``player_ids`` order (key 0: the first of them)."""
        table: dict[int, int] = {}
        ids = list(player_ids)
        for i, pid in enumerate(ids[:-1]):
            table[pid] = ids[i + 1]
        if ids:
            if loop:
                table[ids[-1]] = ids[0]
            table[0] = ids[0]
        return table

    def _seating(self, include_out: bool = False) -> list[int]:
        infos = self._player_rows()
        return [
            pid for pid, p in infos.items()
            if include_out or not p["player_eliminated"]
        ]

    def get_next_player_table(self) -> dict[int, int]:
        """player -> next player in player_no order (key 0: the first player)."""
        return self.create_next_player_table(self._seating(include_out=True))

    def get_prev_player_table(self) -> dict[int, int]:
        return self.create_next_player_table(list(reversed(self._seating(include_out=True))))

    def get_player_after(self, player_id: int) -> int:
        """The next player still in the game after ``player_id`` (eliminated ones skipped)."""
        self._player_row(player_id, "get_player_after")
        return self._next_in_game(self._seating(include_out=True), player_id)

    def get_player_before(self, player_id: int) -> int:
        self._player_row(player_id, "get_player_before")
        return self._next_in_game(list(reversed(self._seating(include_out=True))), player_id)

    def _next_in_game(self, order: list[int], player_id: int) -> int:
        """The first player after ``player_id`` in ``order`` (round the table) who is not
        eliminated; ``player_id`` when nobody else is left."""
        infos = self._player_rows()
        i = order.index(player_id)
        for step in range(1, len(order) + 1):
            candidate = order[(i + step) % len(order)]
            if not infos[candidate]["player_eliminated"]:
                return candidate
        return player_id

    def active_next_player(self) -> int:
        """Make the next player active and return them. While nobody is active yet (in
        ``setup_new_game``), that is the first player, as on BGA."""
        current = self.get_active_player_id()
        if current == 0:
            nxt = self._seating()[0]
        else:
            nxt = self.get_player_after(current)
        self.gamestate.change_active_player(nxt)
        return nxt

    def active_prev_player(self) -> int:
        """Make the previous player active and return them (the last player while nobody is
        active yet)."""
        current = self.get_active_player_id()
        prev = self._seating()[-1] if current == 0 else self.get_player_before(current)
        self.gamestate.change_active_player(prev)
        return prev

    def is_player_active(self, player_id: int) -> bool:
        return player_id in self.gamestate.get_active_player_list()

    # ----------------------------------------------------------------- bots, zombies, elimination
    def get_bot_kind(self, player_id: int) -> str | None:
        """The kind of bot playing ``player_id`` (None: a person)."""
        if not self._player_row(player_id, "get_bot_kind")["player_ai"]:
            return None
        return self.meta(f"bot:{player_id}") or "default"

    def is_zombie(self, player_id: int) -> bool:
        return bool(self._player_row(player_id, "is_zombie")["player_zombie"])

    def eliminate_player(self, player_id: int) -> None:
        """Take a player out of the game (they keep their score and rank last)."""
        self._player_row(player_id, "eliminate_player")
        self.db_query("UPDATE player SET player_eliminated = 1, player_is_multiactive = 0 "
                      "WHERE player_id = %s", (player_id,))
        self.notify_all_players(
            "playerEliminated", "${player_name} is eliminated",
            player_id=player_id, player_name=self.get_player_name_by_id(player_id),
        )

    # ----------------------------------------------------------------- colours
    def get_specific_color_pairings(self) -> dict[str, str | list[str] | None]:
        """Override: game colour -> the favourite colour(s) it stands for (BGA's
        ``getSpecificColorPairings``); used by ``reattribute_colors_based_on_preferences``."""
        return {}

    def player_color_preferences(self) -> dict[int, str]:
        """Each player's favourite colour, from the table's ``color_preference:<id>`` meta
        values (Arena accounts hold none yet: a table's creator or a test sets them)."""
        prefs = self.metas_like(COLOR_PREFERENCE_META)
        return {int(k[len(COLOR_PREFERENCE_META):]): v for k, v in prefs.items()
                if k[len(COLOR_PREFERENCE_META):].isdigit()}

    def reattribute_colors_based_on_preferences(
        self, players: Mapping[int, Any], colors: Sequence[str],
    ) -> dict[int, str]:
        """Give players their favourite colour where ``colors`` has it free (BGA's
        ``reattributeColorsBasedOnPreferences``); returns each player's colour afterwards.

        Raises:
            GameSystemError: ``colors`` is not a list of ``rrggbb`` colours, has fewer colours
                than players, or ``players`` names someone who does not play here.
        """
        colors = list(colors)
        if not all(isinstance(c, str) and _COLOR.fullmatch(c) for c in colors):
            raise GameSystemError(
                f"reattribute_colors_based_on_preferences: colours are 'rrggbb' texts, got {colors!r}"
            )
        rows = self._player_rows()
        unknown = [p for p in players if p not in rows]
        if unknown:
            raise GameSystemError(
                f"reattribute_colors_based_on_preferences: no players {unknown} at this table"
            )
        if len(colors) < len(rows):
            raise GameSystemError(
                f"reattribute_colors_based_on_preferences: {len(colors)} colours for "
                f"{len(rows)} players"
            )
        current = {pid: str(rows[pid]["player_color"]) for pid in rows}
        result = attribute_colors(current, self.player_color_preferences(), colors,
                                  self.get_specific_color_pairings())
        for pid, color in result.items():
            if color != current[pid]:
                self.db_query("UPDATE player SET player_color = %s WHERE player_id = %s", (color, pid))
        self.reload_players_basic_infos()
        return result

    # ----------------------------------------------------------------- scores
    def set_player_score(self, player_id: int, score: int, score_aux: int | None = None) -> None:
        if score_aux is None:
            self.db_query("UPDATE player SET player_score = %s WHERE player_id = %s", (score, player_id))
        else:
            self.db_query(
                "UPDATE player SET player_score = %s, player_score_aux = %s WHERE player_id = %s",
                (score, score_aux, player_id),
            )

    def get_player_scores(self) -> dict[int, tuple[int, int]]:
        rows = self.db_query("SELECT player_id, player_score, player_score_aux FROM player").rows
        return {int(r["player_id"]): (int(r["player_score"]), int(r["player_score_aux"])) for r in rows}
