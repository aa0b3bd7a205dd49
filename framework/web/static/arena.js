/* Arena's framework client, mirroring BGA's game interface: the core (GameGui, the
 * notification queue, the table's loading and its event stream).
 *
 * A game defines a class extending Arena.GameGui and registers it:
 *
 *   class MyGame extends Arena.GameGui {
 *     setup(gamedatas) { ... }                       // on load and on every reload
 *     onEnteringState(stateName, state) { ... }      // state.args = the state's args
 *     onLeavingState(stateName) { ... }
 *     onUpdateActionButtons(stateName, args) { ... } // when the active players change
 *     notif_cardPlayed(notif) { ... }                // one handler per notification type;
 *   }                                                // return a Promise to hold the queue
 *   Arena.defineGame("mygame", MyGame);
 *
 * this.bgaPerformAction(name, args) (or performAction) locks the interface until the server
 * answers; errors are shown to the player and reject the promise. Strings marked _("...")
 * are translated. The notification queue and the components (templates, animations,
 * counters, status bar, player panels, card stocks, dialogs, this.bga) are in their own
 * files, loaded after this one by the table page; docs/client.md describes them all.
 */
(function () {
  "use strict";

  const configNode = document.getElementById("arena-config");
  const config = configNode ? JSON.parse(configNode.textContent) : {};
  const I18N = config.i18n || {};

  function _(text) {
    if (!Object.prototype.hasOwnProperty.call(I18N, text)) return text;
    const found = I18N[text];
    return Array.isArray(found) ? found[0] : found;
  }
  window._ = _;

  function esc(text) {
    return String(text).replace(/[&<>"']/g, (c) => ({
      "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;",
    }[c]));
  }

  function sleep(ms) {
    return new Promise((resolve) => setTimeout(resolve, ms));
  }

  class ActionError extends Error {
    constructor(code, message, status) {
      super(message);
      this.code = code;
      this.status = status;
    }
  }

  /** The base of every game's client: BGA's ``ebg.core.gamegui``, in plain JS. */
  class GameGui {
    constructor() {
      this.gamedatas = null;
      this.player_id = config.player_id;
      this.table_id = config.table_id;
      this.game_name = config.game;
      this.isSpectator = config.player_id === null || config.player_id === undefined;
      this.notifDurations = {}; // type -> ms the queue waits after the handler
      this.notifIgnored = {};   // type -> predicate(notif): true to skip the handler
      this.promiseNotifications = null; // set by bga.notifications.setupPromiseNotifications
      this.replaying = false;
      this.on_client_state = false;
      this.scoreCtrl = {};      // player id -> Arena.Counter of the panel's score
      this._locked = false;
      const gui = this;
      // BGA's ``this.notifqueue``: a pause after a notification type, or skip it.
      this.notifqueue = {
        setSynchronous(type, duration) { gui.notifDurations[type] = duration === undefined ? 500 : duration; },
        setIgnoreNotificationCheck(type, predicate) { gui.notifIgnored[type] = predicate; },
      };
      this.statusBar = Arena.StatusBar ? new Arena.StatusBar(this) : null;
      this.bga = Arena.bgaFor ? Arena.bgaFor(this) : null;
    }

    // ------------------------------------------------------------- hooks for games
    setup(gamedatas) {}
    onEnteringState(stateName, state) {}
    onLeavingState(stateName) {}
    onUpdateActionButtons(stateName, args) {}
    onReplayStart() {}
    /** BGA's setupNotifications (a game calls it at the end of setup, as on BGA); the queue
     * calls ``notif_<type>`` without it. */
    setupNotifications() {}
    /** BGA's: called after ``setGameUserPreference`` changed one of the game's preferences. */
    onGameUserPreferenceChanged(prefId, value) {}

    // ------------------------------------------------------------- preferences
    /** BGA's getGameUserPreference: the player's value of a declared preference (stored on
     * the account; the page brings it), or null for an undeclared one. */
    getGameUserPreference(prefId) {
      const value = (config.preferences || {})[String(prefId)];
      return value === undefined ? null : Number(value);
    }
    /** Keep a preference on the account (a spectator's lasts for this page only). */
    async setGameUserPreference(prefId, value) {
      config.preferences = Object.assign({}, config.preferences, {[String(prefId)]: Number(value)});
      if (!this.isSpectator) {
        const query = config.as === null || config.as === undefined ? "" : "?as=" + encodeURIComponent(config.as);
        const response = await fetch(`/preferences/${encodeURIComponent(config.game)}${query}`, {
          method: "POST", body: JSON.stringify({id: Number(prefId), value: Number(value)}),
          headers: {"Content-Type": "application/json", Accept: "application/json", "X-CSRF-Token": config.csrf},
        });
        await Arena._answer(response);
      }
      this.onGameUserPreferenceChanged(Number(prefId), Number(value));
    }

    // ------------------------------------------------------------- reading
    isCurrentPlayerActive() {
      // A replay shows a past turn: nobody may act in it.
      if (this.isSpectator || !this.gamedatas || this.replaying) return false;
      return this.getActivePlayers().includes(Number(this.player_id));
    }
    isPlayerActive(pid) {
      return this.getActivePlayers().includes(Number(pid));
    }
    getActivePlayerId() {
      return this.gamedatas ? Number(this.gamedatas.gamestate.active_player) : 0;
    }
    getActivePlayers() {
      const st = this.gamedatas.gamestate;
      if (st.type === "activeplayer") return st.active_player ? [Number(st.active_player)] : [];
      if (st.type === "multipleactiveplayer") return (st.multiactive || []).map(Number);
      return [];
    }
    getCurrentPlayerId() {
      return this.isSpectator ? null : Number(this.player_id);
    }
    playerName(pid) {
      const p = this.gamedatas.players[String(pid)];
      return p ? p.name : String(pid);
    }
    playerColor(pid) {
      const p = this.gamedatas.players[String(pid)];
      return p ? "#" + p.color : "#000";
    }
    formatPlayerName(pid) {
      return `<span class="playername" style="color:${esc(this.playerColor(pid))}">${esc(this.playerName(pid))}</span>`;
    }
    getPlayerPanelElement(pid) {
      return document.querySelector(`#player_board_${pid} .player-board-game`);
    }
    isInterfaceLocked() {
      return this._locked;
    }
    /** False when replaying, catching up on a backlog or in a hidden tab (BGA's name). */
    bgaAnimationsActive() {
      if (this.replaying) return !!Arena.currentReplay && Arena.currentReplay.animates() && !document.hidden;
      return !document.hidden && Arena.queue.length <= Arena.BACKLOG;
    }

    /** ``${name}`` filled from args (those listed in args.i18n translated), as HTML. */
    format_string_recursive(log, args) {
      args = args || {};
      const i18n = args.i18n || [];
      return esc(_(log || "")).replace(/\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g, (m, name) => {  // i18n: dynamic (a msgid received from the server)
        if (!(name in args)) return m;
        let value = args[name];
        if (value && typeof value === "object" && "log" in value) {
          return this.format_string_recursive(value.log, value.args || {});
        }
        if (name === "player_name" && args.player_id !== undefined) return this.formatPlayerName(args.player_id);
        if (i18n.includes(name)) value = _(String(value));  // i18n: dynamic (a msgid received from the server)
        return esc(value);
      });
    }

    // ------------------------------------------------------------- status bar and buttons
    /** BGA's classic ``addActionButton(id, label, handler, ..., color)``; color is the 4th
     * argument here (the 5th, BGA's place, is read too). */
    addActionButton(id, label, handler, color, fifth) {
      if (fifth !== undefined && typeof fifth === "string") color = fifth;
      return this.statusBar.addActionButton(label, (ev) => handler.call(this, ev),
        {id, color: color || "blue", escape: false});
    }
    removeActionButtons() {
      this.statusBar.removeActionButtons();
    }
    setStatusText(html) {
      document.getElementById("pagemaintitletext").innerHTML = html;
    }
    /** The status text of the current state (its descriptionmyturn when it is my turn). */
    updatePageTitle() {
      const st = this.gamedatas.gamestate;
      const def = st.client || this.gamedatas.gamestates[String(st.id)] || {};
      let text;
      if (st.id === 99 || st.name === "gameEnd") {
        text = esc(_("End of game"));
      } else {
        const mine = this.isCurrentPlayerActive() && def.descriptionmyturn;
        const template = mine ? def.descriptionmyturn : (def.description || "");
        text = this.formatStateText(template, st.args || {});
      }
      this.setStatusText(text);
      document.body.classList.toggle("my-turn", this.isCurrentPlayerActive());
      for (const pid of this.gamedatas.playerorder) {
        const board = document.getElementById(`player_board_${pid}`);
        if (board) board.classList.toggle("active", this.getActivePlayers().includes(Number(pid)));
      }
    }
    /** A state description with ``${you}``, ``${actplayer}`` and the args filled in. */
    formatStateText(template, args) {
      const active = this.getActivePlayerId();
      return esc(_(template)).replace(/\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g, (m, name) => {  // i18n: dynamic (a msgid received from the server)
        if (name === "you") return `<span class="you" style="color:${esc(this.playerColor(this.player_id))}">${esc(_("You"))}</span>`;
        if (name === "actplayer") return active ? this.formatPlayerName(active) : "";
        if (!(name in args)) return m;
        const v = args[name];
        if (v && typeof v === "object") return "";
        return esc((args.i18n || []).includes(name) ? _(String(v)) : v);  // i18n: dynamic (a msgid received from the server)
      });
    }

    // ------------------------------------------------------------- client states
    /** BGA's ``setClientState``: a step of the player's own, shown like a state, that the
     * server never hears of. ``args`` may give description(myturn), possibleactions, args. */
    setClientState(name, args) {
      args = args || {};
      const server = this.on_client_state ? this._serverState : this.gamedatas.gamestate;
      this.onLeavingState(this.gamedatas.gamestate.name);
      this._serverState = server;
      this.on_client_state = true;
      this.gamedatas.gamestate = Object.assign({}, server, {
        name, args: args.args || {},
        client: {
          description: args.description || args.descriptionmyturn || "",
          descriptionmyturn: args.descriptionmyturn || args.description || "",
          possibleactions: args.possibleactions || [],
        },
      });
      this.onEnteringState(name, this.gamedatas.gamestate);
      Arena.updateButtons();
    }
    /** Back from a client state to the server's state. */
    restoreServerGameState() {
      if (!this.on_client_state) return;
      this.onLeavingState(this.gamedatas.gamestate.name);
      this.on_client_state = false;
      this.gamedatas.gamestate = this._serverState;
      this._serverState = null;
      this.onEnteringState(this.gamedatas.gamestate.name, this.gamedatas.gamestate);
      Arena.updateButtons();
    }

    // ------------------------------------------------------------- messages
    showMessage(text, type) {
      const area = document.getElementById("message-area");
      const div = document.createElement("div");
      div.className = "message " + (type || "info");
      div.textContent = text;
      area.appendChild(div);
      setTimeout(() => div.remove(), type === "error" ? 8000 : 4000);
      return div;
    }

    // ------------------------------------------------------------- actions
    /** The actions possible in the current state (the client state's, if any). */
    possibleActions() {
      const st = this.gamedatas.gamestate;
      if (st.client && st.client.possibleactions.length) return st.client.possibleactions;
      return (this.gamedatas.gamestates[String(st.id)] || {}).possibleactions || [];
    }
    checkPossibleActions(action) {
      return this.possibleActions().includes(action);
    }
    checkAction(action, nomessage) {
      if (this._locked) {
        if (!nomessage) this.showMessage(_("An action is already in progress"), "error");
        return false;
      }
      if (!this.checkPossibleActions(action)) {
        if (!nomessage) this.showMessage(_("This move is not possible now"), "error");
        return false;
      }
      if (!this.isCurrentPlayerActive()) {
        if (!nomessage) this.showMessage(_("It is not your turn"), "error");
        return false;
      }
      return true;
    }

    async performAction(action, args, options) {
      options = options || {};
      const lock = options.lock !== false;
      if (this._locked) {
        this.showMessage(_("An action is already in progress"), "error");
        throw new ActionError("in_progress", _("An action is already in progress"), 0);
      }
      if (this.replaying) {
        this.showMessage(_("This is a replay: go back to the table to play"), "error");
        throw new ActionError("replay", _("This is a replay: go back to the table to play"), 0);
      }
      if (options.checkAction !== false && !this.checkAction(action)) {
        throw new ActionError("not_possible", _("This move is not possible now"), 0);
      }
      if (lock) {
        this._locked = true;
        document.body.classList.add("locked");
      }
      try {
        // X-Arena-Move: the move this view is at. The server applies one action per view, so
        // a request sent twice (a retry, a second tab on the same view) is applied once.
        const response = await Arena.post(`/act/${encodeURIComponent(action)}`, args || {},
          {"X-Arena-Move": String(Arena.move)});
        if (response && typeof response.move === "number") Arena.move = Math.max(Arena.move, response.move);
        return response;
      } catch (err) {
        this.showMessage(err.message, "error");
        throw err;
      } finally {
        if (lock) {
          this._locked = false;
          document.body.classList.remove("locked");
        }
      }
    }

    /** BGA's ``bgaPerformAction(action, args, {lock, checkAction})``: the action sent to the
     * server; the promise rejects on a refusal (already shown to the player), and a
     * rejection nobody awaits is not an uncaught error. */
    bgaPerformAction(action, args, options) {
      const done = this.performAction(action, args, options);
      done.catch(() => null);
      return done;
    }

    setPlayerScore(pid, score) {
      const p = this.gamedatas.players[String(pid)];
      if (p) p.score = score;
      const counter = this.scoreCtrl[String(pid)];
      if (counter) counter.toValue(score);
      else {
        const node = document.getElementById(`player_score_${pid}`);
        if (node) node.textContent = score;
      }
    }

    /** Pause for an animation; short when replaying or catching up on a backlog. */
    wait(ms) {
      if (this.replaying) return Arena.currentReplay ? Arena.currentReplay.pauseFor(ms) : sleep(Math.min(ms, 150));
      if (Arena.queue.length > Arena.BACKLOG) return sleep(Math.min(ms, 20));
      return sleep(ms);
    }
  }

  // ----------------------------------------------------------------- the framework
  const Arena = {
    GameGui, ActionError, config, esc, _, sleep,
    games: {},
    gui: null,
    BACKLOG: 8,         // more notifications than this waiting: animations are cut short
    lastId: 0,          // last notification received (queued)
    move: 0,            // the move this view is at (sent with each action)
    processedIds: [],   // every notification id handled, in order (tests read it)
    queue: [],
    source: null,
    ended: false,
    _processing: false,
    _reconnectTimer: null,
    _originalArea: null,

    defineGame(name, cls) {
      this.games[name] = cls;
    },

    url(path) {
      const base = config.urls.base + path;
      if (config.as === null || config.as === undefined) return base;
      return base + (base.includes("?") ? "&" : "?") + "as=" + encodeURIComponent(config.as);
    },

    async get(path) {
      const response = await fetch(this.url(path), {headers: {Accept: "application/json"}});
      return this._answer(response);
    },

    async post(path, body, extraHeaders) {
      const response = await fetch(this.url(path), {
        method: "POST",
        headers: Object.assign({"Content-Type": "application/json", Accept: "application/json",
          "X-CSRF-Token": config.csrf}, extraHeaders || {}),
        body: JSON.stringify(body || {}),
      });
      return this._answer(response);
    },

    async _answer(response) {
      let payload = null;
      try {
        payload = await response.json();
      } catch (e) {
        payload = null;
      }
      if (!response.ok) {
        const error = (payload && payload.error) || {code: "http_" + response.status, message: response.statusText};
        throw new ActionError(error.code, error.message, response.status);
      }
      return payload;
    },

    async start() {
      const cls = this.games[config.game] || GameGui;
      this.gui = new cls();
      window.gameui = this.gui;
      const area = document.getElementById("game_play_area");
      this._originalArea = area.innerHTML;
      await this.load();
      if (new URLSearchParams(location.search).get("replay") && this.startReplay) this.startReplay();
      if (config.mode === "studio" && this.setupStudio) {
        this.setupStudio();
        // A studio table can come back from its end (a slot loaded, a state jumped to in
        // another tab): a finished table's page looks again when it is shown.
        document.addEventListener("visibilitychange", () => {
          if (!document.hidden && this.ended && !this.currentReplay) this.load();
        });
      }
    },

    /** (Re)load the whole table: data, panels, the game's setup, then events. */
    async load() {
      this.closeEvents();
      this.ended = false;
      let data;
      try {
        data = await this.get("/data");
      } catch (err) {
        // The server is out of reach (or restarting): try again shortly.
        this.setConnection("offline");
        this._reconnectTimer = setTimeout(() => this.load(), 2000);
        return;
      }
      const gui = this.gui;
      this.queue = [];
      this.lastId = data.notifications.last_packet_id;
      this.move = Number(data.move || 0);
      document.getElementById("game_play_area").innerHTML = this._originalArea;
      gui.gamedatas = data;
      gui.player_id = data.current_player_id;
      gui.isSpectator = data.current_player_id === null || data.current_player_id === undefined;
      gui.on_client_state = false;
      document.body.classList.toggle("spectator", gui.isSpectator);
      document.body.classList.toggle("spectatorMode", gui.isSpectator);
      this.buildPlayerBoards();
      this.setProgression(data.progression);
      this.setClocks(Object.fromEntries(Object.entries(data.players).map(([pid, p]) => [pid, p.time_left])));
      await this.loadLog();
      gui.setup(data);
      this.enterState(data.gamestate, true);
      this.openEvents();
    },

    async loadLog() {
      const logs = document.getElementById("logs");
      logs.innerHTML = "";
      try {
        const answer = await this.get(`/log?after=0`);
        for (const e of answer.events) {
          if (e.id <= this.lastId) this.addLog(e);
        }
      } catch (e) {
        /* the log is a comfort: the table works without it */
      }
    },

    setProgression(value) {
      const v = Math.max(0, Math.min(100, Number(value) || 0));
      document.getElementById("progression-fill").style.width = v + "%";
      document.getElementById("progression-value").textContent = v + "%";
    },

    addLog(event) {
      if (!event.log) return;
      const gui = this.gui;
      const li = document.createElement("li");
      li.dataset.id = event.id;
      if (event.private) li.className = "private";
      let html = esc(event.log);
      for (const pid of (gui.gamedatas ? gui.gamedatas.playerorder : [])) {
        const name = esc(gui.playerName(pid));
        if (name) html = html.split(name).join(`<b style="color:${esc(gui.playerColor(pid))}">${name}</b>`);
      }
      li.innerHTML = html;
      const logs = document.getElementById("logs");
      logs.insertBefore(li, logs.firstChild);
    },

    // ------------------------------------------------------------- states
    enterState(state, initial) {
      const gui = this.gui;
      if (gui.on_client_state) {
        // A server state ends the player's own steps.
        gui.onLeavingState(gui.gamedatas.gamestate.name);
        gui.gamedatas.gamestate = gui._serverState;
        gui.on_client_state = false;
        gui._serverState = null;
      }
      const previous = gui.gamedatas.gamestate;
      if (!initial && previous) gui.onLeavingState(previous.name);
      gui.gamedatas.gamestate = Object.assign({}, previous || {}, state);
      gui.removeActionButtons();
      document.body.classList.toggle("game-over", state.name === "gameEnd" || Number(state.id) === 99);
      gui.onEnteringState(state.name, gui.gamedatas.gamestate);
      this.updateButtons();
    },

    updateButtons() {
      const gui = this.gui;
      gui.removeActionButtons();
      gui.updatePageTitle();
      gui.onUpdateActionButtons(gui.gamedatas.gamestate.name, gui.gamedatas.gamestate.args || {});
      if (this.showTurn) this.showTurn();
    },
  };

  // Strings the framework shows, for extraction: _("You") _("End of game")
  window.Arena = Arena;
})();
