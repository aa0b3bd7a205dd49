/* Player panels: one board per player beside the game (name, active marker, bot badge,
 * score counter, clock) with an empty ``.player-board-game`` for the game's own content
 * (``gameui.getPlayerPanelElement(pid)``, BGA's ``this.bga.playerPanels.getElement``). */
(function () {
  "use strict";
  const Arena = window.Arena;
  const esc = Arena.esc;

  Object.assign(Arena, {
    /** (Re)draw every player's board; their scores become ``gui.scoreCtrl`` counters. */
    buildPlayerBoards() {
      const gui = this.gui;
      const boards = document.getElementById("player_boards");
      boards.innerHTML = "";
      gui.scoreCtrl = {};
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
        gui.scoreCtrl[String(pid)] = new Arena.Counter(`player_score_${pid}`, {value: p.score});
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

    /** A counter in a player's panel: an icon (HTML, trusted) and a number, kept in
     * ``Arena.Counter``; returns the counter. Drawn again with the panels on each reload. */
    addPanelCounter(pid, name, options) {
      options = options || {};
      const panel = this.gui.getPlayerPanelElement(pid);
      if (!panel) return null;
      const id = `panel_${name}_${pid}`;
      let node = document.getElementById(id);
      if (!node) {
        const wrap = document.createElement("span");
        wrap.className = `panel-counter panel-counter-${name}`;
        if (options.title) wrap.title = options.title;
        wrap.innerHTML = `${options.icon || ""}<span id="${esc(id)}" class="panel-counter-value"></span>`;
        panel.appendChild(wrap);
        node = document.getElementById(id);
      }
      return new Arena.Counter(node, {value: options.value || 0});
    },
  });
})();
