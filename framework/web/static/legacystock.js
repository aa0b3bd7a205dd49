/* BGA's classic ``ebg.stock`` (sprite images, items sorted by weight), for games ported
 * from it, drawn by a LineStock. New code uses the stocks of stock.js directly.
 *
 *   const hand = new ebg.stock();
 *   hand.create(this, $("myhand"), 72, 96);
 *   hand.image_items_per_row = 13;
 *   hand.addItemType(type, weight, g_gamethemeurl + "img/cards.jpg", imagePosition);
 *   hand.addToStockWithId(type, cardId, "player_board_7");   // slides from there
 *   hand.setSelectionMode(1);                                 // 0 none, 1 single, 2 multiple
 *   hand.onChangeSelection = (controlName, itemId) => { ... hand.getSelectedItems() ... };
 */
(function () {
  "use strict";
  const Arena = window.Arena;

  const MODES = {0: "none", 1: "single", 2: "multiple"};

  class Stock {
    constructor() {
      this.itemTypes = {};
      this.image_items_per_row = 1;
      this.item_margin = 5;
      this.items = [];
      this.onChangeSelection = null; // (controlName, itemId) => ...
      this.onItemCreate = null;      // (div, type, id) => ...
    }

    /** Draw the stock in ``container`` (an element or its id); items are w x h px. */
    create(game, container, itemWidth, itemHeight) {
      this.game = game;
      this.container = Arena.$(container);
      if (!this.container) throw new Error("stock.create: no element " + container);
      this.item_width = itemWidth;
      this.item_height = itemHeight;
      const name = this.container.id;
      this.manager = new Arena.CardManager(game, {
        getId: (item) => `${name}_item_${item.id}`,
        setupDiv: (item, div) => this._drawItem(item, div),
        selectableCardClass: "stockitem_selectable", unselectableCardClass: "stockitem_unselectable",
        selectedCardClass: "stockitem_selected",
      });
      this.line = new Arena.LineStock(this.manager, this.container, {
        center: false, gap: `${this.item_margin}px`, sort: (a, b) => this._weight(a) - this._weight(b) || a.id - b.id,
      });
      this.line.onSelectionChange = (selection, last) => {
        if (this.onChangeSelection) this.onChangeSelection(name, last ? last.id : undefined);
      };
      return this;
    }

    addItemType(type, weight, image, imagePosition) {
      this.itemTypes[type] = {weight: Number(weight) || 0, image, position: Number(imagePosition) || 0};
    }

    changeItemsWeight(weights) {
      for (const [type, weight] of Object.entries(weights)) {
        if (this.itemTypes[type]) this.itemTypes[type].weight = Number(weight) || 0;
      }
      this.line.setSort(this.line.sort);
    }

    /** Add an item; ``from`` (an element or id) is where it slides from. */
    addToStockWithId(type, id, from) {
      return this.line.addCard({type, id: this._id(id)}, from ? {fromElement: Arena.$(from)} : {});
    }

    addToStock(type, from) {
      this._nextId = (this._nextId || 0) + 1;
      return this.addToStockWithId(type, `auto${this._nextId}`, from);
    }

    /** Remove an item; ``to`` (an element or id) is where it slides to first. */
    removeFromStockById(id, to) {
      const item = this.getItemById(id);
      if (!item) return Promise.resolve(false);
      return this.line.removeCard(item, to ? {slideTo: Arena.$(to)} : {});
    }

    removeFromStock(type, to) {
      const item = this.line.getCards().find((i) => String(i.type) === String(type));
      return item ? this.removeFromStockById(item.id, to) : Promise.resolve(false);
    }

    removeAll() {
      return this.line.removeAll();
    }

    removeAllTo(to) {
      return this.line.removeAll({slideTo: Arena.$(to)});
    }

    getAllItems() {
      return this.line.getCards().map((i) => ({type: i.type, id: i.id}));
    }

    getItemById(id) {
      return this.line.getCards().find((i) => String(i.id) === String(id)) || null;
    }

    getItemDivId(id) {
      return `${this.container.id}_item_${id}`;
    }

    count() {
      return this.line.getCards().length;
    }

    /** 0: no selection, 1: one item, 2: several. */
    setSelectionMode(mode) {
      this.line.setSelectionMode(MODES[mode] || "none");
    }

    setSelectionAppearance(kind) {
      this.container.dataset.selectionAppearance = kind;
    }

    getSelectedItems() {
      return this.line.getSelection().map((i) => ({type: i.type, id: i.id}));
    }

    isSelected(id) {
      const item = this.getItemById(id);
      return !!item && this.line.isSelected(item);
    }

    selectItem(id) {
      const item = this.getItemById(id);
      if (item) this.line.selectCard(item);
    }

    unselectItem(id) {
      const item = this.getItemById(id);
      if (item) this.line.unselectCard(item);
    }

    unselectAll() {
      this.line.unselectAll(true);
    }

    /** Items overlap by ``horizontal`` percent of their width (BGA's ``setOverlap``). */
    setOverlap(horizontal) {
      this.overlap = Number(horizontal) || 0;
      for (const item of this.line.getCards()) this._drawItem(item, this.manager.getCardElement(item));
    }

    updateDisplay() {
      /* the stock is laid out by CSS: nothing to compute */
    }

    _id(id) {
      const n = Number(id);
      return Number.isNaN(n) ? String(id) : n;
    }

    _weight(item) {
      return (this.itemTypes[item.type] || {weight: 0}).weight;
    }

    _drawItem(item, div) {
      if (!div) return;
      const type = this.itemTypes[item.type];
      div.classList.add("stockitem");
      div.style.width = `${this.item_width}px`;
      div.style.height = `${this.item_height}px`;
      div.dataset.type = item.type;
      if (this.overlap) div.style.marginRight = `-${(this.item_width * this.overlap) / 100}px`;
      if (type && type.image) {
        const perRow = Math.max(1, Number(this.image_items_per_row) || 1);
        const x = (type.position % perRow) * this.item_width;
        const y = Math.floor(type.position / perRow) * this.item_height;
        div.style.backgroundImage = `url("${type.image}")`;
        div.style.backgroundPosition = `-${x}px -${y}px`;
      }
      if (this.onItemCreate && !div.dataset.created) {
        div.dataset.created = "1";
        this.onItemCreate(div, item.type, div.id);
      }
    }
  }

  Arena.Stock = Stock;
  window.ebg = window.ebg || {};
  window.ebg.stock = window.ebg.stock || Stock;
})();
