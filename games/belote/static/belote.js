/* Belote's client: the felt, the four seats (counter-clockwise from the player), the hand
 * drawn as SVG cards in three styles, bidding, the trick, announcements, the end-of-hand
 * summary, the score sheet with its chart, and the final ranking. */
(function () {
  "use strict";
  const esc = Arena.esc;

  const SUITS = ["S", "H", "D", "C"];
  const RANKS = ["7", "8", "9", "T", "J", "Q", "K", "A"];
  const TRUMP_ORDER = ["J", "9", "A", "T", "K", "Q", "8", "7"];
  const PLAIN_ORDER = ["A", "T", "K", "Q", "J", "9", "8", "7"];
  const POSITIONS = ["bottom", "right", "top", "left"]; // play goes counter-clockwise
  const SUIT_NAMES = {S: "spades", H: "hearts", D: "diamonds", C: "clubs"};
  const TEAM_COLORS = ["#2f6fb3", "#b8452f"];
  const PLAY_MS = 300; // a card's slide to the trick
  const DEAL_MS = 300; // a dealt card's slide to the hand
  const PREF_FACES = 100, PREF_SORT = 101; // options.py PREFERENCES
  const FACES_BY_VALUE = [null, "french", "german", "traditional"];

  // ------------------------------------------------------------------ card drawing
  const SUIT_PATHS = {
    H: '<path d="M50 90C22 68 4 50 4 31 4 15 16 4 30 4c9 0 16 5 20 13 4-8 11-13 20-13 14 0 26 11 26 27 0 19-18 37-46 59z"/>',
    D: '<path d="M50 2 88 50 50 98 12 50z"/>',
    S: '<path d="M50 3C44 20 5 38 5 60c0 14 11 23 24 23 8 0 14-4 18-9-1 10-5 18-13 23h32c-8-5-12-13-13-23 4 5 10 9 18 9 13 0 24-9 24-23C95 38 56 20 50 3z"/>',
    C: '<circle cx="50" cy="27" r="21"/><circle cx="26" cy="58" r="21"/><circle cx="74" cy="58" r="21"/>' +
       '<path d="M45 50c0 22-4 35-13 47h36c-9-12-13-25-13-47z"/>',
  };
  // German suits: leaves (for spades), hearts, bells (for diamonds), acorns (for clubs).
  const GERMAN_PATHS = {
    S: '<path d="M50 4C82 24 92 56 52 86 12 56 18 24 50 4z"/><path d="M50 84v14" stroke-width="6" fill="none"/>' +
       '<path d="M50 14v66M50 36 33 26M50 36l17-10M50 52 30 42M50 52l20-10M50 66 34 58M50 66l16-8" ' +
       'stroke="#e9f5e1" stroke-width="3" fill="none"/>',
    H: SUIT_PATHS.H,
    D: '<circle cx="50" cy="50" r="40"/><path d="M12 46h76v10H12z" fill="#8a5a12"/>' +
       '<circle cx="50" cy="74" r="7" fill="#5b3a0a"/><path d="M50 74v18" stroke="#5b3a0a" stroke-width="4"/>' +
       '<circle cx="36" cy="30" r="8" fill="#fff3c4" opacity=".7"/>',
    C: '<ellipse cx="50" cy="62" rx="24" ry="32"/><path d="M20 40c0-20 60-20 60 0 0 8-60 8-60 0z" fill="#5e3b16"/>' +
       '<path d="M26 34l48 0M30 28l40 0" stroke="#3c250d" stroke-width="2"/><path d="M50 20V4" stroke="#3c250d" stroke-width="5"/>' +
       '<ellipse cx="42" cy="60" rx="6" ry="12" fill="#e7c99a" opacity=".6"/>',
  };
  const STYLES = {
    french: {
      paper: "#ffffff", border: "#c9c9c9", font: "Liberation Sans, DejaVu Sans, Arial, sans-serif",
      colors: {S: "#1b1b1b", H: "#d01c1f", D: "#d01c1f", C: "#1b1b1b"}, paths: SUIT_PATHS,
      ranks: {"7": "7", "8": "8", "9": "9", T: "10", J: "J", Q: "Q", K: "K", A: "A"},
      court: ["#1f4fa0", "#d01c1f", "#f2c230"],
    },
    german: {
      paper: "#fbf6e6", border: "#8f7a4a", font: "DejaVu Serif, Liberation Serif, serif",
      colors: {S: "#2f7d32", H: "#c62828", D: "#d39a12", C: "#7a4a1a"}, paths: GERMAN_PATHS,
      ranks: {"7": "7", "8": "8", "9": "9", T: "10", J: "U", Q: "O", K: "K", A: "A"},
      court: ["#2f7d32", "#c62828", "#d39a12"],
    },
    traditional: {
      paper: "#f6edd6", border: "#6b5330", font: "DejaVu Serif, Liberation Serif, serif",
      colors: {S: "#111111", H: "#b3121c", D: "#b3121c", C: "#111111"}, paths: SUIT_PATHS,
      ranks: {"7": "7", "8": "8", "9": "9", T: "10", J: "V", Q: "D", K: "R", A: "1"},
      court: ["#23408e", "#b3121c", "#e0b12f"],
    },
  };
  // Pip positions (x, y in a 70 x 100 card; flipped when below the middle).
  const PIPS = {
    "7": [[20, 22], [50, 22], [20, 50], [50, 50], [20, 78], [50, 78], [35, 36]],
    "8": [[20, 22], [50, 22], [20, 50], [50, 50], [20, 78], [50, 78], [35, 36], [35, 64]],
    "9": [[20, 20], [50, 20], [20, 40], [50, 40], [20, 60], [50, 60], [20, 80], [50, 80], [35, 50]],
    T: [[20, 20], [50, 20], [20, 40], [50, 40], [20, 60], [50, 60], [20, 80], [50, 80], [35, 30], [35, 70]],
  };

  function suitIcon(suit, style, size) {
    const st = STYLES[style] || STYLES.french;
    const s = size || 16;
    return `<svg class="bt-suit-icon" viewBox="0 0 100 100" width="${s}" height="${s}" fill="${st.colors[suit]}" ` +
      `stroke="${st.colors[suit]}" aria-hidden="true">${st.paths[suit]}</svg>`;
  }

  function courtFigure(rank, suit, st) {
    const [c1, c2, c3] = st.court;
    const color = st.colors[suit];
    const hat = {
      K: `<path d="M23 30l4-12 6 8 2-10 2 10 6-8 4 12z" fill="${c3}" stroke="#6b4b12" stroke-width=".8"/>`,
      Q: `<path d="M24 30q11-14 22 0z" fill="${c3}" stroke="#6b4b12" stroke-width=".8"/>` +
         `<circle cx="35" cy="19" r="2.4" fill="${c2}"/>`,
      J: `<path d="M23 30q12-12 24 0l-2 2H25z" fill="${c2}"/><path d="M44 24l8-6" stroke="${c1}" stroke-width="2"/>`,
    }[rank];
    return `<g>
      <rect x="13" y="14" width="44" height="72" rx="4" fill="${st.paper}" stroke="${color}" stroke-width="1.2"/>
      <path d="M16 86V62q19-12 38 0v24z" fill="${c1}"/>
      <path d="M16 62q19-12 38 0l-4 8q-15-8-30 0z" fill="${c3}"/>
      <path d="M29 54h12l-2 8h-8z" fill="${c2}"/>
      <circle cx="35" cy="42" r="10" fill="#f6d7b6" stroke="#8a5a3c" stroke-width=".8"/>
      <circle cx="31.5" cy="41" r="1.1" fill="#333"/><circle cx="38.5" cy="41" r="1.1" fill="#333"/>
      <path d="M32 46q3 2 6 0" stroke="#933" stroke-width=".9" fill="none"/>
      ${rank === "K" ? `<path d="M29 47q6 9 12 0" fill="#8a5a3c" opacity=".8"/>` : ""}
      ${rank === "Q" ? `<path d="M25 42q-2-13 10-15 12 2 10 15l-3-8q-7-4-14 0z" fill="#b5772b"/>` : ""}
      <g transform="translate(0 2)">${hat}</g>
      <g transform="translate(41 64) scale(.13)" fill="${color}" stroke="${color}">${st.paths[suit]}</g>
    </g>`;
  }

  /** A card as an SVG string: ``code`` like "TS" (ten of spades), in ``style``. */
  function cardSVG(code, style) {
    const st = STYLES[style] || STYLES.french;
    const rank = code[0];
    const suit = code[1];
    const color = st.colors[suit];
    const label = st.ranks[rank];
    const index = (x, y, flip) =>
      `<g ${flip ? `transform="rotate(180 ${x} ${y})"` : ""}>` +
      `<text x="${x}" y="${y}" text-anchor="middle" font-family="${st.font}" font-weight="700" ` +
      `font-size="${label.length > 1 ? 11 : 13}" fill="${color}">${label}</text>` +
      `<g transform="translate(${x - 4.5} ${y + 3}) scale(.09)" fill="${color}" stroke="${color}">${st.paths[suit]}</g></g>`;
    let body = "";
    if (PIPS[rank]) {
      for (const [x, y] of PIPS[rank]) {
        const flip = y > 52;
        body += `<g transform="translate(${x - 7} ${y - 7}) scale(.14)">` +
          `<g ${flip ? 'transform="rotate(180 50 50)"' : ""} fill="${color}" stroke="${color}">${st.paths[suit]}</g></g>`;
      }
    } else if (rank === "A") {
      body = `<g transform="translate(17 32) scale(.36)" fill="${color}" stroke="${color}">${st.paths[suit]}</g>`;
      if (style === "traditional") {
        body += `<circle cx="35" cy="50" r="24" fill="none" stroke="${st.border}" stroke-width=".8" stroke-dasharray="2 2"/>`;
      }
    } else {
      body = courtFigure(rank, suit, st);
    }
    const frame = style === "traditional"
      ? `<rect x="3.5" y="3.5" width="63" height="93" rx="4" fill="none" stroke="${st.border}" stroke-width=".7"/>`
      : "";
    return `<svg class="bt-card-svg" viewBox="0 0 70 100" xmlns="http://www.w3.org/2000/svg" role="img" ` +
      `aria-label="${esc(code)}"><rect x=".5" y=".5" width="69" height="99" rx="6" fill="${st.paper}" ` +
      `stroke="${st.border}"/>${frame}${body}${index(8, 13, false)}${index(62, 87, true)}</svg>`;
  }

  function backSVG() {
    return `<svg class="bt-card-svg" viewBox="0 0 70 100" xmlns="http://www.w3.org/2000/svg" aria-hidden="true">
      <defs><pattern id="bt-lattice" width="8" height="8" patternUnits="userSpaceOnUse" patternTransform="rotate(45)">
      <rect width="8" height="8" fill="#1d3f7a"/><path d="M0 0h8M0 0v8" stroke="#6d8fd0" stroke-width="1.2"/></pattern></defs>
      <rect x=".5" y=".5" width="69" height="99" rx="6" fill="#fff" stroke="#9aa4b5"/>
      <rect x="4" y="4" width="62" height="92" rx="4" fill="url(#bt-lattice)"/>
      <rect x="4" y="4" width="62" height="92" rx="4" fill="none" stroke="#c9a23a" stroke-width="1.5"/>
      <circle cx="35" cy="50" r="11" fill="#1d3f7a" stroke="#c9a23a" stroke-width="1.5"/>
      <text x="35" y="54.5" text-anchor="middle" font-family="DejaVu Serif, serif" font-size="12" fill="#f3d27a">B</text>
    </svg>`;
  }

  // ------------------------------------------------------------------ the game
  class BeloteGui extends Arena.GameGui {
    constructor() {
      super();
      // playCard's pause is its card's slide to the trick (PLAY_MS), which holds the queue.
      this.notifDurations = {bid: 350, contract: 700, trickWin: 750, newDeal: 300,
        announce: 500, belote: 500};
      // The player's game preferences (options.py PREFERENCES), kept on the account.
      this.faces = FACES_BY_VALUE[this.getGameUserPreference(PREF_FACES)] || "french";
      this.sortMode = String(this.getGameUserPreference(PREF_SORT) || 1);
      this.replayMarks = ["newDeal"]; // a replay steps hand by hand from these
    }

    // ---------------------------------------------------------------- set-up
    setup(gd) {
      this.gd = gd;
      this.handCounts = Object.assign({}, gd.hand_counts || {});
      this.contract = gd.contract;
      this.dealer = gd.dealer;
      this.turned = gd.turned;
      this.sheet = (gd.score_sheet || []).slice();
      this.teamScores = (gd.team_scores || [0, 0]).slice();
      this.tricksWon = (gd.tricks_won || [0, 0]).slice();
      this.pendingScore = null;
      this.shown = (gd.shown_announcements || []).slice();
      this.mySeat = this.isSpectator ? 0 : gd.seats[String(this.player_id)];
      this.root = document.getElementById("bt-root");
      this.setupStocks();
      this.setFaces(this.faces, false);
      const facesSelect = document.getElementById("bt-faces");
      facesSelect.value = this.faces;
      facesSelect.addEventListener("change", () => this.setFaces(facesSelect.value, true));
      const sortSelect = document.getElementById("bt-sort");
      sortSelect.value = this.sortMode;
      sortSelect.addEventListener("change", () => {
        this.sortMode = sortSelect.value;
        this.keepPreference(PREF_SORT, Number(this.sortMode));
        this.resortHand();
      });
      document.getElementById("bt-show-last").addEventListener("click", () => {
        const last = this.sheet[this.sheet.length - 1];
        if (last) this.showSummary(last);
        else this.showMessage(_("No hand has been played yet"), "info");
      });
      for (const pid of gd.playerorder) this.renderSeat(pid);
      this.buildScores();
      this.renderContract();
      this.renderTurned();
      this.renderTrick(gd.trick || []);
      this.handStock.addCards((gd.hand || []).map(handCard));
      this.renderHand();
      this.renderSheet();
      const bidding = ["playerBid", "contreeWindow"].includes(gd.gamestate.name);
      if (bidding) for (const b of gd.bids || []) this.bubble(b.player_id, this.bidLabel(b.bid), false);
      for (const a of gd.announcements || []) this.addAnnouncementTag(a.player_id, a.name);
      for (const pid of gd.playerorder) this.decoratePanel(pid);
      if (gd.gamestate.name === "gameEnd") this.showFinal();
    }

    onReplayStart() {
      this.sheet = [];
      this.teamScores = [0, 0];
      this.handStock.removeAll();
      this.contract = null;
      this.turned = null;
      this.renderSheet();
      this.renderScores();
      this.renderHand();
      this.renderTrick([]);
      this.renderContract();
      this.renderTurned();
    }

    setFaces(style, save) {
      this.faces = STYLES[style] ? style : "french";
      if (save) this.keepPreference(PREF_FACES, FACES_BY_VALUE.indexOf(this.faces));
      this.root.classList.remove("faces-french", "faces-german", "faces-traditional");
      this.root.classList.add("faces-" + this.faces);
      if (this.gd) {
        for (const card of this.handStock.getCards().concat(this.trickStock.getCards())) {
          this.cardManager.updateCardInformations(card);
        }
        this.renderTurned();
        this.renderContract();
        if (this.sheet) this.renderSheet();
      }
    }

    async keepPreference(prefId, value) {
      try {
        await this.setGameUserPreference(prefId, value);
      } catch (err) {
        this.showMessage(err.message || String(err), "error");
      }
    }

    onGameUserPreferenceChanged(prefId, value) {
      if (prefId === PREF_FACES && FACES_BY_VALUE[value] && FACES_BY_VALUE[value] !== this.faces) {
        this.setFaces(FACES_BY_VALUE[value], false);
        const select = document.getElementById("bt-faces");
        if (select) select.value = this.faces;
      }
    }

    // ---------------------------------------------------------------- helpers
    pos(pid) {
      const seat = this.gd.seats[String(pid)];
      return POSITIONS[(seat - this.mySeat + 4) % 4];
    }
    team(pid) {
      return this.gd.teams[String(pid)];
    }
    teamPlayers(team) {
      return this.gd.playerorder.filter((pid) => this.team(pid) === team);
    }
    teamName(team) {
      return this.teamPlayers(team).map((pid) => esc(this.playerName(pid))).join(" &amp; ");
    }
    trumpLabel(trump) {
      if (trump === "all") return esc(_("All trumps"));
      if (trump === "none") return esc(_("No trumps"));
      return suitIcon(trump, this.faces, 18) + " " + esc(cap(_(SUIT_NAMES[trump])));  // i18n: dynamic (suit names are marked in material.py)
    }
    /** A contrée value as written: a number, or "Capot" (250) and "Générale" (500) by name. */
    amountLabel(amount) {
      if (amount === "capot" || amount === 250) return esc(_("Capot"));
      if (amount === "generale" || amount === 500) return esc(_("Générale"));
      return esc(String(amount));
    }

    bidLabel(code) {
      if (code === "pass") return esc(_("Pass"));
      if (code === "take") return esc(_("Take")) + (this.turned ? " " + suitIcon(this.turned[1], this.faces, 16) : "");
      if (code === "all") return esc(_("All trumps"));
      if (code === "none") return esc(_("No trumps"));
      if (code === "coinche") return esc(_("Coinche!"));
      if (code === "surcoinche") return esc(_("Surcoinche!"));
      if (code.startsWith("take:")) return this.trumpLabel(code.slice(5));
      const [amount, trump] = code.split(":");
      const value = this.amountLabel(amount);
      const t = trump === "all" ? esc(_("All trumps")) : trump === "none" ? esc(_("No trumps"))
        : suitIcon(trump, this.faces, 16);
      return `${value} ${t}`;
    }

    /** The order of the hand (a comparator of cards), from the contract and the sort chosen. */
    handOrder() {
      const trump = this.contract ? this.contract.trump : null;
      const mode = this.sortMode;
      let suitOrder = mode === "2" ? ["S", "H", "D", "C"] : ["S", "H", "C", "D"];
      if (mode === "1" && trump && SUITS.includes(trump)) {
        // Trumps first, then the others alternating colours.
        const red = (s) => s === "H" || s === "D";
        const rest = ["S", "H", "C", "D"].filter((s) => s !== trump);
        const ordered = [];
        let wantRed = !red(trump);
        while (rest.length) {
          const i = rest.findIndex((s) => red(s) === wantRed);
          ordered.push(rest.splice(i >= 0 ? i : 0, 1)[0]);
          wantRed = !wantRed;
        }
        suitOrder = [trump].concat(ordered);
      }
      const strength = (card) => {
        if (mode === "2") return RANKS.indexOf(card[0]);
        const trumpLike = trump === "all" || card[1] === trump;
        return -(trumpLike ? 10 - TRUMP_ORDER.indexOf(card[0]) : 10 - PLAIN_ORDER.indexOf(card[0]));
      };
      return (x, y) => {
        const a = x.code;
        const b = y.code;
        return suitOrder.indexOf(a[1]) - suitOrder.indexOf(b[1]) || strength(a) - strength(b);
      };
    }

    resortHand() {
      this.handStock.setSort(this.handOrder());
    }

    legalCards() {
      const st = this.gd.gamestate;
      if (st.name !== "playerTurn" || !this.isCurrentPlayerActive()) return null;
      const priv = (st.args && st.args._private) || {};
      return priv.legal_cards || this.gd.legal_cards || [];
    }

    // ---------------------------------------------------------------- rendering
    renderSeat(pid) {
      const pos = this.pos(pid);
      const node = document.getElementById(`bt-seat-${pos}`);
      const count = this.handCounts[String(pid)] || 0;
      const team = this.team(pid);
      node.dataset.player = pid;
      node.classList.toggle("bt-dealer", Number(pid) === Number(this.dealer));
      let backs = "";
      if (pos !== "bottom") {
        for (let i = 0; i < count; i++) backs += `<div class="bt-back">${backSVG()}</div>`;
      }
      node.innerHTML =
        `<div class="bt-nameplate" style="border-color:${TEAM_COLORS[team]}">` +
        `<span class="bt-name" style="color:#${esc(this.gd.players[String(pid)].color)}">${esc(this.playerName(pid))}</span>` +
        `<span class="bt-dealer-chip" title="${esc(_("Dealer"))}">D</span>` +
        `<span class="bt-team-dot" style="background:${TEAM_COLORS[team]}"></span></div>` +
        `<div class="bt-backs" data-count="${count}">${backs}</div>` +
        `<div class="bt-tags"></div><div class="bt-bubble" hidden></div>`;
      this.renderShown(pid);
      this.markActiveSeat();
    }

    /** The cards of ``pid``'s announcements that count, shown by its team during the second
     * trick (``this.shown``: the announcementsScore notification's, or the page data's). */
    renderShown(pid) {
      const node = document.getElementById(`bt-seat-${this.pos(pid)}`);
      if (!node) return;
      const old = node.querySelector(".bt-shown");
      if (old) old.remove();
      const mine = (this.shown || []).filter((a) => Number(a.player_id) === Number(pid));
      if (!mine.length) return;
      const box = document.createElement("div");
      box.className = "bt-shown";
      box.dataset.player = pid;
      box.innerHTML = mine.map((a) => `<div class="bt-shown-item"><span class="bt-shown-name">` +
        `${esc(_(a.name))} <small>${esc(a.points)}</small></span>` +  // i18n: dynamic (a msgid received from the server)
        `<span class="bt-shown-cards">${this.miniCards(a.cards)}</span></div>`).join("");
      node.appendChild(box);
    }

    miniCards(codes) {
      return (codes || []).map((code) =>
        `<span class="bt-mini-card" data-card="${esc(code)}">${cardSVG(code, this.faces)}</span>`).join("");
    }

    showAnnouncementCards(shown) {
      this.shown = (shown || []).slice();
      for (const pid of this.gd.playerorder) this.renderShown(pid);
    }

    markActiveSeat() {
      const active = this.getActivePlayers ? this.getActivePlayers().map(Number) : [];
      for (const node of document.querySelectorAll(".bt-seat")) {
        node.classList.toggle("bt-active", active.includes(Number(node.dataset.player)));
      }
    }

    decoratePanel(pid) {
      const panel = this.getPlayerPanelElement(pid);
      if (!panel) return;
      const team = this.team(pid);
      panel.innerHTML = `<span class="bt-panel-team" style="background:${TEAM_COLORS[team]}">` +
        `${esc(_("Team"))} ${team + 1}</span>` +
        (Number(pid) === Number(this.dealer) ? ` <span class="bt-panel-dealer">${esc(_("Dealer"))}</span>` : "");
    }

    /** The framework's card stocks: my hand (a fan, sorted), the trick (a slot per seat) and
     * each seat as the place a won trick goes to. A card keeps its element from the hand to
     * the trick, so it slides there. */
    setupStocks() {
      this.cardManager = new Arena.CardManager(this, {
        getId: (card) => `bt-card-${card.code}`,
        setupDiv: (card, div) => {
          div.classList.add("bt-card");
          div.classList.toggle("bt-in-hand", card.where === "hand");
          div.dataset.card = card.code;
          if (card.player_id !== undefined) div.dataset.player = card.player_id;
        },
        setupFrontDiv: (card, div) => { div.innerHTML = cardSVG(card.code, this.faces); },
        selectableCardClass: "bt-legal", unselectableCardClass: "bt-illegal", selectedCardClass: "bt-chosen",
      });
      this.handStock = new Arena.HandStock(this.cardManager, "bt-hand", {
        sort: this.handOrder(), inclination: 2.5, cardShift: 1.6, center: false,
      });
      this.handStock.onCardClick = (card) => {
        if (this.handStock.isSelectable(card)) this.playCard(card.code);
      };
      this.trickStock = new Arena.SlotStock(this.cardManager, "bt-trick", {
        mapCardToSlot: (card) => this.pos(card.player_id),
      });
      this.seatStocks = {};
      for (const pos of POSITIONS) {
        this.seatStocks[pos] = new Arena.VoidStock(this.cardManager, `bt-seat-${pos}`);
      }
    }

    /** The legal cards of my hand are the ones I may choose. */
    renderHand() {
      if (!this.gd || !this.handStock) return;
      const legal = this.legalCards();
      this.handStock.element.classList.toggle("bt-my-turn", legal !== null);
      if (legal === null) this.handStock.setSelectionMode("none");
      else this.handStock.setSelectionMode("single", legal.map((code) => ({code})));
    }

    renderTurned() {
      const node = document.getElementById("bt-turned");
      if (!node) return;
      const bidding = this.gd && ["playerBid", "contreeWindow", "nextBidder"].includes(this.gd.gamestate.name);
      if (this.turned && bidding && !this.contract) {
        node.hidden = false;
        node.innerHTML = `<div class="bt-card" data-card="${esc(this.turned)}">${cardSVG(this.turned, this.faces)}</div>` +
          `<div class="bt-turned-label">${esc(_("Turned up"))}</div>`;
      } else {
        node.hidden = true;
        node.innerHTML = "";
      }
    }

    renderContract() {
      const node = document.getElementById("bt-contract");
      if (!node) return;
      const c = this.contract;
      if (!c) {
        node.hidden = true;
        return;
      }
      node.hidden = false;
      const trump = c.trump === "all" ? `<span class="bt-big">${esc(_("All trumps"))}</span>`
        : c.trump === "none" ? `<span class="bt-big">${esc(_("No trumps"))}</span>`
          : suitIcon(c.trump, this.faces, 34);
      const value = c.value ? `<span class="bt-value">${this.amountLabel(c.value)}</span>` : "";
      const coinche = c.coinche === 2 ? `<span class="bt-coinche">×4</span>` : c.coinche === 1 ? `<span class="bt-coinche">×2</span>` : "";
      node.innerHTML = `<div class="bt-contract-title">${esc(_("Contract"))}</div>` +
        `<div class="bt-contract-main">${trump}${value}${coinche}</div>` +
        `<div class="bt-contract-taker" style="color:${TEAM_COLORS[this.team(c.taker)]}">` +
        `${esc(this.playerName(c.taker))}</div>`;
    }

    /** The teams' scores and tricks of the hand, as counters. */
    buildScores() {
      const node = document.getElementById("bt-scores");
      const length = this.gd.game_length || {};
      const goal = length.kind === "hands"
        ? esc(_("Game in ${n} hands").replace("${n}", length.amount))
        : esc(_("Game to ${n} points").replace("${n}", length.amount));
      node.innerHTML = `<div class="bt-goal">${goal}</div>` + [0, 1].map((team) =>
        `<div class="bt-team-score" data-team="${team}"><span class="bt-team-dot" style="background:${TEAM_COLORS[team]}"></span>` +
        `<span class="bt-team-names">${this.teamName(team)}</span><b id="bt-team-score-${team}"></b>` +
        `<small title="${esc(_("Tricks this hand"))}"><span id="bt-tricks-${team}"></span> ✓</small></div>`).join("");
      this.teamCounters = [0, 1].map((team) => new Arena.Counter(`bt-team-score-${team}`, {value: this.teamScores[team]}));
      this.trickCounters = [0, 1].map((team) => new Arena.Counter(`bt-tricks-${team}`, {value: this.tricksWon[team] || 0}));
    }

    renderScores() {
      if (!this.teamCounters) return;
      for (const team of [0, 1]) {
        this.teamCounters[team].toValue(this.teamScores[team]);
        this.trickCounters[team].toValue(this.tricksWon[team] || 0);
      }
    }

    renderTrick(trick) {
      this.trickStock.removeAll();
      for (const t of trick) this.trickStock.addCard({code: t.card, player_id: t.player_id, where: "trick"});
    }

    bubble(pid, html, timed) {
      const seat = document.getElementById(`bt-seat-${this.pos(pid)}`);
      if (!seat) return;
      const node = seat.querySelector(".bt-bubble");
      node.innerHTML = html;
      node.hidden = false;
      if (this._bubbleTimers === undefined) this._bubbleTimers = {};
      clearTimeout(this._bubbleTimers[pid]);
      if (timed) this._bubbleTimers[pid] = setTimeout(() => { node.hidden = true; }, 2600);
    }

    clearBubbles() {
      for (const node of document.querySelectorAll(".bt-bubble")) node.hidden = true;
    }

    addAnnouncementTag(pid, name) {
      const seat = document.getElementById(`bt-seat-${this.pos(pid)}`);
      if (!seat) return;
      const tag = document.createElement("span");
      tag.className = "bt-tag";
      tag.textContent = _(name);  // i18n: dynamic (a msgid received from the server)
      seat.querySelector(".bt-tags").appendChild(tag);
    }

    // ---------------------------------------------------------------- states
    onEnteringState(name, state) {
      this.markActiveSeat();
      if (name === "playerTurn") {
        this.clearBubblesOnce();
        this.renderHand();
      } else if (name === "playerBid" || name === "contreeWindow") {
        this.renderTurned();
      } else if (name === "gameEnd") {
        this.showFinal();
      }
    }

    clearBubblesOnce() {
      if (this._playStarted === this.gd.hand_no) return;
      this._playStarted = this.gd.hand_no;
      this.clearBubbles();
    }

    onLeavingState(name) {
      if (name === "playerTurn") {
        this.handStock.element.classList.remove("bt-my-turn");
        this.handStock.setSelectionMode("none");
      }
      if (name === "playerBid" || name === "contreeWindow") this.hideBidBox();
    }

    onUpdateActionButtons(name, args) {
      this.markActiveSeat();
      this.hideBidBox();
      if (!this.isCurrentPlayerActive()) return;
      if (name === "playerBid" || name === "contreeWindow") {
        const bids = args.legal_bids || [];
        const values = bids.filter((b) => /^(\d+|capot|generale):/.test(b));
        const others = bids.filter((b) => !values.includes(b));
        for (const code of others) {
          if (code === "pass") continue;
          const color = code === "coinche" || code === "surcoinche" ? "red" : "blue";
          this.addActionButton(`bt-bid-${code.replace(":", "-")}`, this.bidLabel(code), () => this.bid(code), color);
        }
        if (values.length) this.showBidBox(values);
        if (bids.includes("pass")) this.addActionButton("bt-bid-pass", this.bidLabel("pass"), () => this.bid("pass"), "gray");
      } else if (name === "playerTurn") {
        this.renderHand();
      }
    }

    showBidBox(values) {
      const box = document.getElementById("bt-bidbox");
      const amounts = [...new Set(values.map((v) => v.split(":")[0]))];
      const trumpsFor = (amount) => values.filter((v) => v.startsWith(amount + ":")).map((v) => v.split(":")[1]);
      let chosen = amounts[0];
      const draw = () => {
        box.innerHTML = `<div class="bt-bidbox-title">${esc(_("Your bid"))}</div><div class="bt-amounts">` +
          amounts.map((a) => `<button type="button" class="bt-amount${a === chosen ? " chosen" : ""}" data-amount="${a}">` +
            `${this.amountLabel(a)}</button>`).join("") + `</div><div class="bt-trumps">` +
          trumpsFor(chosen).map((t) => `<button type="button" class="bt-trump" data-bid="${chosen}:${t}">` +
            `${t === "all" ? esc(_("All trumps")) : t === "none" ? esc(_("No trumps")) : suitIcon(t, this.faces, 22)}</button>`).join("") +
          `</div>`;
      };
      draw();
      box.hidden = false;
      box.onclick = (ev) => {
        const amount = ev.target.closest("[data-amount]");
        if (amount) {
          chosen = amount.dataset.amount;
          draw();
          return;
        }
        const trump = ev.target.closest("[data-bid]");
        if (trump) this.bid(trump.dataset.bid);
      };
    }

    hideBidBox() {
      const box = document.getElementById("bt-bidbox");
      if (box) {
        box.hidden = true;
        box.innerHTML = "";
      }
    }

    async bid(code) {
      try {
        await this.performAction("bid", {bid: code});
      } catch (err) {
        /* shown by performAction */
      }
    }

    async playCard(code) {
      const legal = this.legalCards();
      if (!legal || !legal.includes(code)) return;
      try {
        await this.performAction("play_card", {card: code});
      } catch (err) {
        /* shown by performAction */
      }
    }

    // ---------------------------------------------------------------- notifications
    notif_newDeal(n) {
      this.gd.hand_no = n.args.hand_no;
      this.dealer = n.args.dealer;
      this.turned = n.args.turned;
      this.contract = null;
      this.handStock.removeAll();
      this.tricksWon = [0, 0];
      this.shown = [];
      const count = this.gd.rules && this.gd.rules.variant === "contree" ? 8 : 5;
      for (const pid of this.gd.playerorder) this.handCounts[String(pid)] = count;
      this.hideSummaryLater();
      for (const pid of this.gd.playerorder) {
        this.renderSeat(pid);
        this.decoratePanel(pid);
      }
      this.renderTrick([]);
      this.renderContract();
      this.renderTurned();
      this.resortHand();
      this.renderHand();
      this.renderScores();
    }

    /** My cards, dealt from the middle of the table. */
    notif_newHand(n) {
      const dealt = this.handStock.addCards(n.args.cards.map(handCard), {fromElement: "bt-center", duration: DEAL_MS}, {}, 30);
      this.renderHand();
      return dealt;
    }

    notif_extraCards(n) {
      const added = n.args.hand.filter((code) => !this.handStock.contains({code})).map(handCard);
      const dealt = this.handStock.addCards(added, {fromElement: "bt-center", duration: DEAL_MS}, {}, 30);
      this.renderHand();
      return dealt;
    }

    notif_bid(n) {
      this.bubble(n.args.player_id, this.bidLabel(n.args.bid), false);
    }

    notif_allPassed() {
      this.clearBubbles();
    }

    notif_contract(n) {
      this.contract = n.args.contract;
      this.gd.contract = this.contract;
      for (const pid of this.gd.playerorder) this.handCounts[String(pid)] = 8;
      for (const pid of this.gd.playerorder) {
        if (Number(pid) !== Number(this.player_id)) this.renderSeat(pid);
      }
      this.renderContract();
      this.renderTurned();
      this.resortHand();
      this.renderHand();
      this.bubble(this.contract.taker, this.trumpLabel(this.contract.trump), true);
    }

    /** The card slides to the trick: from my hand, or from the player's seat. */
    notif_playCard(n) {
      const pid = n.args.player_id;
      const card = {code: n.args.card, player_id: pid, where: "trick"};
      if (this.handStock.contains(card)) {
        return this.trickStock.addCard(card, {fromStock: this.handStock, duration: PLAY_MS});
      }
      this.handCounts[String(pid)] = Math.max(0, (this.handCounts[String(pid)] || 1) - 1);
      const backs = document.querySelector(`#bt-seat-${this.pos(pid)} .bt-backs`);
      const from = backs && backs.lastElementChild ? backs.lastElementChild.getBoundingClientRect() : null;
      if (backs && backs.lastElementChild) backs.lastElementChild.remove();
      const played = this.trickStock.addCard(card, from ? {} : {fromElement: `bt-seat-${this.pos(pid)}`, duration: PLAY_MS});
      const el = this.cardManager.getCardElement(card);
      return from ? this.cardManager.animationManager.moveFrom(el, from, {duration: PLAY_MS}) : played;
    }

    notif_belote(n) {
      const rebelote = (n.msgid || "").includes("Rebelote");
      this.bubble(n.args.player_id, esc(rebelote ? _("Rebelote!") : _("Belote!")), true);
    }

    notif_announcementsScore(n) {
      if (n.args.shown && n.args.shown.length) this.showAnnouncementCards(n.args.shown);
    }

    notif_announce(n) {
      this.bubble(n.args.player_id, esc(_(n.args.announcement_name)) + ` <small>${n.args.points}</small>`, true);  // i18n: dynamic (a msgid received from the server)
      this.addAnnouncementTag(n.args.player_id, n.args.announcement_name);
    }

    async notif_trickWin(n) {
      const winner = n.args.player_id;
      const team = this.team(winner);
      this.tricksWon[team] = (this.tricksWon[team] || 0) + 1;
      for (const card of this.trickStock.getCards()) {
        this.cardManager.getCardElement(card).classList.toggle("bt-winning", Number(card.player_id) === Number(winner));
      }
      await this.wait(550);
      // The trick goes to the winner's seat.
      const seat = this.seatStocks[this.pos(winner)];
      await Promise.all(this.trickStock.getCards().map((card) => seat.addCard(card, {duration: 350})));
      // The announcements shown after the first trick go back into their hands with the second.
      if (n.args.trick_no >= 2 && this.shown && this.shown.length) this.showAnnouncementCards([]);
      this.renderScores();
    }

    notif_handScore(n) {
      if (n.args.breakdown) {
        this.pendingScore = {breakdown: n.args.breakdown, totals: [n.args.total, null]};
        return;
      }
      if (!this.pendingScore) return;
      const b = this.pendingScore.breakdown;
      this.pendingScore.totals[1] = n.args.total;
      const line = {
        hand: this.gd.hand_no, taker: this.contract ? this.contract.taker : null, contract: this.contract,
        outcome: b.outcome, points: b.hand_score, totals: this.pendingScore.totals, breakdown: b,
      };
      this.pendingScore = null;
      this.sheet.push(line);
      this.teamScores = line.totals.slice();
      this.renderSheet();
      this.renderScores();
      if (!this.replaying) this.showSummary(line);
    }

    notif_newScores(n) {
      for (const [pid, score] of Object.entries(n.args.scores || {})) this.setPlayerScore(pid, score);
    }

    notif_gameResult() {
      this.showFinal();
    }

    // ---------------------------------------------------------------- summaries
    showSummary(line) {
      const b = line.breakdown || {};
      const node = document.getElementById("bt-summary");
      const outcome = {made: _("Contract made"), failed: _("Contract failed"), contention: _("Contention")}[line.outcome] ||
        line.outcome;
      const c = line.contract || {};
      const taker = c.taker !== undefined && c.taker !== null ? esc(this.playerName(c.taker)) : "";
      const contractText = c.trump ? (c.value ? this.amountLabel(c.value) + " " : "") +
        this.trumpLabel(c.trump) + (c.coinche ? ` ×${c.coinche === 2 ? 4 : 2}` : "") : "";
      const row = (label, key, fmt) => `<tr><th>${esc(label)}</th>${[0, 1].map((t) =>
        `<td>${fmt ? fmt(b[key] ? b[key][t] : 0, t) : (b[key] ? b[key][t] : 0)}</td>`).join("")}</tr>`;
      const belote = (v, t) => v ? `${v} <small>${esc(_("belote"))}</small>` : "0";
      node.innerHTML = `<div class="bt-panel bt-summary-panel">
        <h2 class="bt-outcome bt-outcome-${esc(line.outcome)}">${esc(outcome)}</h2>
        <p class="bt-summary-contract">${esc(_("Hand"))} ${esc(line.hand)} · ${taker} · ${contractText}</p>
        <table class="bt-summary-table">
          <tr><th></th>${[0, 1].map((t) => `<th style="color:${TEAM_COLORS[t]}">${this.teamName(t)}</th>`).join("")}</tr>
          ${row(_("Card points"), "card_points")}
          ${row(_("of which dix de der"), "dix_de_der")}
          ${b.scored_cards ? `<tr class="bt-written"><th colspan="3">${esc(_("Written this hand"))}</th></tr>` +
            row(_("Card points"), "scored_cards") + row(_("Contract"), "scored_contract") +
            row(_("Belote"), "scored_belote", belote) + row(_("Announcements"), "scored_announcements")
            : row(_("Belote"), "belote", belote) + row(_("Announcements"), "announcements")}
          ${b.carried_awarded && (b.carried_awarded[0] || b.carried_awarded[1]) ? row(_("Carried from the last hand"), "carried_awarded") : ""}
          ${b.multiplier && b.multiplier > 1 ? `<tr><th>${esc(_("Multiplier"))}</th><td colspan="2">×${b.multiplier}</td></tr>` : ""}
          <tr class="bt-hand-score"><th>${esc(_("Hand score"))}</th>${[0, 1].map((t) => `<td>${line.points[t]}</td>`).join("")}</tr>
          <tr class="bt-total"><th>${esc(_("Total"))}</th>${[0, 1].map((t) => `<td>${line.totals[t]}</td>`).join("")}</tr>
        </table>
        ${this.shownSummary(b.shown)}
        ${b.carry_out ? `<p class="bt-carry">${esc(_("Held for the next hand"))}: ${b.carry_out}</p>` : ""}
        ${b.capot ? `<p class="bt-capot">${esc(_("Capot!"))}</p>` : ""}
        <button type="button" class="action-button blue" id="bt-summary-close">${esc(_("Continue"))}</button>
      </div>`;
      node.hidden = false;
      node.querySelector("#bt-summary-close").addEventListener("click", () => { node.hidden = true; });
    }

    /** The announcements that counted, with their cards, for the end-of-hand summary. */
    shownSummary(shown) {
      if (!shown || !shown.length) return "";
      return `<div class="bt-summary-shown"><h3>${esc(_("Announcements shown"))}</h3><ul>` +
        shown.map((a) => `<li data-player="${esc(a.player_id)}"><b>${esc(this.playerName(a.player_id))}</b> · ` +
          `${esc(_(a.name))} <small>${esc(a.points)}</small> ` +  // i18n: dynamic (a msgid received from the server)
          `<span class="bt-shown-cards">${this.miniCards(a.cards)}</span></li>`).join("") + `</ul></div>`;
    }

    hideSummaryLater() {
      /* The summary stays up until the player closes it, even while the next hand is dealt. */
    }

    showFinal() {
      const node = document.getElementById("bt-final");
      if (!node) return;
      document.getElementById("bt-summary").hidden = true;
      const scores = this.teamScores;
      const winner = scores[0] === scores[1] ? null : scores[0] > scores[1] ? 0 : 1;
      const order = winner === 1 ? [1, 0] : [0, 1];
      node.innerHTML = `<div class="bt-panel bt-final-panel"><h2>${esc(_("End of the game"))}</h2><ol class="bt-ranking">` +
        order.map((t, i) => `<li class="${i === 0 && winner !== null ? "bt-winner" : ""}">` +
          `<span class="bt-rank">${i + 1}</span><span class="bt-team-dot" style="background:${TEAM_COLORS[t]}"></span>` +
          `<span>${this.teamName(t)}</span><b>${scores[t]}</b></li>`).join("") +
        `</ol><button type="button" class="action-button gray" id="bt-final-close">${esc(_("See the table"))}</button></div>`;
      node.hidden = false;
      node.querySelector("#bt-final-close").addEventListener("click", () => { node.hidden = true; });
    }

    renderSheet() {
      const tableNode = document.getElementById("bt-sheet-table");
      const chartNode = document.getElementById("bt-chart");
      if (!tableNode) return;
      if (!this.sheet.length) {
        tableNode.innerHTML = `<p class="bt-muted">${esc(_("No hand has been played yet"))}</p>`;
        chartNode.innerHTML = "";
        return;
      }
      const outcome = {made: _("made"), failed: _("failed"), contention: _("contention")};
      tableNode.innerHTML = `<table class="bt-sheet-table"><tr><th>#</th><th>${esc(_("Contract"))}</th>` +
        `<th>${esc(_("Taker"))}</th><th></th>` +
        [0, 1].map((t) => `<th style="color:${TEAM_COLORS[t]}">${this.teamName(t)}</th>`).join("") + `</tr>` +
        this.sheet.map((l, row) => {
          const c = l.contract || {};
          const name = c.trump ? (c.value ? this.amountLabel(c.value) + " " : "") + this.trumpLabel(c.trump) +
            (c.coinche ? ` ×${c.coinche === 2 ? 4 : 2}` : "") : "";
          return `<tr><td title="${esc(_("Deal"))} ${esc(l.hand)}">${row + 1}</td><td>${name}</td><td>${l.taker !== null && l.taker !== undefined ? esc(this.playerName(l.taker)) : ""}</td>` +
            `<td class="bt-outcome-${esc(l.outcome)}">${esc(outcome[l.outcome] || l.outcome)}</td>` +
            [0, 1].map((t) => `<td>+${l.points[t]} <b>${l.totals[t]}</b></td>`).join("") + `</tr>`;
        }).join("") + `</table>`;
      chartNode.innerHTML = this.chartSVG();
    }

    chartSVG() {
      const W = 360, H = 170, pad = 28;
      const totals = [[0, 0]].concat(this.sheet.map((l) => l.totals));
      const length = this.gd.game_length || {};
      const target = length.kind === "points" ? length.amount : 0;
      const top = Math.max(target, ...totals.map((t) => Math.max(t[0], t[1])), 10);
      const x = (i) => pad + i * (W - 2 * pad) / Math.max(1, totals.length - 1);
      const y = (v) => H - pad - v * (H - 2 * pad) / top;
      const lines = [0, 1].map((team) => {
        const pts = totals.map((t, i) => `${x(i).toFixed(1)},${y(t[team]).toFixed(1)}`).join(" ");
        const dots = totals.map((t, i) => `<circle cx="${x(i).toFixed(1)}" cy="${y(t[team]).toFixed(1)}" r="3" fill="${TEAM_COLORS[team]}"/>`).join("");
        return `<polyline points="${pts}" fill="none" stroke="${TEAM_COLORS[team]}" stroke-width="2.5"/>${dots}`;
      }).join("");
      const goal = target ? `<line x1="${pad}" x2="${W - pad}" y1="${y(target)}" y2="${y(target)}" stroke="#c9a23a" stroke-dasharray="5 4"/>` +
        `<text x="${W - pad}" y="${y(target) - 4}" text-anchor="end" font-size="10" fill="#8a6d1c">${target}</text>` : "";
      return `<svg class="bt-chart-svg" viewBox="0 0 ${W} ${H}" width="${W}" height="${H}" role="img" aria-label="${esc(_("Running totals"))}">` +
        `<rect x="0" y="0" width="${W}" height="${H}" rx="8" fill="#fffdf7" stroke="#e2dbc8"/>` +
        `<line x1="${pad}" y1="${H - pad}" x2="${W - pad}" y2="${H - pad}" stroke="#bbb"/>` +
        `<line x1="${pad}" y1="${pad}" x2="${pad}" y2="${H - pad}" stroke="#bbb"/>` +
        `<text x="${pad - 4}" y="${pad + 4}" text-anchor="end" font-size="10" fill="#777">${top}</text>` +
        `<text x="${pad - 4}" y="${H - pad + 4}" text-anchor="end" font-size="10" fill="#777">0</text>` +
        totals.map((t, i) => i ? `<text x="${x(i)}" y="${H - pad + 14}" text-anchor="middle" font-size="10" fill="#777">${i}</text>` : "").join("") +
        goal + lines + `</svg>`;
    }
  }

  /** A card of my hand, as the stocks hold it. */
  function handCard(code) {
    return {code, where: "hand"};
  }

  function cap(text) {
    text = String(text);
    return text.charAt(0).toUpperCase() + text.slice(1);
  }

  // The framework's last-trick box (lasttrick.js) draws each card with the player's faces.
  BeloteGui.prototype.formatLastTrickCard = function (code) {
    return cardSVG(code, this.faces);
  };

  BeloteGui.cardSVG = cardSVG;
  Arena.defineGame("belote", BeloteGui);
  // Strings for the extractor: _("Dealer") _("Team")
})();
