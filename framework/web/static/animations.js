/* Animations that return Promises: slide, place, fade (Web Animations API, no library).
 * A notification handler returns (or awaits) them, and the queue waits. They run at once
 * (duration 0) when ``gameui.bgaAnimationsActive()`` is false: a replay, a backlog of
 * notifications, a hidden tab.
 *
 * On the game (BGA's gamegui names):
 *   await this.slideToObject("card_3", "discard").play();   // .play() optional: it runs already
 *   await this.slideTemporaryObject(html, "board", "deck", "player_board_7");
 *   await this.fadeOutAndDestroy("token_5");
 * The manager (bga-animations' names), also for the card stocks:
 *   await Arena.animations.slideAndAttach(el, newParent);   // moved, sliding from where it was
 *   await Arena.animations.slideIn(el, fromElement);        // already in place, comes from there
 */
(function () {
  "use strict";
  const Arena = window.Arena;

  const DEFAULT_MS = 400;

  function nodeOf(target) {
    return typeof target === "string" ? document.getElementById(target) : target;
  }

  function center(rect) {
    return {x: rect.left + rect.width / 2, y: rect.top + rect.height / 2};
  }

  /** The element's own transform (from its style or its classes), to end an animation on. */
  function baseTransform(el) {
    const t = getComputedStyle(el).transform;
    return !t || t === "none" ? "" : t;
  }

  /** A Promise that has BGA's dojo-animation ``play()`` (which just returns it). */
  function playable(promise) {
    promise.play = () => promise;
    return promise;
  }

  class AnimationManager {
    /** ``settings.animationsActive``: a function, false to skip animations;
     * ``settings.duration``: the default length (ms). */
    constructor(settings) {
      settings = settings || {};
      this.settings = settings;
    }

    animationsActive() {
      if (this.settings.animationsActive) return !!this.settings.animationsActive();
      if (Arena.gui) return Arena.gui.bgaAnimationsActive();
      return !document.hidden;
    }

    /** How long an animation asked to last ``ms`` lasts now (0: not animated). */
    duration(ms) {
      if (!this.animationsActive()) return 0;
      return ms === undefined ? (this.settings.duration || DEFAULT_MS) : ms;
    }

    /** Run ``keyframes`` on ``el``; resolves when done (at once without animations). */
    run(el, keyframes, options) {
      options = options || {};
      const ms = this.duration(options.duration);
      if (!ms || !el.animate) return Promise.resolve(el);
      // Above its neighbours while it moves (z-index needs a positioned element).
      const raised = !el.style.zIndex;
      const madeRelative = getComputedStyle(el).position === "static";
      if (raised) el.style.zIndex = "50";
      if (madeRelative) el.style.position = "relative";
      const animation = el.animate(keyframes, {duration: ms, delay: options.delay || 0,
        easing: options.easing || "ease-in-out", fill: "backwards"});
      return animation.finished.catch(() => null).then(() => {
        if (raised) el.style.zIndex = "";
        if (madeRelative) el.style.position = "";
        return el;
      });
    }

    /** ``el`` is where it ends; it comes from ``fromRect`` (a DOMRect: where it was). */
    moveFrom(el, fromRect, options) {
      options = options || {};
      const to = el.getBoundingClientRect();
      const a = center(fromRect);
      const b = center(to);
      const scale = options.scale === false || !to.width ? 1 : fromRect.width / to.width;
      const base = baseTransform(el);
      if (!a.x && !a.y && !fromRect.width) return Promise.resolve(el);
      return this.run(el, [
        {transform: `translate(${a.x - b.x}px, ${a.y - b.y}px) scale(${scale}) ${base}`, opacity: options.fromOpacity ?? 1},
        {transform: base || "none", opacity: 1},
      ], options);
    }

    /** Move ``el`` into ``toElement`` (at ``options.position``, see ``Arena.place``),
     * sliding from where it was. */
    slideAndAttach(el, toElement, options) {
      options = options || {};
      el = nodeOf(el);
      const from = el.getBoundingClientRect();
      Arena.place(el, nodeOf(toElement), options.position);
      return this.moveFrom(el, from, options);
    }

    /** ``el`` is in place already: it slides in from ``fromElement`` (an element or id). */
    slideIn(el, fromElement, options) {
      el = nodeOf(el);
      const from = nodeOf(fromElement);
      if (!from) return this.fadeIn(el, options);
      return this.moveFrom(el, from.getBoundingClientRect(), options);
    }

    /** ``el`` slides onto ``toElement`` and is removed. */
    async slideOutAndDestroy(el, toElement, options) {
      el = nodeOf(el);
      await this.slideTo(el, toElement, options);
      el.remove();
      return el;
    }

    /** ``el`` slides to be centred on ``toElement`` (or offset by ``options.x/y`` from its
     * top-left corner) and stays there (its transform kept). */
    async slideTo(el, toElement, options) {
      options = options || {};
      el = nodeOf(el);
      const target = nodeOf(toElement);
      const from = el.getBoundingClientRect();
      const to = target.getBoundingClientRect();
      let dx;
      let dy;
      if (options.x !== undefined || options.y !== undefined) {
        dx = to.left + (options.x || 0) - from.left;
        dy = to.top + (options.y || 0) - from.top;
      } else {
        dx = center(to).x - center(from).x;
        dy = center(to).y - center(from).y;
      }
      const base = baseTransform(el);
      const end = `translate(${dx}px, ${dy}px) ${base}`;
      await this.run(el, [{transform: base || "none"}, {transform: end}], options);
      el.style.transform = end;
      return el;
    }

    fadeIn(el, options) {
      return this.run(nodeOf(el), [{opacity: 0}, {opacity: 1}], options);
    }

    async fadeOut(el, options) {
      el = nodeOf(el);
      await this.run(el, [{opacity: 1}, {opacity: 0}], options);
      el.style.opacity = "0";
      return el;
    }

    /** A short pulse drawing the eye to ``el``. */
    highlight(el, options) {
      return this.run(nodeOf(el), [{transform: "scale(1)"}, {transform: "scale(1.15)"}, {transform: "scale(1)"}],
        Object.assign({duration: 500}, options || {}));
    }
  }

  const animations = new AnimationManager();

  // BGA's classic gamegui methods, Promise-returning.
  Object.assign(Arena.GameGui.prototype, {
    slideToObject(mobile, target, duration, delay) {
      return playable(animations.slideTo(mobile, target, {duration, delay}));
    },
    slideToObjectPos(mobile, target, x, y, duration, delay) {
      return playable(animations.slideTo(mobile, target, {x: Number(x) || 0, y: Number(y) || 0, duration, delay}));
    },
    /** At once, ``mobile`` centred on ``target``. */
    placeOnObject(mobile, target) {
      return animations.slideTo(mobile, target, {duration: 0});
    },
    placeOnObjectPos(mobile, target, x, y) {
      return animations.slideTo(mobile, target, {x: Number(x) || 0, y: Number(y) || 0, duration: 0});
    },
    slideToObjectAndDestroy(node, to, duration, delay) {
      return playable(animations.slideOutAndDestroy(node, to, {duration, delay}));
    },
    /** HTML shown at ``from``, sliding to ``to``, then removed (BGA's name). */
    slideTemporaryObject(html, parent, from, to, duration, delay) {
      const node = Arena.place(html, parent);
      node.classList.add("arena-temporary");
      const start = nodeOf(from).getBoundingClientRect();
      const mine = node.getBoundingClientRect();
      node.style.transform = `translate(${center(start).x - center(mine).x}px, ${center(start).y - center(mine).y}px)`;
      return playable(animations.slideOutAndDestroy(node, to, {duration, delay}));
    },
    fadeOutAndDestroy(node, duration, delay) {
      node = nodeOf(node);
      return playable(animations.fadeOut(node, {duration, delay}).then(() => node.remove()));
    },
    /** Move ``mobile`` into ``newParent`` at once (its place is then the new parent's). */
    attachToNewParent(mobile, newParent) {
      mobile = nodeOf(mobile);
      mobile.style.transform = "";
      nodeOf(newParent).appendChild(mobile);
      return mobile;
    },
    /** BGA's ``bgaPlayDojoAnimation``: a Promise of an animation's end. */
    bgaPlayDojoAnimation(animation) {
      return Promise.resolve(animation && typeof animation.play === "function" ? animation.play() : animation);
    },
  });

  Arena.AnimationManager = AnimationManager;
  Arena.animations = animations;
  window.BgaAnimations = window.BgaAnimations || {Manager: AnimationManager};
})();
