/* The turn alert: when it becomes this player's move, a short beep (made by WebAudio in the
 * page: nothing is loaded) unless the player turned it off (kept in the browser), and, while
 * the tab is hidden, its title flashes until the tab is shown again; then the title is what
 * it was (or what the page set it to meanwhile).
 *
 * It watches the page rather than the game: the body's "my-turn" class, which the core sets
 * with the status text. Arena.alerts.sounds counts the beeps (tests read it) and
 * Arena.alerts.onSound(fn) is told of each. */
(function () {
  "use strict";
  const Arena = window.Arena;
  const _ = Arena._;
  const PREF_KEY = "arena.turnSound";
  const FLASH_MS = 1000;

  const alerts = {
    sounds: 0,
    listeners: [],
    myTurn: null,     // null until the first state is shown: opening the page alerts nobody
    flashTimer: null,
    baseTitle: null,
    audio: null,

    start() {
      // The status text is written on every state shown (the first one too, which sets
      // myTurn without an alert), and the body's class follows it in the same task.
      const observer = new MutationObserver(() => this.check());
      observer.observe(document.body, {attributes: true, attributeFilter: ["class"]});
      const status = document.getElementById("pagemaintitletext");
      if (status) observer.observe(status, {childList: true, characterData: true, subtree: true});
      document.addEventListener("visibilitychange", () => {
        if (!document.hidden) this.stopFlash();
      });
      this.buildToggle();
    },

    isSoundOn() {
      try {
        return localStorage.getItem(PREF_KEY) !== "off";
      } catch (e) {
        return true;
      }
    },

    setSoundOn(on) {
      try {
        localStorage.setItem(PREF_KEY, on ? "on" : "off");
      } catch (e) {
        /* a browser without storage keeps the choice for this page only */
      }
      this.renderToggle();
    },

    buildToggle() {
      const place = document.getElementById("table-feature-buttons");
      if (!place) return;
      const button = document.createElement("button");
      button.type = "button";
      button.id = "turn-sound-toggle";
      button.className = "action-button gray feature-button";
      button.addEventListener("click", () => this.setSoundOn(!this.isSoundOn()));
      place.appendChild(button);
      this.toggle = button;
      this.renderToggle();
    },

    renderToggle() {
      if (!this.toggle) return;
      const on = this.isSoundOn();
      this.toggle.textContent = on ? _("Turn sound: on") : _("Turn sound: off");
      this.toggle.setAttribute("aria-pressed", on ? "true" : "false");
    },

    onSound(listener) {
      this.listeners.push(listener);
    },

    check() {
      const gui = Arena.gui;
      if (!gui || !gui.gamedatas) return;
      const mine = document.body.classList.contains("my-turn");
      const was = this.myTurn;
      this.myTurn = mine;
      if (was === null || !mine || was) return;
      if (gui.replaying || document.body.classList.contains("replaying")) return;
      this.alert();
    },

    /** It has just become this player's move. */
    alert() {
      if (this.isSoundOn()) this.beep();
      if (document.hidden) this.startFlash();
    },

    beep() {
      this.sounds += 1;
      for (const listener of this.listeners) {
        try {
          listener();
        } catch (e) {
          console.error("turn alert listener", e);
        }
      }
      const Context = window.AudioContext || window.webkitAudioContext;
      if (!Context) return;
      try {
        this.audio = this.audio || new Context();
        const ctx = this.audio;
        if (ctx.state === "suspended") ctx.resume().catch(() => null);
        const now = ctx.currentTime;
        const gain = ctx.createGain();
        gain.gain.setValueAtTime(0.0001, now);
        gain.gain.exponentialRampToValueAtTime(0.2, now + 0.02);
        gain.gain.exponentialRampToValueAtTime(0.0001, now + 0.35);
        gain.connect(ctx.destination);
        for (const [freq, at] of [[660, 0], [880, 0.12]]) {
          const osc = ctx.createOscillator();
          osc.type = "sine";
          osc.frequency.setValueAtTime(freq, now + at);
          osc.connect(gain);
          osc.start(now + at);
          osc.stop(now + at + 0.2);
        }
      } catch (e) {
        /* no sound on this browser: the title still flashes */
      }
    },

    flashText() {
      return "▶ " + _("Your turn!");
    },

    startFlash() {
      if (this.flashTimer) return;
      this.baseTitle = document.title;
      let lit = true;
      this.flashTimer = setInterval(() => {
        // The page may retitle itself meanwhile (whose turn it is): that is the title to restore.
        if (document.title !== this.flashText() && document.title !== this.baseTitle) this.baseTitle = document.title;
        lit = !lit;
        document.title = lit ? this.flashText() : this.baseTitle;
      }, FLASH_MS);
      document.title = this.flashText();
    },

    stopFlash() {
      if (!this.flashTimer) return;
      clearInterval(this.flashTimer);
      this.flashTimer = null;
      if (document.title === this.flashText()) document.title = this.baseTitle;
      this.baseTitle = null;
    },

    isFlashing() {
      return this.flashTimer !== null;
    },
  };

  Arena.alerts = alerts;
  alerts.start();
})();
