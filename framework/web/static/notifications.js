/* The event stream and the notification queue: notifications arrive in order over
 * Server-Sent Events (resumed from the last id after a lost connection), are handled one at
 * a time (a handler's Promise holds the queue); a replay (replay.js) dispatches them again. */
(function () {
  "use strict";
  const Arena = window.Arena;
  const sleep = Arena.sleep;
  const _ = Arena._;

  Object.assign(Arena, {
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
      const ignored = gui.notifIgnored[event.type];
      if (ignored && ignored.call(gui, notif)) return;
      await this.runHandler(event.type, notif);
      const duration = gui.notifDurations[event.type];
      if (duration) await gui.wait(duration);  // shortened when far behind
    },

    /** The game's handler of a notification, awaited when it returns a Promise. With
     * ``setupPromiseNotifications`` (BGA's current way) the handler gets the args, and the
     * queue waits at least ``minDuration`` after a notification with a log. */
    async runHandler(type, notif) {
      const gui = this.gui;
      const promised = gui.promiseNotifications;
      const prefix = promised ? promised.prefix : "notif_";
      const owner = promised && promised.handlers ? promised.handlers : gui;
      const handler = (promised && promised.handlers && owner[prefix + type]) || gui[prefix + type];
      const started = Date.now();
      if (typeof handler === "function") {
        try {
          const result = handler.call(owner === gui ? gui : owner, promised ? notif.args : notif);
          if (result && typeof result.then === "function") await result;
        } catch (err) {
          console.error("notification " + type, err);
        }
      }
      if (promised) {
        const min = notif.log ? promised.minDuration : promised.minDurationNoText;
        const left = (min || 0) - (Date.now() - started);
        if (left > 0 && !gui.replaying) await gui.wait(left);
      }
    },

    // ------------------------------------------------------------- replay
    /** The replay with its timeline (replay.js): from the table's start, not its end. */
    replay() {
      return this.startReplay();
    },
  });
})();
