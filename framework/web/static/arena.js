/* Arena's framework client, mirroring BGA's game interface.
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
 * this.performAction(name, args) locks the interface until the server answers; errors
 * are shown to the player and reject the promise. Strings marked _("...") are translated.
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
      this.replaying = false;
      this._locked = false;
    }

    // ------------------------------------------------------------- hooks for games
    setup(gamedatas) {}
    onEnteringState(stateName, state) {}
    onLeavingState(stateName) {}
    onUpdateActionButtons(stateName, args) {}
    onReplayStart() {}

    // ------------------------------------------------------------- reading
    isCurrentPlayerActive() {
      if (this.isSpectator || !this.gamedatas) return false;
      return this.getActivePlayers().includes(Number(this.player_id));
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
    addActionButton(id, label, handler, color) {
      const bar = document.getElementById("generalactions");
      const old = document.getElementById(id);
      if (old) old.remove();
      const button = document.createElement("button");
      button.id = id;
      button.type = "button";
      button.className = "action-button " + (color || "blue");
      button.innerHTML = label;
      button.addEventListener("click", (ev) => {
        ev.preventDefault();
        if (this._locked) return;
        handler.call(this, ev);
      });
      bar.appendChild(button);
      return button;
    }
    removeActionButtons() {
      document.getElementById("generalactions").innerHTML = "";
    }
    setStatusText(html) {
      document.getElementById("pagemaintitletext").innerHTML = html;
    }
    updatePageTitle() {
      const st = this.gamedatas.gamestate;
      const def = this.gamedatas.gamestates[String(st.id)] || {};
      let text;
      if (st.id === 99 || st.name === "gameEnd") {
        text = esc(_("End of game"));
      } else {
        const mine = this.isCurrentPlayerActive() && def.descriptionmyturn;
        const template = mine ? def.descriptionmyturn : (def.description || "");
        const args = Object.assign({}, st.args || {});
        const active = this.getActivePlayerId();
        const values = {};
        for (const [k, v] of Object.entries(args)) values[k] = v;
        text = esc(_(template)).replace(/\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g, (m, name) => {  // i18n: dynamic (a msgid received from the server)
          if (name === "you") return `<span class="you" style="color:${esc(this.playerColor(this.player_id))}">${esc(_("You"))}</span>`;
          if (name === "actplayer") return active ? this.formatPlayerName(active) : "";
          if (!(name in values)) return m;
          const v = values[name];
          if (v && typeof v === "object") return "";
          return esc((args.i18n || []).includes(name) ? _(String(v)) : v);  // i18n: dynamic (a msgid received from the server)
        });
      }
      this.setStatusText(text);
      document.body.classList.toggle("my-turn", this.isCurrentPlayerActive());
      for (const pid of this.gamedatas.playerorder) {
        const board = document.getElementById(`player_board_${pid}`);
        if (board) board.classList.toggle("active", this.getActivePlayers().includes(Number(pid)));
      }
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
    checkAction(action, nomessage) {
      const st = this.gamedatas.gamestate;
      const def = this.gamedatas.gamestates[String(st.id)] || {};
      if (this._locked) {
        if (!nomessage) this.showMessage(_("An action is already in progress"), "error");
        return false;
      }
      if (!(def.possibleactions || []).includes(action)) {
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
      if (this._locked) {
        this.showMessage(_("An action is already in progress"), "error");
        throw new ActionError("in_progress", _("An action is already in progress"), 0);
      }
      if (options.checkAction !== false && !this.checkAction(action)) {
        throw new ActionError("not_possible", _("This move is not possible now"), 0);
      }
      this._locked = true;
      document.body.classList.add("locked");
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
        this._locked = false;
        document.body.classList.remove("locked");
      }
    }

    setPlayerScore(pid, score) {
      const p = this.gamedatas.players[String(pid)];
      if (p) p.score = score;
      const node = document.getElementById(`player_score_${pid}`);
      if (node) node.textContent = score;
    }

    /** Pause for an animation; short when replaying or catching up on a backlog. */
    wait(ms) {
      if (this.replaying) return sleep(Math.min(ms, 150));
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
      const area = document.getElementById("game_play_area");
      this._originalArea = area.innerHTML;
      await this.load();
      if (config.mode === "studio") {
        this.setupStudio();
        // A studio table can come back from its end (a slot loaded, a state jumped to in
        // another tab): a finished table's page looks again when it is shown.
        document.addEventListener("visibilitychange", () => {
          if (!document.hidden && this.ended) this.load();
        });
      }
      window.gameui = this.gui;
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
      document.body.classList.toggle("spectator", gui.isSpectator);
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

    buildPlayerBoards() {
      const gui = this.gui;
      const boards = document.getElementById("player_boards");
      boards.innerHTML = "";
      for (const pid of gui.gamedatas.playerorder) {
        const p = gui.gamedatas.players[String(pid)];
        const div = document.createElement("div");
        div.className = "player-board" + (p.bot ? " bot" : "") + (p.zombie ? " zombie" : "") +
          (Number(pid) === Number(gui.player_id) ? " me" : "");
        div.id = `player_board_${pid}`;
        div.dataset.player = pid;
        div.innerHTML =
          `<div class="player-name" style="color:#${esc(p.color)}">` +
          `<span class="active-marker" title="${esc(_("Active player"))}">▶</span>${esc(p.name)}` +
          `<span class="bot-badge" title="${esc(_("Played by a bot"))}">${esc(_("bot"))}</span></div>` +
          `<div class="player-score"><span class="star">★</span> <span id="player_score_${pid}">${esc(p.score)}</span>` +
          `<span class="clock" id="player_clock_${pid}" title="${esc(_("Time left to play"))}"></span></div>` +
          `<div class="player-board-game"></div>`;
        boards.appendChild(div);
      }
    },

    /** Each player's clock; the active players' run down between updates. */
    setClocks(clocks) {
      this.clocks = {};
      this.clocksAt = Date.now();
      for (const [pid, seconds] of Object.entries(clocks)) this.clocks[pid] = Number(seconds) || 0;
      this.drawClocks();
      if (!this._clockTimer) this._clockTimer = setInterval(() => this.drawClocks(), 1000);
    },

    drawClocks() {
      if (!this.clocks || !this.gui.gamedatas) return;
      const active = this.gui.getActivePlayers().map(String);
      const elapsed = (Date.now() - this.clocksAt) / 1000;
      for (const [pid, seconds] of Object.entries(this.clocks)) {
        const node = document.getElementById(`player_clock_${pid}`);
        if (!node) continue;
        const left = Math.round(active.includes(pid) ? seconds - elapsed : seconds);
        const abs = Math.abs(left);
        node.textContent = `${left < 0 ? "-" : ""}${Math.floor(abs / 60)}:${String(abs % 60).padStart(2, "0")}`;
        node.classList.toggle("late", left < 0);
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
      const previous = gui.gamedatas.gamestate;
      if (!initial && previous) gui.onLeavingState(previous.name);
      gui.gamedatas.gamestate = Object.assign({}, previous || {}, state);
      gui.removeActionButtons();
      gui.onEnteringState(state.name, gui.gamedatas.gamestate);
      this.updateButtons();
    },

    updateButtons() {
      const gui = this.gui;
      gui.removeActionButtons();
      gui.updatePageTitle();
      gui.onUpdateActionButtons(gui.gamedatas.gamestate.name, gui.gamedatas.gamestate.args || {});
    },

    // ------------------------------------------------------------- notifications
    openEvents() {
      this.closeEvents();
      const url = this.url(`/events?after=${this.lastId}`);
      const source = new EventSource(url);
      this.source = source;
      this.setConnection("connecting");
      source.onopen = () => this.setConnection("online");
      source.onmessage = (ev) => {
        let event;
        try {
          event = JSON.parse(ev.data);
        } catch (e) {
          return;
        }
        if (event.id <= this.lastId) return; // already received: never twice
        this.lastId = event.id;
        this.queue.push(event);
        this.pump();
      };
      source.addEventListener("status", (ev) => {
        const status = JSON.parse(ev.data);
        this.pendingStatus = status;
        if (!this._processing && !this.queue.length) this.applyStatus();
      });
      source.addEventListener("reset", () => this.load());
      // The game is over and everything was sent: the server closed the stream for good.
      source.addEventListener("end", () => {
        this.closeEvents();
        this.ended = true;
        this.setConnection("ended");
      });
      source.onerror = () => {
        // Reconnect ourselves from the last id received: exactly the missed ones, once.
        this.closeEvents();
        this.setConnection("offline");
        this._reconnectTimer = setTimeout(() => this.openEvents(), 1000);
      };
    },

    closeEvents() {
      if (this._reconnectTimer) clearTimeout(this._reconnectTimer);
      this._reconnectTimer = null;
      if (this.source) this.source.close();
      this.source = null;
    },

    setConnection(state) {
      const node = document.getElementById("connection");
      if (!node) return;
      node.className = "connection " + state;
      node.dataset.state = state;
      node.title = {online: _("Connected"), offline: _("Connection lost: reconnecting…"),
        connecting: _("Connecting…")}[state] || "";
    },

    applyStatus() {
      const status = this.pendingStatus;
      if (!status) return;
      this.pendingStatus = null;
      this.setProgression(status.progression);
      for (const [pid, s] of Object.entries(status.scores || {})) this.gui.setPlayerScore(pid, s.score);
      this.setClocks(Object.fromEntries(Object.entries(status.scores || {}).map(([pid, s]) => [pid, s.time_left])));
    },

    async pump() {
      if (this._processing || this.gui.replaying) return;
      this._processing = true;
      try {
        while (this.queue.length) {
          const event = this.queue.shift();
          const merged = [];
          if (event.type === "gameStateChange") {
            // Private args written with the state change come right after it.
            while (this.queue.length && this.queue[0].type === "gameStateChangePrivateArg" &&
                   this.queue[0].args.state_id === event.args.id) {
              const priv = this.queue.shift();
              event.args.args = Object.assign({}, event.args.args, {_private: priv.args.args});
              merged.push(priv.id);
            }
          }
          await this.dispatch(event);
          this.processedIds.push(event.id, ...merged);
        }
        this.applyStatus();
      } finally {
        this._processing = false;
      }
    },

    async dispatch(event) {
      const gui = this.gui;
      if (!gui.replaying) this.move = Math.max(this.move, Number(event.move_id || 0));
      this.addLog(event);
      const notif = {type: event.type, args: event.args, log: event.log, msgid: event.msgid, id: event.id,
        move_id: event.move_id};
      switch (event.type) {
        case "gameStateChange":
          this.enterState(event.args);
          return;
        case "gameStateChangePrivateArg": {
          const st = gui.gamedatas.gamestate;
          if (st.id === event.args.state_id) {
            st.args = Object.assign({}, st.args, {_private: event.args.args});
            this.updateButtons();
          }
          return;
        }
        case "gameStateMultipleActiveUpdate":
          gui.gamedatas.gamestate.multiactive = event.args.active || [];
          this.updateButtons();
          break;
        case "undoRestore":
        case "studioReload":
          if (!gui.replaying) await this.load();
          return;
        case "releaseChanged":  // another release of the game: its code, page and texts
          if (!gui.replaying) location.reload();
          return;
        case "botSeat":
        case "playerLeft":
        case "playerEliminated": {
          const p = gui.gamedatas.players[String(event.args.player_id)];
          if (p) {
            if (event.type === "botSeat") p.bot = event.args.bot;
            if (event.type === "playerLeft") p.zombie = 1;
            if (event.type === "playerEliminated") p.eliminated = 1;
            const board = document.getElementById(`player_board_${event.args.player_id}`);
            if (board) {
              board.classList.toggle("bot", !!p.bot);
              board.classList.toggle("zombie", !!p.zombie);
            }
          }
          break;
        }
        default:
          break;
      }
      const handler = gui["notif_" + event.type];
      if (typeof handler === "function") {
        try {
          const result = handler.call(gui, notif);
          if (result && typeof result.then === "function") await result;
        } catch (err) {
          console.error("notification " + event.type, err);
        }
      }
      const duration = gui.notifDurations[event.type];
      if (duration) await gui.wait(duration);  // shortened when far behind
    },

    // ------------------------------------------------------------- replay
    async replay() {
      const gui = this.gui;
      this.closeEvents();
      const answer = await this.get(`/log?after=0&limit=5000`);
      gui.replaying = true;
      document.body.classList.add("replaying");
      try {
        document.getElementById("logs").innerHTML = "";
        document.getElementById("game_play_area").innerHTML = this._originalArea;
        gui.setup(gui.gamedatas);
        gui.onReplayStart();
        for (const event of answer.events) {
          await this.dispatch(event);
          await sleep(30);
        }
      } finally {
        gui.replaying = false;
        document.body.classList.remove("replaying");
      }
      await this.load();
    },

    // ------------------------------------------------------------- studio tools
    setupStudio() {
      const out = document.getElementById("studio-output");
      const show = (text) => {
        out.hidden = false;
        out.textContent = text;
      };
      const select = document.getElementById("jump-state");
      for (const st of config.states) {
        if (st.id === 1) continue;
        const option = document.createElement("option");
        option.value = st.id;
        option.textContent = `${st.id} ${st.name}`;
        select.appendChild(option);
      }
      const seats = document.getElementById("bot-seats");
      if (config.bot_kinds.length) {
        seats.innerHTML = `<span>${esc(_("Bots"))}:</span>`;
        for (const pid of this.gui.gamedatas.playerorder) {
          const p = this.gui.gamedatas.players[String(pid)];
          const label = document.createElement("label");
          label.textContent = p.name + " ";
          const sel = document.createElement("select");
          sel.dataset.player = pid;
          sel.innerHTML = `<option value="">${esc(_("person"))}</option>` +
            config.bot_kinds.map((k) => `<option value="${esc(k)}">${esc(k)}</option>`).join("");
          sel.value = p.bot ? config.bot_kinds[0] : "";
          sel.addEventListener("change", async () => {
            try {
              await Arena.post("/studio/bot", {player_id: Number(pid), kind: sel.value});
            } catch (err) {
              this.gui.showMessage(err.message, "error");
            }
          });
          label.appendChild(sel);
          seats.appendChild(label);
        }
      }
      document.getElementById("studio-tools").addEventListener("click", async (ev) => {
        const button = ev.target.closest("button[data-studio]");
        if (!button) return;
        const tool = button.dataset.studio;
        try {
          if (tool === "save" || tool === "load") {
            await Arena.post(`/studio/${tool}/${button.dataset.slot}`, {});
            this.gui.showMessage(tool === "save" ? _("Saved") : _("Loaded"), "info");
            if (tool === "load") await this.load();
          } else if (tool === "jump") {
            await Arena.post("/studio/jump", {state_id: Number(select.value)});
            if (this.ended) await this.load(); // the stream of a finished game was closed
          } else if (tool === "replay") {
            await this.replay();
          } else if (tool === "errors") {
            const answer = await Arena.get("/studio/errors");
            show(answer.errors.length ? answer.errors.map((e) =>
              `#${e.id} ${e.created_at} ${e.action || ""}\n${e.traceback}`).join("\n") : _("No error."));
          } else if (tool === "bug") {
            const text = document.getElementById("bug-text").value;
            const answer = await Arena.post("/studio/bug", {text});
            show(_("Bug report saved") + ": " + location.origin + answer.url);
            document.getElementById("bug-text").value = "";
          }
        } catch (err) {
          this.gui.showMessage(err.message, "error");
        }
      });
    },
  };

  // Strings the framework shows, for extraction: _("You") _("End of game")
  window.Arena = Arena;
})();
