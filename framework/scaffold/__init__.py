"""``arena new-game NAME``: a small, complete, playable game to start from."""

from __future__ import annotations

from enum import StrEnum
from importlib.resources import files
from pathlib import Path

from framework.core.errors import UserError

RESERVED_NAMES = {"framework", "games", "tests", "migrations", "test"}


class ScaffoldStyle(StrEnum):
    """How the server side of a new game is written."""

    #: today's BGA style: state classes in a ``states/`` package (template/ + template_states/)
    STATES = "states"
    #: the classic style: ``states.py`` rows and ``st_``/``arg_``/``act_`` methods (template/)
    CLASSIC = "classic"


def class_name(name: str) -> str:
    return "".join(part.capitalize() for part in name.split("_")) or "Game"


def render(text: str, name: str) -> str:
    title = " ".join(part.capitalize() for part in name.split("_"))
    return (text.replace("{{name}}", name).replace("{{Title}}", title)
            .replace("{{Class}}", class_name(name)))


def new_game(name: str, games_dir: Path, style: ScaffoldStyle | str = ScaffoldStyle.CLASSIC) -> Path:
    """Write ``games_dir/name/`` from the template (``template/``, then ``template_states/``
    over it for the states style); returns the new folder. ``arena new-game`` defaults to the
    states style.

    Raises:
        UserError: the name is not a lower-case identifier, the folder exists, or the style
            is unknown.
    """
    try:
        style = ScaffoldStyle(style)
    except ValueError:
        raise UserError("Unknown style ${style}; choose states or classic", "bad_style",
                        style=str(style)) from None
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
    overlay = files("framework.scaffold").joinpath("template_states")
    # A package of the overlay replaces the template's module of that name (states/ for
    # states.py).
    replaced = ({f"{c.name}.py.tmpl" for c in overlay.iterdir() if c.is_dir()}
                if style is ScaffoldStyle.STATES else set())
    written: list[Path] = []

    def copy(node, dest: Path, skip: set[str] = set()) -> None:  # type: ignore[no-untyped-def]  # noqa: B006
        for child in node.iterdir():
            if child.name in skip:
                continue
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

    copy(template, target, replaced)
    if style is ScaffoldStyle.STATES:
        copy(overlay, target)
    return target
