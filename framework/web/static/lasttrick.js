/* The last trick, on demand (BGA shows the previous trick when asked): a button beside the
 * log opens a box with GET /lasttrick, the game's ``get_last_trick``. Each card is drawn by
 * the game's ``formatLastTrickCard(code)`` (trusted HTML) when it has one, else shown as its
 * code. Only for games that implement the hook (``config.features.last_trick``). */
(function () {
  "use strict";
  const Arena = window.Arena;
  const _ = Arena._;
  const esc = Arena.esc;

  const lastTrick = {
    start() {
      const features = Arena.config.features || {};
      const place = document.getElementById("table-feature-buttons");
      if (!features.last_trick || !place) return;
      const button = document.createElement("button");
      button.type = "button";
      button.id = "last-trick-button";
      button.className = "action-button gray feature-button";
      button.textContent = _("Last trick");
      button.addEventListener("click", () => this.show());
      place.insertBefore(button, place.firstChild);
    },

    close() {
      const box = document.getElementById("last-trick-dialog");
      if (box) box.remove();
    },

    async show() {
      this.close();
      let answer;
      try {
        answer = await Arena.get("/lasttrick");
      } catch (err) {
        if (Arena.gui) Arena.gui.showMessage(err.message, "error");
        return;
      }
      const trick = answer.last_trick;
      const gui = Arena.gui;
      const box = document.createElement("div");
      box.id = "last-trick-dialog";
      box.className = "arena-dialog last-trick-dialog";
      box.setAttribute("role", "dialog");
      let inner;
      if (!trick) {
        inner = `<p class="last-trick-none">${esc(_("No trick has been played yet"))}</p>`;
      } else {
        const cards = (trick.cards || []).map((entry) => {
          const face = gui && typeof gui.formatLastTrickCard === "function"
            ? gui.formatLastTrickCard(entry.card)
            : `<span class="last-trick-code">${esc(entry.card)}</span>`;
          const winner = Number(entry.player_id) === Number(trick.winner);
          return `<figure class="last-trick-card${winner ? " winner" : ""}" data-card="${esc(entry.card)}" ` +
            `data-player="${esc(entry.player_id)}">${face}<figcaption>${esc(gui ? gui.playerName(entry.player_id) : entry.player_id)}` +
            `</figcaption></figure>`;
        }).join("");
        let summary = "";
        if (trick.winner !== null && trick.winner !== undefined) {
          summary = esc(_("Won by ${player}")).replace("${player}",
            `<b>${esc(gui ? gui.playerName(trick.winner) : trick.winner)}</b>`);
          if (trick.points !== null && trick.points !== undefined) {
            summary += " · " + esc(_("${points} points").replace("${points}", String(trick.points)));
          }
        }
        inner = `<div class="last-trick-cards">${cards}</div><p class="last-trick-summary">${summary}</p>`;
      }
      box.innerHTML = `<div class="arena-dialog-box"><h3>${esc(_("Last trick"))}</h3>${inner}` +
        `<div class="arena-dialog-buttons"><button type="button" class="action-button blue" data-close>` +
        `${esc(_("Close"))}</button></div></div>`;
      box.addEventListener("click", (ev) => {
        if (ev.target === box || ev.target.closest("[data-close]")) this.close();
      });
      document.addEventListener("keydown", function onKey(ev) {
        if (ev.key === "Escape") {
          document.removeEventListener("keydown", onKey);
          lastTrick.close();
        }
      });
      document.body.appendChild(box);
      box.querySelector("[data-close]").focus();
    },
  };

  Arena.lastTrick = lastTrick;
  lastTrick.start();
})();
