/* Counters: a number shown in an element that counts up or down to its new value (BGA's
 * ``ebg.counter``; a player panel's score is one, in ``gameui.scoreCtrl[player_id]``).
 *
 *   const c = new Arena.Counter("deck-count", {value: 32});   // or: new ebg.counter(); c.create(el)
 *   c.incValue(-1); c.toValue(10); c.getValue(); c.setValue(0); c.disable();
 */
(function () {
  "use strict";
  const Arena = window.Arena;

  function nodeOf(target) {
    return typeof target === "string" ? document.getElementById(target) : target;
  }

  class Counter {
    /** ``target``: an element or its id (optional: BGA's way is ``create`` later). */
    constructor(target, options) {
      options = options || {};
      this.span = null;
      this.current = 0;
      this.target = 0;
      this.speed = options.speed || 100; // ms per step while counting
      this._timer = null;
      if (target !== undefined && target !== null) this.create(target, options);
    }

    /** Attach to an element (or its id); its text is the starting value unless given. */
    create(target, options) {
      options = options || {};
      this.span = nodeOf(target);
      if (!this.span) throw new Error("Counter: no element " + target);
      const start = options.value !== undefined ? Number(options.value) : Number(this.span.textContent) || 0;
      this.setValue(start);
      return this;
    }

    getValue() {
      return this.target;
    }

    /** Show ``value`` at once. */
    setValue(value) {
      this._stop();
      this.current = this.target = Number(value) || 0;
      this._draw();
      return this.target;
    }

    /** Count to ``value`` (at once when animations are off: replay, backlog, hidden tab). */
    toValue(value) {
      value = Number(value) || 0;
      const gui = Arena.gui;
      if (gui && !gui.bgaAnimationsActive()) return this.setValue(value);
      this.target = value;
      if (this.span) this.span.dataset.value = String(value);
      if (this.current === value) return this.target;
      if (!this._timer) {
        this._timer = setInterval(() => {
          const gap = this.target - this.current;
          if (gap === 0) return this._stop();
          const step = Math.max(1, Math.floor(Math.abs(gap) / 5));
          this.current += gap > 0 ? step : -step;
          this._draw();
        }, this.speed);
      }
      return this.target;
    }

    incValue(by) {
      return this.toValue(this.target + (Number(by) || 0));
    }

    /** Show "-" (BGA: a value that does not mean anything now). */
    disable() {
      this._stop();
      if (this.span) this.span.textContent = "-";
    }

    _stop() {
      if (this._timer) clearInterval(this._timer);
      this._timer = null;
      this.current = this.target;
      this._draw();
    }

    _draw() {
      if (!this.span) return;
      this.span.textContent = String(this.current);
      this.span.dataset.value = String(this.target);
    }
  }

  Arena.Counter = Counter;
  // BGA's ``new ebg.counter()``, then ``create(element)``.
  window.ebg = window.ebg || {};
  window.ebg.counter = window.ebg.counter || Counter;
})();
