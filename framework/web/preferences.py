"""Players' game preferences (card faces, ...): the values a game declares (``PREFERENCES``)
kept per account in ``game_preferences``, given to the table page, changed by
``POST /preferences/<game>`` (BGA's ``getGameUserPreference`` / ``onGameUserPreferenceChanged``).

Who: the signed-in player; in the local studio, ``?as=<player id>`` names the test player, as
on its table pages.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, jsonify, request
from sqlalchemy import select

from framework.core.errors import NotFoundError, NotYourTurnError, UserError
from framework.game.registry import GameDefinition
from framework.platform.models import GamePreference, Player, db
from framework.web.access import is_studio_site
from framework.web.auth import current_account
from framework.web.current import site

bp = Blueprint("preferences", __name__)


def stored_preferences(player_id: int | None, gdef: GameDefinition) -> dict[str, int]:
    """Every preference of the game for ``player_id``: the stored value, else the default
    (all defaults for a spectator). Keys are the preference ids as strings (JSON)."""
    values = {pref_id: pref.default for pref_id, pref in gdef.options.preferences.items()}
    if player_id is not None and values:
        with db.session.begin():
            rows = db.session.execute(select(GamePreference.preference_id, GamePreference.value)
                                      .where(GamePreference.player_id == player_id,
                                             GamePreference.game == gdef.name)).all()
        for pref_id, value in rows:
            pref = gdef.options.preferences.get(pref_id)
            if pref is not None and value in pref.values:
                values[pref_id] = value
    return {str(pref_id): value for pref_id, value in values.items()}


def _whole_number(raw: Any, what: str) -> int:
    if isinstance(raw, bool):
        raw = None
    try:
        return int(str(raw))
    except (TypeError, ValueError):
        raise UserError("${what} must be a whole number, not ${value}", "bad_preference",
                        what=what, value=str(raw)[:32]) from None


def _player() -> int:
    """The player whose preference changes.

    Raises:
        NotYourTurnError: nobody signed in (and no studio ``as``), or ``as`` names another
            player on a production site.
    """
    account = current_account()
    raw_as = request.args.get("as")
    if raw_as not in (None, ""):
        player_id = _whole_number(raw_as, "as")
        if is_studio_site() or (account is not None and account["id"] == player_id):
            return player_id
        raise NotYourTurnError("You can only change your own preferences", "wrong_player")
    if account is None:
        raise NotYourTurnError("Sign in to keep your preferences", "not_signed_in")
    return int(account["id"])


@bp.post("/preferences/<game>")
def set_preference(game: str) -> Any:
    """Store one preference: a JSON body ``{"id": <preference id>, "value": <value>}``.

    Raises:
        NotFoundError: no such game, or no such player.
        UserError: the game has no such preference, or the preference no such value.
    """
    gdef = site().registry.get(game)
    player_id = _player()
    body = request.get_json(silent=True)
    if not isinstance(body, dict):
        raise UserError("Send the preference as a JSON object with an id and a value",
                        "bad_preference")
    pref_id = _whole_number(body.get("id"), "id")
    value = _whole_number(body.get("value"), "value")
    pref = gdef.options.preferences.get(pref_id)
    if pref is None:
        raise UserError("Game ${game} has no preference ${preference}", "bad_preference",
                        game=gdef.name, preference=pref_id)
    if value not in pref.values:
        raise UserError("Preference ${preference} has no value ${value}", "bad_preference",
                        preference=pref.key, value=value)
    with db.session.begin():
        if db.session.get(Player, player_id) is None:
            raise NotFoundError("There is no player ${player}", "no_player", player=player_id)
        db.session.merge(GamePreference(player_id=player_id, game=gdef.name,
                                        preference_id=pref_id, value=value))
    return jsonify({"ok": True, "id": pref_id, "value": value})
