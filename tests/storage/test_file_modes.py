"""Table databases and instance folders are their owner's alone (issue 16, finding 9):
files 0600 (the -wal and -shm files too), folders 0700, whatever the umask lets through."""

from __future__ import annotations

import os
import stat
from pathlib import Path

from framework.site import Site
from framework.web import create_app


def _mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def test_table_files_and_instance_folders_are_private(tmp_path: Path) -> None:
    old = os.umask(0o022)  # the usual umask: files 0644 and folders 0755 unless asked otherwise
    try:
        site = Site.open(tmp_path / "site")
        table_id = site.runtime.create_table("belote", 4, seed=1)
        files = [site.store.path(table_id)]  # type: ignore[attr-defined]
        files += [Path(f"{files[0]}-wal"), Path(f"{files[0]}-shm")]
        files.append(tmp_path / "site" / "platform.sqlite")
        for path in files:
            assert path.exists(), path
            assert _mode(path) == 0o600, (path, oct(_mode(path)))
        for folder in (tmp_path / "site", tmp_path / "site" / "tables"):
            assert _mode(folder) == 0o700, (folder, oct(_mode(folder)))
        site.close()
        app = create_app({"TESTING": True, "ARENA_INSTANCE": str(tmp_path / "web"), "SECRET_KEY": "x"})
        assert _mode(tmp_path / "web") == 0o700
        assert _mode(tmp_path / "web" / "platform.sqlite") == 0o600
        app.extensions["arena"].close()
    finally:
        os.umask(old)
