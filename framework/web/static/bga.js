/* ``this.bga``: the framework grouped by concern, under BGA's current names (statusBar,
 * players, actions, notifications, playerPanels, gameArea, dialogs, states, animations,
 * gameui). Each is a thin view of the GameGui methods, so both styles work side by side:
 *
 *   this.bga.actions.performAction("actPlayCard", {id});      // = this.bgaPerformAction
 *   this.bga.playerPanels.getElement(playerId);               // = this.getPlayerPanelElement
 *   this.bga.notifications.setupPromiseNotifications({minDuration: 400});
 */
(function () {
  "use strict";
  const Arena = window.Arena;

  Arena.bgaFor = function (gui) {
    return {
      gameui: gui,
      statusBar: gui.statusBar,
      gameArea: {
        getElement: () => document.getElementById("game_play_area"),
      },
      players: {
        isCurrentPlayerActive: () => gui.isCurrentPlayerActive(),
        isPlayerActive: (pid) => gui.isPlayerActive(pid),
        getActivePlayerId: () => gui.getActivePlayerId(),
        getActivePlayerIds: () => gui.getActivePlayers(),
        getCurrentPlayerId: () => gui.getCurrentPlayerId(),
        isSpectator: () => gui.isSpectator,
        getFormattedPlayerName: (pid) => gui.formatPlayerName(pid),
        getPlayer: (pid) => gui.gamedatas.players[String(pid)] || null,
      },
      actions: {
        performAction: (action, args, options) => gui.bgaPerformAction(action, args, options),
        checkAction: (action, nomessage) => gui.checkAction(action, nomessage),
        checkPossibleActions: (action) => gui.checkPossibleActions(action),
        isInterfaceLocked: () => gui.isInterfaceLocked(),
      },
      notifications: {
        /** Handlers ``<prefix><type>(args)`` (on ``handlers`` or the game) may return
         * Promises; the queue waits for them, and at least ``minDuration`` ms after a
         * notification with a log (``minDurationNoText`` without). */
        setupPromiseNotifications(settings) {
          settings = settings || {};
          gui.promiseNotifications = {
            prefix: settings.prefix || "notif_",
            minDuration: settings.minDuration === undefined ? 500 : settings.minDuration,
            minDurationNoText: settings.minDurationNoText === undefined ? 1 : settings.minDurationNoText,
            handlers: settings.handlers ? [].concat(settings.handlers)[0] : null,
          };
        },
        setSynchronous: (type, duration) => gui.notifqueue.setSynchronous(type, duration),
        setIgnoreNotificationCheck: (type, predicate) => gui.notifqueue.setIgnoreNotificationCheck(type, predicate),
      },
      playerPanels: {
        getElement: (pid) => gui.getPlayerPanelElement(pid),
        getScoreCounter: (pid) => gui.scoreCtrl[String(pid)] || null,
        addCounter: (pid, name, options) => Arena.addPanelCounter(pid, name, options),
      },
      dialogs: Arena.dialogs,
      states: {
        setClientState: (name, args) => gui.setClientState(name, args),
        restoreServerGameState: () => gui.restoreServerGameState(),
        isOnClientState: () => gui.on_client_state,
      },
      animations: Arena.animations,
    };
  };
})();
