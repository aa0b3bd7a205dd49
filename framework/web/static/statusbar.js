/* The status bar: the state's text and the action buttons (BGA's ``this.statusBar``).
 *
 *   this.statusBar.addActionButton(_("Pass"), () => this.bgaPerformAction("pass"),
 *                                  {color: "secondary", id: "pass-button"});
 *   this.statusBar.addPossibleActionButtons({draw: _("Draw"), bank: _("Bank")});
 *   this.statusBar.setTitle(_("${you} must choose a card"));
 */
(function () {
  "use strict";
  const Arena = window.Arena;
  const _ = Arena._;

  // BGA's colours (primary, secondary, alert) and Arena's first ones (blue, gray, red, green).
  const COLORS = {primary: "blue", secondary: "gray", alert: "red", blue: "blue", gray: "gray",
    red: "red", green: "green", none: "none"};

  class StatusBar {
    constructor(gui) {
      this.gui = gui;
    }

    buttonsNode() {
      return document.getElementById("generalactions");
    }

    /** A button in the bar (or in ``options.destination``). ``label`` is text, escaped,
     * unless ``options.escape === false``. Options: id, color (primary, secondary, alert),
     * classes, title, disabled, destination, confirm (a text or a function giving one: a
     * question asked first), autoclick (clicked at once). Returns the button. */
    addActionButton(label, callback, options) {
      options = options || {};
      const destination = Arena.$(options.destination) || this.buttonsNode();
      if (options.id) {
        const old = document.getElementById(options.id);
        if (old) old.remove();
      }
      const button = document.createElement("button");
      if (options.id) button.id = options.id;
      button.type = "button";
      const color = COLORS[options.color || "primary"] || "blue";
      button.className = "action-button bgabutton " + color + (options.classes ? " " + [].concat(options.classes).join(" ") : "");
      if (options.escape === false) button.innerHTML = label;
      else button.textContent = label;
      if (options.title) button.title = options.title;
      if (options.disabled) button.disabled = true;
      button.addEventListener("click", async (ev) => {
        ev.preventDefault();
        if (this.gui.isInterfaceLocked() || button.disabled) return;
        const question = typeof options.confirm === "function" ? options.confirm() : options.confirm;
        if (question && !(await Arena.dialogs.confirmation(question))) return;
        callback(ev);
      });
      destination.appendChild(button);
      if (options.autoclick) setTimeout(() => button.click(), 0);
      return button;
    }

    /** One button per action the current state allows: ``labels`` maps an action to its
     * label (an action without one is shown by its name); each button sends its action
     * with ``bgaPerformAction``. ``args`` maps an action to its arguments (an object, or a
     * function returning one). Only for the active player; returns the buttons. */
    addPossibleActionButtons(labels, options) {
      labels = labels || {};
      options = options || {};
      const args = options.args || {};
      if (!this.gui.isCurrentPlayerActive()) return [];
      return this.gui.possibleActions().map((action) => {
        const label = labels[action] !== undefined ? labels[action] : action;
        return this.addActionButton(label, () => {
          const given = typeof args[action] === "function" ? args[action]() : args[action];
          this.gui.bgaPerformAction(action, given || {});
        }, {id: `action_${action}`, color: (options.colors || {})[action] || "primary"});
      });
    }

    removeActionButtons() {
      const node = this.buttonsNode();
      if (node) node.innerHTML = "";
    }

    /** The bar's text: a template with ``${you}``, ``${actplayer}`` and ``args`` filled in. */
    setTitle(template, args) {
      this.gui.setStatusText(this.gui.formatStateText(template, args || this.gui.gamedatas.gamestate.args || {}));
    }
  }

  // ----------------------------------------------------------------- whose turn, on the tab
  const baseTitle = document.title;

  /** The favicon, drawn: a play sign on the colour of whoever must act (gold: you). */
  function faviconURL(color, mine, over) {
    const fill = over ? "#6b7280" : mine ? "#d4a017" : color;
    const sign = over ? '<rect x="20" y="20" width="24" height="24" rx="3" fill="#fff"/>'
      : '<path d="M24 16 50 32 24 48z" fill="#fff"/>';
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64"><circle cx="32" cy="32" r="30" ` +
      `fill="${fill}" stroke="#22303c" stroke-width="4"/>${sign}</svg>`;
    return "data:image/svg+xml," + encodeURIComponent(svg);
  }

  /** The tab's title and favicon say whose turn it is: "▶ Your turn · Belote #12", the
   * player (or players) to act, the end of the game, or a replay. */
  Arena.showTurn = function () {
    const gui = this.gui;
    if (!gui || !gui.gamedatas) return;
    const st = gui.gamedatas.gamestate || {};
    const over = st.name === "gameEnd" || Number(st.id) === 99;
    const active = gui.getActivePlayers();
    const mine = gui.isCurrentPlayerActive();
    let prefix;
    if (gui.replaying) prefix = _("Replay");
    else if (over) prefix = _("End of game");
    else if (mine) prefix = "▶ " + _("Your turn");
    else if (active.length === 1) prefix = _("${player} to play").replace("${player}", gui.playerName(active[0]));
    else if (active.length > 1) prefix = _("${n} players to play").replace("${n}", String(active.length));
    document.title = prefix ? `${prefix} · ${baseTitle}` : baseTitle;
    let link = document.querySelector("link[rel~='icon']");
    if (!link) {
      link = document.createElement("link");
      link.rel = "icon";
      document.head.appendChild(link);
    }
    const color = active.length ? gui.playerColor(active[0]) : "#6b7280";
    link.type = "image/svg+xml";
    link.href = faviconURL(color, mine && !gui.replaying, over || gui.replaying);
    document.body.dataset.turn = gui.replaying ? "replay" : over ? "over" : mine ? "mine" : active.join(",");
    document.dispatchEvent(new CustomEvent("arena:turn", {detail: {active, mine, over}}));
  };

  Arena.StatusBar = StatusBar;
  Arena.statusBarColors = COLORS;
})();
