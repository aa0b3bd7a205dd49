"""``arena new-game NAME``: a small, complete, playable game to start from."""

from __future__ import annotations

from importlib.resources import files
from pathlib import Path

from framework.core.errors import UserError

RESERVED_NAMES = {"framework", "games", "tests", "migrations", "test"}


def class_name(name: str) -> str:
    return "".join(part.capitalize() for part in name.split("_")) or "Game"


def render(text: str, name: str) -> str:
    title = " ".join(part.capitalize() for part in name.split("_"))
    return (text.replace("{{name}}", name).replace("{{Title}}", title)
            .replace("{{Class}}", class_name(name)))


def new_game(name: str, games_dir: Path) -> Path:
    """Write ``games_dir/name/`` from the template; returns the new folder.

    Raises:
        UserError: the name is not a lower-case identifier, or the folder exists.
    """
    if not (name.isidentifier() and name == name.lower() and not name.startswith("_")):
        raise UserError(
            "A game name is a lower-case Python identifier (letters, digits, _), not ${name}",
            "bad_name", name=name,
        )
    if name in RESERVED_NAMES:
        raise UserError("${name} is a reserved name", "bad_name", name=name)
    target = Path(games_dir) / name
    if target.exists():
        raise UserError("${path} already exists", "exists", path=str(target))
    template = files("framework.scaffold").joinpath("template")
    written: list[Path] = []

    def copy(node, dest: Path) -> None:  # type: ignore[no-untyped-def]
        for child in node.iterdir():
            if child.is_dir():
                if child.name == "__pycache__":
                    continue
                copy(child, dest / child.name)
            elif child.name.endswith(".tmpl"):
                out = dest / render(child.name[: -len(".tmpl")], name)  # static/{{name}}.js
                if out.name == "test_game.py":
                    out = out.with_name(f"test_{name}.py")
                out.parent.mkdir(parents=True, exist_ok=True)
                out.write_text(render(child.read_text(encoding="utf-8"), name), encoding="utf-8")
                written.append(out)

    copy(template, target)
    return target
