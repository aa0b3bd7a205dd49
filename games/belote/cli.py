"""``arena belote ...``: replay a hand record, export a table's records, benchmarks, and
duplicate matches between bot levels.

The commands are thin click wrappers over `load_record`, `format_report`, `bench_framework`,
`bench`, `bots.duplicate.duplicate` and `format_duplicate`, which tests call directly.
"""

from __future__ import annotations

import json
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import click

from . import material
from .bench import bench_bots, bench_pure
from .bots import BOT_ALIASES, BOT_LEVELS, SearchBudget
from .bots.duplicate import duplicate
from .records import RecordError, replay
from .rules import Rules, trump_from_str

_BOT_NAMES = click.Choice(list(BOT_LEVELS) + sorted(BOT_ALIASES))


def load_record(path: Path, line: int | None = None) -> dict[str, Any]:
    """The record in ``path``: the whole file is one JSON object, or with ``line`` the
    N-th line (from 1) of a JSON Lines file.

    Raises:
        RecordError: the file cannot be read, the line does not exist, or it is not JSON.
    """
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as error:
        raise RecordError(f"{path}: {error.strerror or error}") from None
    where = str(path)
    if line is not None:
        lines = [item for item in text.splitlines() if item.strip()]
        if not 1 <= line <= len(lines):
            raise RecordError(f"{path}: there is no line {line} (the file has {len(lines)} records)")
        text, where = lines[line - 1], f"{path} line {line}"
    try:
        record = json.loads(text)
    except json.JSONDecodeError as error:
        hint = " (a JSON Lines file? pick one record with --line N)" if line is None else ""
        raise RecordError(f"{where}: not a JSON record: {error.msg} at line {error.lineno}{hint}") from None
    if not isinstance(record, dict):
        raise RecordError(f"{where}: a hand record must be a JSON object")
    return record


def _pair(values: Sequence[Any]) -> str:
    return f"{values[0]}-{values[1]}"


def format_report(report: dict[str, Any]) -> list[str]:
    """Lines of a replay report: the contract, every step with its legal cards, every
    trick, then the score breakdown."""
    contract = report["contract"]
    if contract is None:
        return ["contract: none (everybody passed, the cards are dealt again)"]
    value = f"{contract['value']} " if "value" in contract else ""
    trump = material.trump_name(trump_from_str(contract["trump"]))
    coinche = ("", ", coinched", ", surcoinched")[contract.get("coinche", 0)]
    lines = [f"contract: {value}{trump} ({contract['trump']}){coinche}, taken by seat {contract['taker']} "
             f"(dealer seat {report['dealer']})"]
    tricks = report["tricks"]
    for step in report["steps"]:
        lines.append(f"step {step['step']}: seat {step['seat']} plays {step['card']} "
                     f"(legal: {' '.join(step['legal'])})")
        number = step["step"] // 4
        if step["step"] % 4 == 0 and number <= len(tricks):
            trick = tricks[number - 1]
            lines.append(f"trick {number}: led by seat {trick['leader']}: {' '.join(trick['cards'])}; "
                         f"seat {trick['winner']} wins {trick['points']} points")
    lines.append(f"tricks won: {_pair(report['tricks_won'])}; card points: {_pair(report['card_points'])}")
    if not report["complete"]:
        lines.append(f"incomplete: {len(report['steps'])} of 32 cards played")
        return lines
    score = report["score"]
    lines.append(f"belote: {_pair(score['belote'])}; announcements: {_pair(score['announcements'])}; "
                 f"dix de der: {_pair(score['dix_de_der'])}")
    extra = ""
    if score["capot"]:
        extra += f", capot by team {score['capot_team']}"
    if score["carried_in"] or score["carry_out"]:
        extra += f", carried in {score['carried_in']}, held for next hand {score['carry_out']}"
    lines.append(f"outcome: {score['outcome']}{extra}; hand score: {_pair(report['hand_score'])}")
    return lines


def bench_framework(games: int = 3, seed: int = 1, bots: Sequence[str] = ("random",),
                    options: dict[str, Any] | None = None) -> dict[str, Any]:
    """Whole bot games through the Arena runtime on a temporary site (table creation,
    SQLite writes, notifications): hands played per second."""
    from framework.site import Site

    hands = 0
    with tempfile.TemporaryDirectory() as tmp:
        site = Site.open(Path(tmp) / "instance")
        try:
            start = time.perf_counter()
            for number in range(games):
                table_id = site.runtime.create_table(
                    "belote", 4, options or {}, seed=f"{seed}:{number}",
                    bots={seat: bots[seat % len(bots)] for seat in range(4)})
                with site.runtime.read(table_id) as table:
                    hands += int(table.simulation_summary()["hands"])  # type: ignore[attr-defined]
            seconds = time.perf_counter() - start
        finally:
            site.close()
    return {"framework_hands_per_s": round(hands / seconds, 1) if seconds else 0.0, "hands": hands,
            "seconds": round(seconds, 3)}


def bench(pure_hands: int = 20000, games: int = 3, seed: int = 1) -> dict[str, float]:
    """Both benchmarks: the pure engine's random hands and whole games through the runtime."""
    pure = bench_pure(pure_hands, seed)
    framework = bench_framework(games, seed)
    return {"pure_hands_per_s": round(float(pure["pure_hands_per_s"]), 1),
            "framework_hands_per_s": framework["framework_hands_per_s"]}


def format_duplicate(result: dict[str, Any]) -> list[str]:
    """Lines of a duplicate report (see `bots.duplicate.duplicate`)."""
    low, high = result["ci95"]
    contracts = result["contracts"]
    lines = [
        f"{result['a']} vs {result['b']}, {result['variant']}, {result['deals']} deals played "
        f"twice with the seats swapped (seed {result['seed']})",
        f"mean difference: {result['mean_difference']:+.2f} points a hand for {result['a']} "
        f"(95 % interval {low:+.2f} to {high:+.2f}, sd {result['sd']})",
        f"contracts: {result['a']} took {contracts['a']} (made {contracts['made_a']}), "
        f"{result['b']} took {contracts['b']} (made {contracts['made_b']}), "
        f"{contracts['cancelled']} hands all passed",
    ]
    if result["games"]:
        lines.append(f"games to {result['target']}: {result['a']} won {result['a_wins']} of "
                     f"{result['games']} ({100 * result['a_win_rate']:.1f} %)")
    return lines


@click.group()
def cli() -> None:
    """Belote: replay hand records, export a table's records, benchmarks, bot matches."""


@cli.command("replay")
@click.argument("file", type=click.Path(path_type=Path, dir_okay=False))
@click.option("--json", "as_json", is_flag=True, help="Print the replay report as JSON.")
@click.option("--line", type=int, default=None, help="Replay the N-th record of a JSON Lines file.")
def replay_cmd(file: Path, as_json: bool, line: int | None) -> None:
    """Replay a hand record, checking every card, and print each step, trick and the score."""
    try:
        report = replay(load_record(file, line))
    except RecordError as error:
        click.echo(f"error: {error}", err=True)
        sys.exit(1)
    if as_json:
        click.echo(json.dumps(report))
        return
    for text in format_report(report):
        click.echo(text)


@cli.command("record")
@click.argument("table_id", type=int)
@click.option("--hand", "hand_no", type=int, default=None, help="Hand number (default: the last one).")
@click.pass_context
def record_cmd(ctx: click.Context, table_id: int, hand_no: int | None) -> None:
    """Print the record of a played hand of a table (for bug reports and replays)."""
    from framework.cli.base import site_of
    from framework.core.errors import ArenaError

    try:
        with site_of(ctx).runtime.read(table_id) as table:
            record = table.hand_record(hand_no)  # type: ignore[attr-defined]
    except ArenaError as error:
        click.echo(f"error: {error}", err=True)
        sys.exit(1)
    if record is None:
        which = "no played hand yet" if hand_no is None else f"no played hand {hand_no}"
        click.echo(f"error: table {table_id} has {which}", err=True)
        sys.exit(1)
    click.echo(json.dumps(record))


@cli.command("bench")
@click.option("--hands", "pure_hands", default=20000, show_default=True,
              help="Random hands for the pure engine.")
@click.option("--games", default=3, show_default=True, help="Whole bot games through the runtime.")
@click.option("--seed", default=1, show_default=True)
def bench_cmd(pure_hands: int, games: int, seed: int) -> None:
    """Print {"pure_hands_per_s": ..., "framework_hands_per_s": ...} as JSON."""
    click.echo(json.dumps(bench(pure_hands, games, seed)))


@cli.command("duplicate")
@click.option("--a", "a", type=_BOT_NAMES, default="expert", show_default=True, help="First bot level.")
@click.option("--b", "b", type=_BOT_NAMES, default="beginner", show_default=True, help="Second bot level.")
@click.option("--deals", default=100, show_default=True, type=click.IntRange(min=0),
              help="Deals, each played twice with the seats swapped.")
@click.option("--variant", type=click.Choice(["classic", "contree"]), default="classic",
              show_default=True)
@click.option("--seed", default=1, show_default=True)
@click.option("--games", default=0, show_default=True, type=click.IntRange(min=0),
              help="Also play this many games to the target score (sides alternate).")
@click.option("--target", default=1000, show_default=True, type=click.IntRange(min=1),
              help="Score that ends a game.")
@click.option("--samples", default=None, type=click.IntRange(min=1),
              help="Sampled deals per expert decision (default: the expert's budget).")
@click.option("--json", "as_json", is_flag=True, help="Print the result as JSON.")
def duplicate_cmd(a: str, b: str, deals: int, variant: str, seed: int, games: int, target: int,
                  samples: int | None, as_json: bool) -> None:
    """Duplicate match between two bot levels: mean score difference per hand with a 95 %
    interval, and the win rate in games to the target."""
    budget = None
    if samples is not None:
        budget = SearchBudget(card_samples=samples, bid_samples=max(samples, SearchBudget().bid_samples))
    rules = Rules(variant=variant, target=target)  # type: ignore[arg-type]
    result = duplicate(a, b, deals, rules, seed=seed, games=games, budget=budget)
    if as_json:
        click.echo(json.dumps(result))
        return
    for text in format_duplicate(result):
        click.echo(text)


@cli.command("bench-bots")
@click.option("--deals", default=20, show_default=True, type=click.IntRange(min=1))
@click.option("--variant", type=click.Choice(["classic", "contree"]), default="classic",
              show_default=True)
@click.option("--seed", default=1, show_default=True)
def bench_bots_cmd(deals: int, variant: str, seed: int) -> None:
    """Time the expert bot's decisions (ms a card and a bid, mean and max) as JSON."""
    click.echo(json.dumps(bench_bots(deals, Rules(variant=variant), seed)))  # type: ignore[arg-type]
