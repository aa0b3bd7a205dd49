/* Card and token stocks, as BGA's card-stock library (bga-cards) offers them: a manager
 * that draws a card, and stocks that hold cards and move them between each other with an
 * animation: LineStock, HandStock (a fan), SlotStock (named places), Deck (a pile and its
 * count) and VoidStock (a place cards go to and vanish). Also as ``window.BgaCards``.
 *
 *   const cards = new Arena.CardManager(this, {
 *     getId: (card) => `card-${card.id}`,                 // the element's id: unique
 *     setupFrontDiv: (card, div) => { div.textContent = card.type_arg; },
 *     isCardVisible: (card) => card.type_arg !== undefined,
 *   });
 *   const hand = new Arena.HandStock(cards, "my-hand", {sort: Arena.sortCards("type", "type_arg")});
 *   hand.addCards(gamedatas.hand);
 *   hand.setSelectionMode("single");                      // none, single, multiple
 *   hand.onSelectionChange = (selection, lastChange) => { ... };
 *   await table.addCard(card, {fromStock: hand});         // slides from the hand
 *   await table.addCard(card, {fromElement: "player_board_7"});
 */
(function () {
  "use strict";
  const Arena = window.Arena;

  function nodeOf(target) {
    return typeof target === "string" ? document.getElementById(target) : target;
  }

  /** A comparator on card fields, in order; "-field" sorts that field descending. */
  function sortCards(...fields) {
    return (a, b) => {
      for (const field of fields) {
        const desc = field.startsWith("-");
        const key = desc ? field.slice(1) : field;
        const x = a[key];
        const y = b[key];
        if (x === y) continue;
        const order = typeof x === "number" && typeof y === "number" ? x - y : String(x).localeCompare(String(y));
        return desc ? -order : order;
      }
      return 0;
    };
  }

  // ------------------------------------------------------------------ the manager
  class CardManager {
    /** ``settings``: getId(card) (the element id; default "card-<id>"), setupDiv(card, div),
     * setupFrontDiv(card, div), setupBackDiv(card, div), isCardVisible(card) (default true),
     * cardWidth, cardHeight, selectableCardClass, unselectableCardClass, selectedCardClass,
     * animationManager (default Arena.animations). */
    constructor(game, settings) {
      this.game = game;
      this.settings = settings || {};
      this.stocks = [];
      this.animationManager = this.settings.animationManager || Arena.animations;
    }

    getId(card) {
      return this.settings.getId ? this.settings.getId(card) : `card-${card.id}`;
    }

    getCardElement(card) {
      return document.getElementById(this.getId(card));
    }

    isCardVisible(card) {
      return this.settings.isCardVisible ? !!this.settings.isCardVisible(card) : true;
    }

    /** The stock that holds ``card`` now (null: none). */
    getCardStock(card) {
      return this.stocks.find((s) => s.contains(card)) || null;
    }

    createCardElement(card, visible) {
      const div = document.createElement("div");
      div.id = this.getId(card);
      div.className = "arena-card";
      if (this.settings.cardWidth) div.style.width = `${this.settings.cardWidth}px`;
      if (this.settings.cardHeight) div.style.height = `${this.settings.cardHeight}px`;
      const front = document.createElement("div");
      front.className = "arena-card-side arena-card-front";
      const back = document.createElement("div");
      back.className = "arena-card-side arena-card-back";
      div.append(front, back);
      if (this.settings.setupDiv) this.settings.setupDiv(card, div);
      if (this.settings.setupBackDiv) this.settings.setupBackDiv(card, back);
      this.setCardVisible(card, visible === undefined ? this.isCardVisible(card) : visible, div);
      return div;
    }

    /** Face up (drawn again by setupFrontDiv) or face down. */
    setCardVisible(card, visible, element) {
      const div = element || this.getCardElement(card);
      if (!div) return;
      const front = div.querySelector(":scope > .arena-card-front");
      div.classList.toggle("arena-card-hidden", !visible);
      div.dataset.side = visible ? "front" : "back";
      if (visible && this.settings.setupFrontDiv) {
        front.innerHTML = "";
        this.settings.setupFrontDiv(card, front);
      } else if (!visible) {
        front.innerHTML = ""; // a hidden card keeps nothing of its face
      }
    }

    /** Turn a card over, with a short animation. */
    async flipCard(card, settings) {
      const div = this.getCardElement(card);
      if (!div) return;
      const visible = settings && settings.visible !== undefined ? settings.visible : div.dataset.side !== "front";
      await this.animationManager.run(div, [{transform: "scaleX(1)"}, {transform: "scaleX(0)"}], {duration: 150});
      this.setCardVisible(card, visible);
      await this.animationManager.run(div, [{transform: "scaleX(0)"}, {transform: "scaleX(1)"}], {duration: 150});
    }

    /** Draw a card again (its data changed). */
    updateCardInformations(card) {
      const div = this.getCardElement(card);
      if (!div) return;
      if (this.settings.setupDiv) this.settings.setupDiv(card, div);
      this.setCardVisible(card, div.dataset.side === "front");
    }

    removeCard(card, settings) {
      const stock = this.getCardStock(card);
      return stock ? stock.removeCard(card, settings) : Promise.resolve(false);
    }

    classes() {
      const s = this.settings;
      return {
        selectable: s.selectableCardClass || "arena-card-selectable",
        unselectable: s.unselectableCardClass || "arena-card-unselectable",
        selected: s.selectedCardClass || "arena-card-selected",
      };
    }
  }

  // ------------------------------------------------------------------ stocks
  class CardStock {
    constructor(manager, element, settings) {
      this.manager = manager;
      this.element = nodeOf(element);
      if (!this.element) throw new Error("stock: no element " + element);
      this.settings = settings || {};
      this.cards = [];
      this.selectedIds = [];
      this.selectionMode = "none";
      this.selectableIds = null; // null: every card
      this.sort = this.settings.sort || null;
      this.onSelectionChange = null; // (selection, lastChange) => ...
      this.onCardClick = null;       // (card) => ...
      this.element.classList.add("arena-stock");
      manager.stocks.push(this);
      this.element.addEventListener("click", (ev) => this._clicked(ev));
      this.element.addEventListener("keydown", (ev) => {
        if (ev.key === "Enter" || ev.key === " ") this._clicked(ev);
      });
    }

    getCards() {
      return this.cards.slice();
    }
    isEmpty() {
      return this.cards.length === 0;
    }
    contains(card) {
      const id = this.manager.getId(card);
      return this.cards.some((c) => this.manager.getId(c) === id);
    }
    getCardElement(card) {
      return this.manager.getCardElement(card);
    }
    _indexOf(card) {
      const id = this.manager.getId(card);
      return this.cards.findIndex((c) => this.manager.getId(c) === id);
    }

    /** Add ``card``; ``animation``: {fromStock, fromElement, duration}; ``settings``:
     * {index, visible}. A card already in another stock moves from it, sliding. Resolves
     * when the animation ends (to false if the card was here already). */
    addCard(card, animation, settings) {
      animation = animation || {};
      settings = settings || {};
      if (this.contains(card)) {
        this.cards[this._indexOf(card)] = card;
        this.manager.updateCardInformations(card);
        return Promise.resolve(false);
      }
      const visible = settings.visible === undefined ? this.manager.isCardVisible(card) : settings.visible;
      let el = this.manager.getCardElement(card);
      let fromRect = null;
      if (el) {
        fromRect = el.getBoundingClientRect();
        const other = this.manager.getCardStock(card);
        if (other) other._forget(card);
        this.manager.setCardVisible(card, visible, el);
        if (this.manager.settings.setupDiv) this.manager.settings.setupDiv(card, el);
      } else {
        el = this.manager.createCardElement(card, visible);
      }
      const from = nodeOf(animation.fromElement) || (animation.fromStock && animation.fromStock.element);
      if (!fromRect && from) fromRect = from.getBoundingClientRect();
      let index = settings.index;
      if (this.sort) {
        index = this.cards.findIndex((c) => this.sort(card, c) < 0);
        if (index < 0) index = this.cards.length;
      } else if (index === undefined || index > this.cards.length) {
        index = this.cards.length;
      }
      this.cards.splice(index, 0, card);
      this._place(el, card, index);
      this._layout();
      this._updateSelectionClasses();
      if (!fromRect) return Promise.resolve(true);
      return this.manager.animationManager.moveFrom(el, fromRect, {duration: animation.duration,
        fromOpacity: animation.fromElement && !animation.fromStock ? 0.3 : 1}).then(() => true);
    }

    /** Add several cards; ``shift`` (ms) starts each animation that much after the last. */
    addCards(cards, animation, settings, shift) {
      const done = [];
      cards.forEach((card, i) => {
        const anim = Object.assign({}, animation || {});
        if (shift && i) anim.delay = shift * i;
        done.push(this.addCard(card, anim, settings));
      });
      return Promise.all(done);
    }

    /** Remove ``card``; ``settings``: {slideTo: an element, fadeOut: true}. */
    async removeCard(card, settings) {
      settings = settings || {};
      if (!this.contains(card)) return false;
      const el = this.manager.getCardElement(card);
      this._forget(card);
      if (el) {
        if (settings.slideTo) await this.manager.animationManager.slideOutAndDestroy(el, settings.slideTo, settings);
        else if (settings.fadeOut) {
          await this.manager.animationManager.fadeOut(el, settings);
          el.remove();
        } else el.remove();
      }
      this._layout();
      return true;
    }

    removeCards(cards, settings) {
      return Promise.all(cards.map((c) => this.removeCard(c, settings)));
    }

    removeAll(settings) {
      return this.removeCards(this.getCards(), settings);
    }

    /** Sort by ``sort`` (a comparator, or null to keep the order cards came in); the
     * cards slide to their new places. */
    setSort(sort) {
      this.sort = sort;
      if (!sort) return Promise.resolve();
      const before = new Map(this.cards.map((c) => [this.manager.getId(c), this.getCardElement(c).getBoundingClientRect()]));
      this.cards.sort(sort);
      this.cards.forEach((c, i) => this._place(this.getCardElement(c), c, i));
      this._layout();
      return Promise.all(this.cards.map((c) =>
        this.manager.animationManager.moveFrom(this.getCardElement(c), before.get(this.manager.getId(c)), {duration: 250})));
    }

    // -------------------------------------------------------------- selection
    /** "none", "single" or "multiple"; ``selectableCards`` (default: all) the cards that may
     * be chosen, the others marked unselectable. */
    setSelectionMode(mode, selectableCards) {
      if (!["none", "single", "multiple"].includes(mode)) throw new Error("selection mode: none, single or multiple, not " + mode);
      this.selectionMode = mode;
      if (mode === "none") this.selectedIds = [];
      if (mode === "single" && this.selectedIds.length > 1) this.selectedIds = this.selectedIds.slice(-1);
      this.selectableIds = selectableCards ? selectableCards.map((c) => this.manager.getId(c)) : null;
      this._updateSelectionClasses();
    }

    setSelectableCards(selectableCards) {
      this.selectableIds = selectableCards ? selectableCards.map((c) => this.manager.getId(c)) : null;
      this.selectedIds = this.selectedIds.filter((id) => this._isSelectableId(id));
      this._updateSelectionClasses();
    }

    isSelectable(card) {
      return this._isSelectableId(this.manager.getId(card));
    }

    _isSelectableId(id) {
      return this.selectionMode !== "none" && (this.selectableIds === null || this.selectableIds.includes(id));
    }

    getSelection() {
      return this.cards.filter((c) => this.selectedIds.includes(this.manager.getId(c)));
    }

    isSelected(card) {
      return this.selectedIds.includes(this.manager.getId(card));
    }

    selectCard(card, silent) {
      const id = this.manager.getId(card);
      if (!this._isSelectableId(id) || this.selectedIds.includes(id)) return;
      if (this.selectionMode === "single") this.selectedIds = [];
      this.selectedIds.push(id);
      this._updateSelectionClasses();
      if (!silent && this.onSelectionChange) this.onSelectionChange(this.getSelection(), card);
    }

    unselectCard(card, silent) {
      const id = this.manager.getId(card);
      if (!this.selectedIds.includes(id)) return;
      this.selectedIds = this.selectedIds.filter((x) => x !== id);
      this._updateSelectionClasses();
      if (!silent && this.onSelectionChange) this.onSelectionChange(this.getSelection(), card);
    }

    selectAll(silent) {
      if (this.selectionMode === "none") return;
      for (const c of this.cards) if (this.isSelectable(c) && !this.isSelected(c)) this.selectedIds.push(this.manager.getId(c));
      if (this.selectionMode === "single") this.selectedIds = this.selectedIds.slice(0, 1);
      this._updateSelectionClasses();
      if (!silent && this.onSelectionChange) this.onSelectionChange(this.getSelection(), null);
    }

    unselectAll(silent) {
      this.selectedIds = [];
      this._updateSelectionClasses();
      if (!silent && this.onSelectionChange) this.onSelectionChange([], null);
    }

    _clicked(ev) {
      const el = ev.target.closest(".arena-card");
      if (!el || !this.element.contains(el)) return;
      const card = this.cards.find((c) => this.manager.getId(c) === el.id);
      if (!card) return;
      if (ev.type === "keydown") ev.preventDefault();
      if (this.selectionMode !== "none" && this.isSelectable(card)) {
        if (this.isSelected(card)) this.unselectCard(card);
        else this.selectCard(card);
      }
      if (this.onCardClick) this.onCardClick(card);
    }

    _updateSelectionClasses() {
      const names = this.manager.classes();
      this.element.dataset.selectionMode = this.selectionMode;
      for (const c of this.cards) {
        const el = this.getCardElement(c);
        if (!el) continue;
        const id = this.manager.getId(c);
        const selectable = this._isSelectableId(id);
        el.classList.toggle(names.selectable, selectable);
        el.classList.toggle(names.unselectable, this.selectionMode !== "none" && !selectable);
        el.classList.toggle(names.selected, this.selectedIds.includes(id));
        if (selectable) {
          el.tabIndex = 0;
          el.setAttribute("role", "button");
          el.removeAttribute("aria-disabled");
        } else {
          el.removeAttribute("tabindex");
          el.removeAttribute("role");
          if (this.selectionMode !== "none") el.setAttribute("aria-disabled", "true");
          else el.removeAttribute("aria-disabled");
        }
      }
    }

    // -------------------------------------------------------------- for subclasses
    /** Put the card's element at ``index`` among the stock's elements. */
    _place(el, card, index) {
      const next = this.cards[index + 1];
      const nextEl = next ? this.getCardElement(next) : null;
      this.element.insertBefore(el, nextEl && nextEl.parentNode === this.element ? nextEl : null);
    }

    /** After a change of the cards: positions that depend on the others. */
    _layout() {}

    /** A card's element leaves for another stock: undo what this stock set on it. */
    _release(el) {}

    /** The card leaves the stock's list (its element is the caller's). */
    _forget(card) {
      const index = this._indexOf(card);
      if (index < 0) return;
      const el = this.getCardElement(card);
      if (el) this._release(el);
      this.cards.splice(index, 1);
      const id = this.manager.getId(card);
      this.selectedIds = this.selectedIds.filter((x) => x !== id);
      this._layout();
    }
  }

  /** Cards in a row (or a column): settings wrap ("wrap"/"nowrap"), direction
   * ("row"/"column"), center (true), gap (CSS length). */
  class LineStock extends CardStock {
    constructor(manager, element, settings) {
      super(manager, element, settings);
      const s = this.settings;
      this.element.classList.add("arena-line-stock");
      this.element.dataset.wrap = s.wrap || "wrap";
      this.element.dataset.direction = s.direction || "row";
      this.element.dataset.center = String(s.center !== false);
      if (s.gap) this.element.style.gap = s.gap;
    }
  }

  /** A player's hand, fanned: settings inclination (degrees per card from the middle),
   * cardShift (px down per card², from the middle), cardOverlap (px, optional). */
  class HandStock extends LineStock {
    constructor(manager, element, settings) {
      super(manager, element, Object.assign({wrap: "nowrap"}, settings || {}));
      this.element.classList.add("arena-hand-stock");
    }

    _layout() {
      const s = this.settings;
      const inclination = s.inclination === undefined ? 4 : s.inclination;
      const shift = s.cardShift === undefined ? 2 : s.cardShift;
      const n = this.cards.length;
      this.cards.forEach((c, i) => {
        const el = this.getCardElement(c);
        if (!el) return;
        const offset = i - (n - 1) / 2;
        el.style.transform = `rotate(${offset * inclination}deg) translateY(${offset * offset * shift}px)`;
        if (s.cardOverlap !== undefined) el.style.marginLeft = i ? `-${s.cardOverlap}px` : "0";
      });
    }

    _release(el) {
      el.style.transform = "";
      el.style.marginLeft = "";
    }
  }

  /** Named places: settings slotsIds (the places, made as children unless the element has
   * ``[data-slot-id]`` children already), mapCardToSlot(card) -> a slot id, slotClasses. */
  class SlotStock extends CardStock {
    constructor(manager, element, settings) {
      super(manager, element, settings);
      this.element.classList.add("arena-slot-stock");
      for (const id of this.settings.slotsIds || []) this.addSlot(id);
    }

    addSlot(id) {
      if (this.slotElement(id)) return this.slotElement(id);
      const slot = document.createElement("div");
      slot.className = ["arena-slot"].concat(this.settings.slotClasses || []).join(" ");
      slot.dataset.slotId = id;
      this.element.appendChild(slot);
      return slot;
    }

    slotElement(id) {
      return [...this.element.querySelectorAll("[data-slot-id]")].find((n) => n.dataset.slotId === String(id)) || null;
    }

    _slotOf(card) {
      const id = this.settings.mapCardToSlot ? this.settings.mapCardToSlot(card) : card.location_arg;
      return this.slotElement(id) || this.addSlot(id);
    }

    _place(el, card) {
      this._slotOf(card).appendChild(el);
    }
  }

  /** A pile: only its top card is drawn (face down unless isCardVisible says otherwise),
   * with its count. Settings: cardNumber (default: the cards added), autoUpdateCardNumber
   * (default true), counter ({hide: true} to hide it), topCard. */
  class Deck extends CardStock {
    constructor(manager, element, settings) {
      super(manager, element, settings);
      this.element.classList.add("arena-deck");
      this.cardNumber = 0;
      this.counterNode = document.createElement("span");
      this.counterNode.className = "arena-deck-counter";
      if (this.settings.counter && this.settings.counter.hide) this.counterNode.hidden = true;
      this.element.appendChild(this.counterNode);
      this.setCardNumber(this.settings.cardNumber || 0, this.settings.topCard);
    }

    getCardNumber() {
      return this.cardNumber;
    }

    /** ``n`` cards in the pile; ``topCard`` (optional) shown on top. */
    setCardNumber(n, topCard) {
      this.cardNumber = Math.max(0, Number(n) || 0);
      if (topCard) {
        if (!this.contains(topCard)) this.addCard(topCard, {}, {autoUpdateCardNumber: false});
      } else if (this.cardNumber === 0) {
        for (const c of this.getCards()) this.removeCard(c, {autoUpdateCardNumber: false});
      }
      this._layout();
    }

    addCard(card, animation, settings) {
      settings = settings || {};
      if (this.contains(card)) return super.addCard(card, animation, settings);
      const older = this.getCards();
      const done = super.addCard(card, animation, settings);
      // Only the top card is kept: the ones under it leave the page.
      for (const c of older) {
        const el = this.getCardElement(c);
        this.cards.splice(this._indexOf(c), 1);
        if (el) done.then(() => el.remove());
      }
      if (settings.autoUpdateCardNumber !== false && this.settings.autoUpdateCardNumber !== false) this.cardNumber += 1;
      this._layout();
      return done;
    }

    async removeCard(card, settings) {
      settings = settings || {};
      const removed = await super.removeCard(card, settings);
      if (removed && settings.autoUpdateCardNumber !== false && this.settings.autoUpdateCardNumber !== false) {
        this.cardNumber = Math.max(0, this.cardNumber - 1);
      }
      this._layout();
      return removed;
    }

    _place(el) {
      this.element.insertBefore(el, this.counterNode);
    }

    _layout() {
      if (!this.counterNode) return;
      // Cards not known here (face down, a count from the server): a back stands for them.
      const needsBack = this.cardNumber > 0 && this.cards.length === 0;
      if (needsBack && !this.backNode) {
        this.backNode = document.createElement("div");
        this.backNode.className = "arena-card arena-card-hidden arena-deck-back";
        const front = document.createElement("div");
        front.className = "arena-card-side arena-card-front";
        const back = document.createElement("div");
        back.className = "arena-card-side arena-card-back";
        this.backNode.append(front, back);
        const s = this.manager.settings;
        if (s.cardWidth) this.backNode.style.width = `${s.cardWidth}px`;
        if (s.cardHeight) this.backNode.style.height = `${s.cardHeight}px`;
        if (s.setupDiv) s.setupDiv({}, this.backNode);
        if (s.setupBackDiv) s.setupBackDiv({}, back);
        this.element.insertBefore(this.backNode, this.counterNode);
      } else if (!needsBack && this.backNode) {
        this.backNode.remove();
        this.backNode = null;
      }
      this.counterNode.textContent = String(this.cardNumber);
      this.element.dataset.empty = String(this.cardNumber === 0);
      this.element.style.setProperty("--arena-deck-thickness", `${Math.min(10, Math.ceil(this.cardNumber / 4))}px`);
    }
  }

  /** Where cards go to vanish (a discard, a player's panel): a card added slides onto
   * the element, then is removed. */
  class VoidStock extends CardStock {
    constructor(manager, element, settings) {
      super(manager, element, settings);
      this.element.classList.add("arena-void-stock");
    }

    async addCard(card, animation, settings) {
      const el = this.manager.getCardElement(card);
      const other = this.manager.getCardStock(card);
      if (other) other._forget(card);
      if (!el) return false;
      await this.manager.animationManager.slideOutAndDestroy(el, this.element, animation || {});
      return true;
    }
  }

  Object.assign(Arena, {CardManager, CardStock, LineStock, HandStock, SlotStock, Deck, VoidStock, sortCards});
  window.BgaCards = window.BgaCards || {Manager: CardManager, CardStock, LineStock, HandStock, SlotStock, Deck,
    VoidStock, sort: sortCards};
})();
