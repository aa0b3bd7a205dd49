"""``arena user``: accounts and roles from the shell, each error one clear line."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner, Result
from sqlalchemy import select
from sqlalchemy.orm import Session

from framework.cli import main
from framework.platform import accounts
from framework.platform.models import Player, TableSeat
from framework.site import Site


@pytest.fixture
def arena(tmp_path: Path):  # type: ignore[no-untyped-def]
    runner = CliRunner()

    def run(*args: str, given: str | None = None) -> Result:
        return runner.invoke(main, ["--instance", str(tmp_path / "instance"), *args], input=given)

    return run


def test_accounts_and_roles_from_the_shell(arena, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    assert arena("user", "list").output.strip() == "no accounts yet"
    first = arena("user", "add", "ann", given="secret-1\nsecret-1\n")  # the password is asked twice
    assert first.exit_code == 0 and "added ann (id 1, admin)" in first.output  # the first account
    assert arena("user", "add", "bob", "--password", "secret-2").output.strip() == "added bob (id 2)"
    assert arena("user", "grant", "bob", "belote").exit_code == 0
    assert "already was" in arena("user", "grant", "bob", "belote").output
    assert arena("user", "admin", "bob").exit_code == 0
    listing = arena("user", "list").output.splitlines()
    assert listing == ["1\tann\tadmin", "2\tbob\tadmin, developer of belote"]
    assert arena("user", "admin", "bob", "--unset").exit_code == 0
    assert arena("user", "revoke", "bob", "belote").exit_code == 0
    assert arena("user", "list").output.splitlines()[1] == "2\tbob\tplayer"

    site = Site.open(tmp_path / "instance")
    try:
        with Session(site.platform) as s:
            before = s.scalar(select(Player.session_version).where(Player.name == "bob"))
        assert arena("user", "password", "bob", "--password", "secret-3").exit_code == 0
        with Session(site.platform) as s:
            rec = s.query(Player).filter_by(name="bob").one()
            assert rec.session_version == before + 1  # every session of bob ended
            assert accounts.verify_password(rec.password_hash, "secret-3")
    finally:
        site.close()
    assert arena("user", "remove", "bob").output.strip() == "removed bob"
    assert arena("user", "list").output.splitlines() == ["1\tann\tadmin"]


@pytest.mark.parametrize(("args", "message"), [
    (("user", "add", "player1", "--password", "secret-1"), "kept for the studio's test players"),
    (("user", "add", "x", "--password", "secret-1"), "A name is 2 to 32"),
    (("user", "add", "cat", "--password", "short"), "at least 6 characters"),
    (("user", "grant", "nobody", "belote"), "There is no account nobody"),
    (("user", "grant", "ann", "chess"), "No game named chess"),
    (("user", "admin", "ann", "--unset"), "ann is the last admin"),
    (("user", "remove", "ann"), "ann is the last admin"),
    (("user", "add", "ANN", "--password", "secret-1"), "This name is taken"),
])
def test_each_mistake_is_one_line(arena, args: tuple[str, ...], message: str) -> None:  # type: ignore[no-untyped-def]
    assert arena("user", "add", "ann", "--password", "secret-1").exit_code == 0
    result = arena(*args)
    assert result.exit_code == 1 and message in result.output and "Traceback" not in result.output


def test_a_removed_player_who_sat_at_tables_stays_in_their_history(arena, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    arena("user", "add", "ann", "--password", "secret-1")
    arena("user", "add", "bob", "--password", "secret-1")
    site = Site.open(tmp_path / "instance")
    try:
        with Session(site.platform) as s, s.begin():
            bob = s.query(Player).filter_by(name="bob").one()
            table = site.runtime.create_table("belote", 4, seed=1)
            s.add(TableSeat(table_id=table, player_id=bob.id, player_no=9))
        assert "kept in the history" in arena("user", "remove", "bob").output
        with Session(site.platform) as s:
            rec = s.query(Player).filter_by(name="bob").one()
            assert rec.password_hash is None and not rec.is_admin
    finally:
        site.close()
