/* The studio's tools under a studio table: the test players (switched in this tab, or
 * following whoever must act), bots at seats, save and load slots, going to a state,
 * replay, the error log and bug reports. */
(function () {
  "use strict";
  const Arena = window.Arena;
  const esc = Arena.esc;
  const config = Arena.config;

  const FOLLOW_KEY = "arena.followActive";

  /** The table as another test player, in this tab (BGA's "see as" links): ``?as=`` changes. */
  function viewAs(pid) {
    const url = new URL(location.href);
    url.searchParams.set("as", String(pid));
    url.searchParams.delete("replay");
    if (url.href !== location.href) location.assign(url.href);
  }

  Object.assign(Arena, {
    viewAs,

    /** "Follow the active player": when someone else must act, the tab becomes theirs. */
    followActive(detail) {
      const box = document.getElementById("follow-active");
      if (!box || !box.checked || this.gui.replaying || detail.over || detail.mine) return;
      const humans = detail.active.filter((pid) => {
        const p = this.gui.gamedatas.players[String(pid)];
        return p && !p.bot && !p.zombie;
      });
      if (humans.length && !humans.includes(Number(config.as))) viewAs(humans[0]);
    },

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
      const follow = document.getElementById("follow-active");
      if (follow) {
        follow.checked = localStorage.getItem(FOLLOW_KEY) === "1";
        follow.addEventListener("change", () => {
          localStorage.setItem(FOLLOW_KEY, follow.checked ? "1" : "0");
          if (follow.checked) this.showTurn();
        });
        document.addEventListener("arena:turn", (ev) => this.followActive(ev.detail));
        this.showTurn();
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
            const target = config.states.find((st) => st.id === Number(select.value));
            await Arena.post("/studio/jump", {state_id: Number(select.value)});
            if (this.ended) await this.load(); // the stream of a finished game was closed
            const label = target ? `${target.id} ${target.name}` : select.value;
            const done = _("The table went to state ${state}").replace("${state}", label);
            this.gui.showMessage(done, "info");
            show(done);
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
