"""Many tables at once over HTTP against several workers: every action lands exactly once,
every stream gets every notification once and in order, tables are never seen half-done.

Bounded in count and time; loopback only. Speed is measured by ``arena bench server``.
"""

from __future__ import annotations

import asyncio
import os
import random
import re
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from bench.client import HttpClient, Response
from bench.players import LoadRun
from bench.policies import policy_for
from bench.server import ServerProcess, check_gamelogs, create_tables, free_port
from framework.site import Site
from tests.load.conftest import Served, new_fault_table, step_kinds

# Tables at once per backend: table databases cost more to create on the servers.
TABLES = {"sqlite": 200, "postgresql": 40, "mysql": 20}
ACTIONS_PER_TABLE = 12


def visible_ids(site: Site, table_id: int, player_id: int) -> list[int]:
    with site.store.connect(table_id, write=False) as db:
        q = '"' if db.dialect == "postgresql" else "`"
        rows = db.execute(
            f"SELECT gamelog_packet_id AS i FROM {q}gamelog{q} WHERE gamelog_private = 0 "
            f"OR gamelog_player = {int(player_id)} ORDER BY gamelog_packet_id").rows
    return [int(r["i"]) for r in rows]


def count_cards(site: Site, table_id: int) -> int:
    with site.store.connect(table_id, write=False) as db:
        return int(db.execute("SELECT COUNT(*) AS n FROM card").rows[0]["n"])


class CardWatcher(threading.Thread):
    """Reads the card count of the tables in play, over and over, while they are played:
    a table is never seen with a card missing or doubled (actions are atomic)."""

    def __init__(self, site: Site, table_ids: list[int]) -> None:
        super().__init__(daemon=True)
        self.site, self.table_ids = site, table_ids
        self.stop = threading.Event()
        self.reads = 0
        self.wrong: list[tuple[int, int]] = []

    def run(self) -> None:
        rng = random.Random(3)
        while not self.stop.is_set():
            table_id = rng.choice(self.table_ids)
            n = count_cards(self.site, table_id)
            self.reads += 1
            if n != 32:
                self.wrong.append((table_id, n))
            time.sleep(0.002)


def test_many_belote_tables_played_by_bots_at_once(served: Served) -> None:
    site = served.site
    tables = TABLES[site.store.dialect]
    specs = create_tables(site, "belote", tables, 4, {})
    ids = [t for t, _ in specs]
    watcher = CardWatcher(site, ids)
    watcher.start()
    run = LoadRun(served.server.host, served.server.port, specs, policy_for("belote"),
                  max_actions_per_table=ACTIONS_PER_TABLE, seed=7)
    try:
        elapsed = run.run(timeout=240)
    finally:
        watcher.stop.set()
        watcher.join(10)
    stats = run.stats
    assert stats.errors == 0, (stats.error_kinds, stats.error_details, served.server.log()[-3000:])
    assert stats.order_violations == 0
    # every table was played (bids and cards), through several workers
    assert stats.actions >= tables * ACTIONS_PER_TABLE * 0.9, (stats.actions, elapsed)
    assert watcher.reads > 0 and watcher.wrong == []
    assert all(count_cards(site, t) == 32 for t in ids)
    assert check_gamelogs(site, ids) == []
    # each player's stream delivered what it may see, each row once, in order, none lost
    for bot in run.bots:
        got = bot.received_ids
        assert got == sorted(set(got)), (bot.table_id, bot.me)
        if got:
            truth = [i for i in visible_ids(site, bot.table_id, bot.me) if got[0] <= i <= got[-1]]
            assert got == truth, (bot.table_id, bot.me)


async def csrf(conn: HttpClient, table_id: int, player: int) -> str:
    page = await conn.request("GET", f"/table/{table_id}?as={player}")
    found = re.search(r'"csrf": ?"([^"]+)"', page.text)
    assert found
    return found.group(1)


def act_at_once(served: Served, table_id: int, calls: list[tuple[int, str, int]]) -> list[Response]:
    """POST the actions (player, action, seen move) at the same moment, each on its own
    connection (and so, as gunicorn hands them out, often to different workers)."""

    async def go() -> list[Response]:
        conns = [served.client() for _ in calls]
        try:
            tokens = [await csrf(c, table_id, player) for c, (player, _, _) in zip(conns, calls, strict=True)]
            return list(await asyncio.gather(*[
                c.request("POST", f"/table/{table_id}/act/{action}?as={player}",
                          {"X-CSRF-Token": token, "X-Arena-Move": str(move),
                           "Content-Type": "application/json"}, b"{}")
                for c, token, (player, action, move) in zip(conns, tokens, calls, strict=True)]))
        finally:
            for c in conns:
                await c.aclose()

    return asyncio.run(go())


def test_a_double_click_applies_once_across_workers(served: Served) -> None:
    site = served.site
    table_id, (a, _) = new_fault_table(site)
    for round_no in range(12):
        move = site.runtime.get_data(table_id, a)["move"]
        answers = act_at_once(served, table_id, [(a, "step", move), (a, "step", move)])
        codes = sorted(r.status_code for r in answers)
        assert codes == [200, 409], (round_no, [r.content for r in answers])
        refused = next(r for r in answers if r.status_code == 409).json()["error"]
        assert refused["code"] == "stale_move"
    assert len(step_kinds(site, table_id)) == 12
    assert check_gamelogs(site, [table_id]) == []


def test_players_racing_in_a_multiactive_state_all_land(served: Served) -> None:
    site = served.site
    table_id, players = new_fault_table(site, players=4)
    for _ in range(6):
        move = site.runtime.get_data(table_id, None)["move"]
        first = act_at_once(served, table_id, [(players[0], "vote", move)])
        assert first[0].status_code == 200
        data = site.runtime.get_data(table_id, None)
        assert data["gamestate"]["name"] == "vote"
        answers = act_at_once(served, table_id, [(p, "vote", data["move"]) for p in players])
        assert [r.status_code for r in answers] == [200] * 4, [r.content for r in answers]
        assert site.runtime.get_data(table_id, None)["gamestate"]["name"] == "play"
    assert step_kinds(site, table_id).count("vote") == 24
    assert check_gamelogs(site, [table_id]) == []


def test_arena_serve_production_runs_several_workers_on_one_port(tmp_path: Path) -> None:
    port = free_port()
    env = {**os.environ, "ARENA_INSTANCE": str(tmp_path / "instance")}
    env.pop("ARENA_DATABASE_URL", None)
    log_path = tmp_path / "serve.log"
    with open(log_path, "wb") as log_file:
        proc = subprocess.Popen(
            [sys.executable, "-c", "from framework.cli import main; main()", "serve", "--production",
             "--workers", "3", "--port", str(port)], env=env,
            stdout=log_file, stderr=subprocess.STDOUT, start_new_session=True)
    server = ServerProcess(proc, "127.0.0.1", port, log_path)
    try:
        server.wait_ready(60, workers=3)  # says the log when it does not start
        assert len(server.worker_pids()) == 3
    finally:
        server.stop()


pytestmark = pytest.mark.filterwarnings("ignore::ResourceWarning")


def test_think_times_are_exponential_of_the_pace_and_replay_by_seed() -> None:
    from bench.client import Transport
    from bench.players import Bot

    def draws(seed: int, table: int, seat: int) -> list[float]:
        run = LoadRun("127.0.0.1", 1, [(table, [seat])], policy_for("belote"), seed=seed, pace=5.0)
        run.transport = Transport("127.0.0.1", 1)  # never connects: only the bot's sources are used
        bot = Bot(run, table, seat, random.Random(0))
        return [bot.think.expovariate(1.0 / 5.0) for _ in range(4000)]

    first = draws(1, 10, 2)
    assert first == draws(1, 10, 2)  # the same run replays its think times
    assert first != draws(2, 10, 2) and first != draws(1, 10, 3) and first != draws(1, 11, 2)
    mean = sum(first) / len(first)
    assert 4.6 < mean < 5.4  # mean of 4000 exponential draws of mean 5 (sd of the mean ~0.08)
    assert sorted(first)[len(first) // 2] < mean  # skewed as an exponential is (median = ln 2 x mean)
