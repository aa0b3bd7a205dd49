"""Belote as ``arena table show`` prints it: the seats and team scores, the contract, the trick
on the table and, for the player asked about only, their hand and legal cards."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from framework.game.table import Table

if TYPE_CHECKING:
    from .game import Belote

TEAM_NAMES = ("team 1 (seats 1 and 3)", "team 2 (seats 2 and 4)")


def _contract_line(contract: dict[str, Any], names: dict[int, str]) -> str:
    words = [f"trump {contract['trump']}"]
    if contract.get("value") is not None:
        words.append(f"for {contract['value']}")
    words.append(f"taken by {names.get(int(contract['taker']), contract['taker'])}")
    if contract.get("coinche"):
        words.append("surcoinched" if int(contract["coinche"]) > 1 else "coinched")
    return "contract: " + " ".join(words)


def text_view(table: Belote, player_id: int | None) -> str:
    """The text of ``table`` for ``player_id`` (None: a spectator), built from what
    ``get_all_datas(player_id)`` gives that player, so no other player's cards appear."""
    data = table.get_all_datas(player_id)
    players = table.load_players_basic_infos()
    names = {pid: str(p["player_name"]) for pid, p in players.items()}
    lines = [Table.text_view(table, player_id)]
    scores = data["team_scores"]
    teams: dict[int, list[str]] = {0: [], 1: []}
    for pid, team in data["teams"].items():
        teams[int(team)].append(names.get(int(pid), pid))
    for team, members in teams.items():
        lines.append(f"{TEAM_NAMES[team]}: {', '.join(members)}: {scores[team]} points")
    lines.append(f"hand {data['hand_no']}, dealer {names.get(int(data['dealer']), data['dealer'])}")
    if data["turned"]:
        lines.append(f"turned up: {data['turned']}")
    if data["bids"]:
        lines.append("bids: " + ", ".join(f"{names.get(int(b['player_id']), b['player_id'])} {b['bid']}"
                                          for b in data["bids"]))
    if data["contract"] is not None:
        lines.append(_contract_line(data["contract"], names))
    if data["trick"]:
        lines.append("trick: " + ", ".join(f"{names.get(int(t['player_id']), t['player_id'])} {t['card']}"
                                           for t in data["trick"]))
    if data["contract"] is not None:
        lines.append(f"tricks won: {data['tricks_won'][0]}-{data['tricks_won'][1]}")
    if player_id is not None and player_id in players:
        lines.append(f"your hand: {' '.join(data['hand']) or '(empty)'}")
        if data["legal_cards"]:
            lines.append(f"legal cards: {' '.join(data['legal_cards'])}")
        if data["legal_bids"] and player_id == table.get_active_player_id():
            lines.append(f"legal bids: {' '.join(data['legal_bids'])}")
    return "\n".join(lines)
