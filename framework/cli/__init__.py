"""The ``arena`` command: thin click wrappers over functions that tests call directly.

``arena bench ...`` comes from the checkout's ``bench/`` package, which the wheel does not
ship: it is there when ``arena`` runs at the top of a checkout.
"""

from __future__ import annotations

import importlib
import importlib.util
import sys
from pathlib import Path

import click

from framework.cli import commands  # noqa: F401  (serve, games, new-game, table, simulate, db)
from framework.cli.base import main
from framework.cli.i18n import i18n
from framework.cli.releases import game, release, upgrade_cmd
from framework.cli.users import user

main.add_command(release)
main.add_command(game)
main.add_command(upgrade_cmd)
main.add_command(i18n)
main.add_command(user)


def _bench_group() -> click.Command | None:
    """The checkout's ``bench`` group: a real lazy load of a package outside the wheel."""
    if importlib.util.find_spec("bench") is None:
        if not (Path.cwd() / "bench" / "cli.py").is_file():
            return None
        sys.path.append(str(Path.cwd()))
    if importlib.util.find_spec("bench.cli") is None:
        return None
    group = getattr(importlib.import_module("bench.cli"), "bench", None)
    return group if isinstance(group, click.Command) else None


_bench = _bench_group()
if _bench is not None:
    main.add_command(_bench)

__all__ = ["main"]
