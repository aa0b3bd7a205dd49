/* The replay: the table as its reader saw it when it began (``/replay``'s ``start``), then
 * its log played again move by move, with a timeline: play, pause, a move or a hand back or
 * forward, speed, a progress bar. Going back sets the table up again from its start and
 * plays up to the chosen move at once (no animation). A game marks where its hands begin
 * with ``this.replayMarks`` (notification types; Belote: ["newDeal"]).
 *
 *   Arena.startReplay()   // the studio's "Replay from the start", a finished table's "Replay"
 *   Arena.currentReplay   // the replay running (null when none): position, steps, speed
 */
(function () {
  "use strict";
  const Arena = window.Arena;
  const _ = Arena._;
  const esc = Arena.esc;
  const sleep = Arena.sleep;

  const SPEEDS = [0.5, 1, 2, 4, 8];
  const STEP_PAUSE_MS = 900; // between two moves when playing at ×1

  /** The log cut into moves: a move ends where the game waits for a player again (a state
   * change, with its private args) or where the next move's notifications begin; bots'
   * turns played within one request are each a move of their own. */
  function stepsOf(events) {
    const steps = [];
    let current = null;
    let closed = true;
    for (const event of events) {
      const move = Number(event.move_id || 0);
      const attached = event.type === "gameStateChangePrivateArg";
      if (!current || (closed && !attached) || current.move !== move) {
        current = {move, events: []};
        steps.push(current);
      }
      current.events.push(event);
      closed = event.type === "gameStateChange" || event.type === "gameStateMultipleActiveUpdate" ||
        (attached && closed);
    }
    return steps;
  }

  class Replay {
    constructor(answer, gui) {
      this.start = answer.start;
      this.steps = stepsOf(answer.events || []);
      this.gui = gui;
      this.position = 0;     // steps applied
      this.playing = false;
      this.looping = false;  // the play loop is running (it may finish a move after a pause)
      this.fast = false;     // applying without animations (a seek)
      this.speed = 1;
      this.chain = Promise.resolve();
      const marks = new Set(gui.replayMarks || []);
      // Where hands begin: right after each step holding a mark (a deal, say).
      this.handStarts = [];
      this.steps.forEach((step, i) => {
        if (step.events.some((e) => marks.has(e.type))) this.handStarts.push(i + 1);
      });
    }

    get length() {
      return this.steps.length;
    }

    /** Run ``fn`` after what is already running (one change of the table at a time). */
    run(fn) {
      this.chain = this.chain.then(fn).catch((err) => console.error("replay", err));
      return this.chain;
    }

    /** The table as it began, for this reader. */
    async setUp() {
      const gui = this.gui;
      const data = JSON.parse(JSON.stringify(this.start));
      document.getElementById("game_play_area").innerHTML = Arena._originalArea;
      document.getElementById("logs").innerHTML = "";
      gui.gamedatas = data;
      gui.on_client_state = false;
      Arena.buildPlayerBoards();
      Arena.setProgression(data.progression);
      gui.setup(data);  // from the start itself: a game's onReplayStart (the old way) is not needed
      Arena.enterState(data.gamestate, true);
      const text = document.getElementById("pagemaintitletext");
      if (!text.textContent.trim()) text.textContent = _("The game begins");
      this.position = 0;
    }

    async apply(step) {
      const queue = step.events.slice();
      while (queue.length) {
        const event = JSON.parse(JSON.stringify(queue.shift()));
        if (event.type === "gameStateChange") {
          while (queue.length && queue[0].type === "gameStateChangePrivateArg" &&
                 queue[0].args.state_id === event.args.id) {
            event.args.args = Object.assign({}, event.args.args, {_private: queue.shift().args.args});
          }
        }
        if (event.type === "undoRestore" || event.type === "studioReload") continue;
        await Arena.dispatch(event);
      }
      this.position += 1;
    }

    /** Go to ``target`` steps at once (back: from the start again). */
    seek(target) {
      return this.run(async () => {
        target = Math.max(0, Math.min(this.length, target));
        this.fast = true;
        try {
          if (target < this.position) await this.setUp();
          while (this.position < target) await this.apply(this.steps[this.position]);
        } finally {
          this.fast = false;
        }
        this.show();
      });
    }

    /** One move forward, animated. */
    next() {
      return this.run(async () => {
        if (this.position >= this.length) return;
        await this.apply(this.steps[this.position]);
        this.show();
      });
    }

    previous() {
      return this.seek(this.position - 1);
    }

    nextHand() {
      const target = this.handStarts.find((p) => p > this.position);
      return this.seek(target === undefined ? this.length : target);
    }

    previousHand() {
      const earlier = this.handStarts.filter((p) => p < this.position);
      return this.seek(earlier.length ? earlier[earlier.length - 1] : 0);
    }

    play() {
      if (this.playing) return;
      if (this.position >= this.length) this.seek(0);
      this.playing = true;
      this.looping = true;
      this.show();
      const loop = async () => {
        while (this.playing && this.position < this.length) {
          await this.next();
          if (this.playing && this.position < this.length) await sleep(STEP_PAUSE_MS / this.speed);
        }
        this.playing = false;
        this.looping = false;
        this.show();
      };
      this.run(() => null).then(loop);
    }

    /** Stop playing; the move being shown ends first (the bar says "paused" then). */
    pause() {
      this.playing = false;
      if (!this.looping) this.show();
    }

    /** A pause the game asked for (``gui.wait``), shortened by the speed; none in a seek. */
    pauseFor(ms) {
      if (this.fast) return Promise.resolve();
      return sleep(ms / this.speed);
    }

    animates() {
      return !this.fast && this.speed <= 2;
    }

    // ------------------------------------------------------------- the bar
    build() {
      const bar = document.createElement("div");
      bar.id = "replay-bar";
      bar.className = "replay-bar";
      bar.setAttribute("role", "region");
      bar.setAttribute("aria-label", _("Replay"));
      const who = this.gui.isSpectator ? _("as a spectator saw it")
        : _("as ${player} saw it").replace("${player}", this.gui.playerName(this.gui.player_id));
      const button = (id, label, title) =>
        `<button type="button" id="${id}" class="replay-button" title="${esc(title)}" aria-label="${esc(title)}">${label}</button>`;
      bar.innerHTML =
        `<div class="replay-banner"><span class="replay-badge">${esc(_("Replay"))}</span> ` +
        `<span class="replay-who">${esc(who)}</span>` +
        `<button type="button" id="replay-exit" class="replay-exit">${esc(_("Back to the table"))}</button></div>` +
        `<div class="replay-controls">` +
        button("replay-first", "|◀", _("To the start")) +
        button("replay-prev-hand", "◀◀", _("Previous deal")) +
        button("replay-prev", "◀", _("Previous move")) +
        button("replay-play", esc(_("Play")), _("Play")) +
        button("replay-next", "▶", _("Next move")) +
        button("replay-next-hand", "▶▶", _("Next deal")) +
        button("replay-last", "▶|", _("To the end")) +
        `<label class="replay-speed">${esc(_("Speed"))} <select id="replay-speed">` +
        SPEEDS.map((s) => `<option value="${s}"${s === this.speed ? " selected" : ""}>×${s}</option>`).join("") +
        `</select></label></div>` +
        `<div class="replay-timeline"><div class="replay-track"><input type="range" id="replay-progress" min="0" ` +
        `max="${this.length}" value="0" aria-label="${esc(_("Move"))}"><div class="replay-ticks" aria-hidden="true">` +
        this.handStarts.filter((p) => p < this.length).map((p) =>
          `<span class="replay-tick" style="left:${(100 * p / Math.max(1, this.length)).toFixed(2)}%"></span>`).join("") +
        `</div></div><span id="replay-position" class="replay-position"></span></div>`;
      const status = document.getElementById("status-bar");
      status.parentNode.insertBefore(bar, status.nextSibling);
      const tag = document.createElement("span");
      tag.id = "replay-tag";
      tag.className = "replay-tag";
      tag.textContent = _("Replay");
      status.insertBefore(tag, status.firstChild);
      const on = (id, fn) => document.getElementById(id).addEventListener("click", fn);
      on("replay-first", () => { this.pause(); this.seek(0); });
      on("replay-prev-hand", () => { this.pause(); this.previousHand(); });
      on("replay-prev", () => { this.pause(); this.previous(); });
      on("replay-play", () => (this.playing ? this.pause() : this.play()));
      on("replay-next", () => { this.pause(); this.next(); });
      on("replay-next-hand", () => { this.pause(); this.nextHand(); });
      on("replay-last", () => { this.pause(); this.seek(this.length); });
      on("replay-exit", () => Arena.stopReplay());
      document.getElementById("replay-speed").addEventListener("change", (ev) => {
        this.speed = Number(ev.target.value) || 1;
      });
      document.getElementById("replay-progress").addEventListener("change", (ev) => {
        const target = Number(ev.target.value);
        this.pause();
        this.seek(target);
      });
    }

    show() {
      const bar = document.getElementById("replay-bar");
      if (!bar) return;
      const progress = document.getElementById("replay-progress");
      progress.value = String(this.position);
      progress.setAttribute("aria-valuetext", `${this.position} / ${this.length}`);
      const hand = this.handStarts.filter((p) => p <= this.position).length;
      document.getElementById("replay-position").textContent =
        _("Move ${n} of ${total}").replace("${n}", this.position).replace("${total}", this.length) +
        (hand ? " · " + _("Deal ${n}").replace("${n}", hand) : "");
      const play = document.getElementById("replay-play");
      play.textContent = this.playing ? "❚❚" : _("Play");
      play.title = this.playing ? _("Pause") : _("Play");
      play.setAttribute("aria-label", play.title);
      play.classList.toggle("playing", this.playing);
      bar.dataset.position = String(this.position);
      bar.dataset.length = String(this.length);
      bar.dataset.playing = this.playing ? "1" : "0";
      bar.classList.toggle("at-end", this.position >= this.length);
    }

    remove() {
      this.playing = false;
      for (const id of ["replay-bar", "replay-tag"]) {
        const node = document.getElementById(id);
        if (node) node.remove();
      }
    }
  }

  Object.assign(Arena, {
    Replay,
    currentReplay: null,

    /** Leave live play for a replay of the table from its start (it does not change). */
    async startReplay() {
      const gui = this.gui;
      if (this.currentReplay) return this.currentReplay;
      let answer;
      try {
        answer = await this.get("/replay");
      } catch (err) {
        gui.showMessage(err.message, "error");
        return null;
      }
      this.closeEvents();
      this.queue = [];
      const replay = new Replay(answer, gui);
      this.currentReplay = replay;
      gui.replaying = true;
      document.body.classList.add("replaying");
      await replay.setUp();
      replay.build();
      replay.show();
      return replay;
    },

    /** Back to the table as it is now. */
    async stopReplay() {
      const replay = this.currentReplay;
      if (!replay) return;
      replay.remove();
      await replay.chain;
      this.currentReplay = null;
      this.gui.replaying = false;
      document.body.classList.remove("replaying");
      await this.load();
    },
  });
  const opener = document.getElementById("replay-open"); // shown once the game is over
  if (opener) opener.addEventListener("click", () => Arena.startReplay());
  // Strings the framework shows, for extraction: _("Replay")
})();
