/* Concede / quit: a button (with a question first) that sends POST /leave; the game's zombie
 * (``zombie_turn``: Belote's bot) plays the seat to the end, and this page reloads as a
 * spectator's. Shown to a player of a game in play only. */
(function () {
  "use strict";
  const Arena = window.Arena;
  const _ = Arena._;

  const concede = {
    start() {
      const place = document.getElementById("table-feature-buttons");
      if (!place) return;
      const button = document.createElement("button");
      button.type = "button";
      button.id = "concede-button";
      button.className = "action-button red feature-button";
      button.textContent = _("Leave the game");
      button.hidden = true;
      button.addEventListener("click", () => this.ask());
      place.appendChild(button);
      this.button = button;
      const observer = new MutationObserver(() => this.refresh());
      observer.observe(document.body, {attributes: true, attributeFilter: ["class"]});
      const status = document.getElementById("pagemaintitletext");
      if (status) observer.observe(status, {childList: true, characterData: true, subtree: true});
    },

    isOver(gui) {
      const st = gui.gamedatas.gamestate || {};
      return st.id === 99 || st.name === "gameEnd";
    },

    refresh() {
      const gui = Arena.gui;
      if (!this.button) return;
      const me = gui && gui.gamedatas && !gui.isSpectator && gui.gamedatas.players[String(gui.player_id)];
      this.button.hidden = !me || !!me.zombie || gui.replaying || this.isOver(gui);
    },

    async ask() {
      const yes = await Arena.dialogs.confirmation(
        _("Leave this game? A bot plays your seat until the end, and you watch as a spectator."));
      if (!yes) return;
      try {
        await Arena.post("/leave", {});
      } catch (err) {
        Arena.gui.showMessage(err.message, "error");
        return;
      }
      Arena.gui.showMessage(_("You left the game: a bot plays your seat"), "info");
      await Arena.load();
    },
  };

  Arena.concede = concede;
  concede.start();
})();
