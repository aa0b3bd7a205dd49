/* The end-of-game panel: once the game is over, the ranking and the game's statistics (the
 * table's, then each player's, with the names the game declared, translated), from
 * GET /stats, below the table, as BGA shows them at the end. */
(function () {
  "use strict";
  const Arena = window.Arena;
  const _ = Arena._;
  const esc = Arena.esc;

  const endPanel = {
    shownFor: null,  // the move the panel was drawn at

    start() {
      this.panel = document.getElementById("end-panel");
      if (!this.panel) return;
      const observer = new MutationObserver(() => this.refresh());
      const status = document.getElementById("pagemaintitletext");
      if (status) observer.observe(status, {childList: true, characterData: true, subtree: true});
    },

    isOver(gui) {
      const st = gui.gamedatas.gamestate || {};
      return st.id === 99 || st.name === "gameEnd";
    },

    refresh() {
      const gui = Arena.gui;
      if (!gui || !gui.gamedatas) return;
      if (gui.replaying || !this.isOver(gui)) {
        // a replay shows the game as it went; a studio table can come back from its end (a
        // slot loaded, a state jumped to)
        this.panel.hidden = true;
        this.shownFor = null;
        return;
      }
      if (this.shownFor === Arena.move) return;
      this.shownFor = Arena.move;
      this.show();
    },

    value(v) {
      if (typeof v === "boolean") return v ? _("Yes") : _("No");
      return String(v);
    },

    async show() {
      let stats;
      try {
        stats = await Arena.get("/stats");
      } catch (err) {
        this.shownFor = null;
        return;
      }
      const gui = Arena.gui;
      const ranking = stats.ranking || [];
      const ids = ranking.map((r) => String(r.player_id));
      const nameOf = (r) => esc(r.player_name);
      let html = `<h2>${esc(_("Game statistics"))}</h2>`;
      html += `<table class="end-ranking"><thead><tr><th>${esc(_("Rank"))}</th><th>${esc(_("Player"))}</th>` +
        `<th>${esc(_("Score"))}</th></tr></thead><tbody>` +
        ranking.map((r) => `<tr data-player="${esc(r.player_id)}"><td>${esc(r.rank)}</td><td>${nameOf(r)}</td>` +
          `<td>${esc(r.score)}</td></tr>`).join("") + `</tbody></table>`;
      if ((stats.table || []).length) {
        html += `<h3>${esc(_("Table statistics"))}</h3><table class="end-table-stats"><tbody>` +
          stats.table.map((s) => `<tr data-stat="${esc(s.key)}"><th>${esc(s.name)}</th>` +
            `<td>${esc(this.value(s.value))}</td></tr>`).join("") + `</tbody></table>`;
      }
      if ((stats.players || []).length) {
        html += `<h3>${esc(_("Player statistics"))}</h3><div class="end-scroll"><table class="end-player-stats">` +
          `<thead><tr><th></th>${ranking.map((r) => `<th>${nameOf(r)}</th>`).join("")}</tr></thead><tbody>` +
          stats.players.map((s) => `<tr data-stat="${esc(s.key)}"><th>${esc(s.name)}</th>` +
            ids.map((pid) => `<td>${pid in s.values ? esc(this.value(s.values[pid])) : "–"}</td>`).join("") +
            `</tr>`).join("") + `</tbody></table></div>`;
      }
      this.panel.innerHTML = html;
      this.panel.hidden = false;
      if (gui && typeof gui.onEndPanelShown === "function") gui.onEndPanelShown(this.panel, stats);
    },
  };

  Arena.endPanel = endPanel;
  endPanel.start();
})();
