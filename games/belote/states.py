"""The states of Belote (BGA's states.inc.php). Ids are forever: never renumber them."""

from framework.game.states import State, StateType, end_state, setup_state
from framework.i18n import clienttranslate

NEW_HAND, PLAYER_BID, NEXT_BIDDER, CONTREE_WINDOW = 10, 20, 25, 30
PLAYER_TURN, NEXT_PLAYER, END_HAND, GAME_END_SCORING = 40, 45, 50, 98

STATES = [
    setup_state(next_state=NEW_HAND),
    State(
        NEW_HAND, "newHand", StateType.GAME, action="st_new_hand",
        transitions={"bid": PLAYER_BID},
    ),
    State(
        PLAYER_BID, "playerBid", StateType.ACTIVE_PLAYER,
        description=clienttranslate("${actplayer} must bid"),
        description_my_turn=clienttranslate("${you} must bid"),
        args="arg_player_bid",
        possible_actions=["bid"],
        transitions={"next": NEXT_BIDDER},
        update_game_progression=True,
    ),
    State(
        NEXT_BIDDER, "nextBidder", StateType.GAME, action="st_next_bidder",
        transitions={"bid": PLAYER_BID, "window": CONTREE_WINDOW, "play": PLAYER_TURN,
                     "redeal": NEW_HAND},
    ),
    State(
        CONTREE_WINDOW, "contreeWindow", StateType.ACTIVE_PLAYER,
        description=clienttranslate("${actplayer} may ${window_action} or pass"),
        description_my_turn=clienttranslate("${you} may ${window_action} or pass"),
        args="arg_contree_window",
        possible_actions=["bid"],
        transitions={"next": NEXT_BIDDER},
        update_game_progression=True,
    ),
    State(
        PLAYER_TURN, "playerTurn", StateType.ACTIVE_PLAYER,
        description=clienttranslate("${actplayer} must play a card"),
        description_my_turn=clienttranslate("${you} must play a card"),
        args="arg_player_turn",
        possible_actions=["play_card"],
        transitions={"next": NEXT_PLAYER},
        update_game_progression=True,
    ),
    State(
        NEXT_PLAYER, "nextPlayer", StateType.GAME, action="st_next_player",
        transitions={"next": PLAYER_TURN, "endHand": END_HAND},
    ),
    State(
        END_HAND, "endHand", StateType.GAME, action="st_end_hand",
        transitions={"nextHand": NEW_HAND, "endGame": GAME_END_SCORING},
    ),
    State(
        GAME_END_SCORING, "gameEndScoring", StateType.GAME, action="st_game_end_scoring",
        transitions={"": 99},
    ),
    end_state(),
]
