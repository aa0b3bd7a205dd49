/* The studio's tools under a studio table: bots at seats, save and load slots, going to
 * a state, replay, the error log and bug reports. */
(function () {
  "use strict";
  const Arena = window.Arena;
  const esc = Arena.esc;
  const config = Arena.config;

  Object.assign(Arena, {
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
            config.bot_kinds.map((k) => `<option value="${esc(k)}">${esc((config.bot_labels || {})[k] || k)}</option>`).join("");
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
  });
})();
