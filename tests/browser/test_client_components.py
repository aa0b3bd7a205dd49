"""The client framework's components, each in a bare page of Chromium that loads the
framework's files: stocks (selection, sorting, moves, deck, void), counters, templates, the
status bar and its question, animations and their Promises."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Browser, Page

from framework.web.play import FRAMEWORK_SCRIPTS


@pytest.fixture()
def page(chromium: Browser, live: dict[str, Any]) -> Iterator[Page]:
    """A page with the table page's framework elements, the framework loaded, and a game."""
    context = chromium.new_context()
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    scripts = "".join(f'<script src="{live["url"]}/static/arena/{name}"></script>' for name in FRAMEWORK_SCRIPTS)
    page.set_content(
        f'<link rel="stylesheet" href="{live["url"]}/static/arena/arena.css">'
        '<div id="pagemaintitletext"></div><div id="generalactions"></div><div id="message-area"></div>'
        '<div id="game_play_area"><div id="a" style="width:400px"></div><div id="b"></div>'
        '<div id="deck" style="width:50px;height:70px"></div><div id="void"></div>'
        '<template id="jstpl_t"><div class="t" data-x="${x}">${label}</div></template></div>'
        f"{scripts}"
        "<script>window.gui = new Arena.GameGui(); Arena.gui = gui;"
        "gui.gamedatas = {players: {'1': {name: 'Ann', color: 'ff0000'}}, playerorder: [1],"
        "  gamestate: {id: 2, name: 'turn', type: 'activeplayer', active_player: 1, args: {}},"
        "  gamestates: {'2': {possibleactions: ['draw', 'bank'], descriptionmyturn: '${you} must play'}}};"
        "gui.player_id = 1; gui.isSpectator = false;</script>"
    )
    page.wait_for_function("() => window.gui && window.BgaCards")
    yield page
    assert not errors
    context.close()


def test_stock_selection_modes_and_click(page: Page) -> None:
    result = page.evaluate("""async () => {
        const m = new Arena.CardManager(gui, {setupFrontDiv: (c, d) => { d.textContent = c.v; }});
        const s = new Arena.LineStock(m, "a");
        await s.addCards([{id: 1, v: 5}, {id: 2, v: 3}, {id: 3, v: 9}]);
        const changes = [];
        s.onSelectionChange = (sel, last) => changes.push([sel.map(c => c.id), last && last.id]);
        const classes = () => s.getCards().map(c => m.getCardElement(c).className.replace("arena-card", "").trim());
        const none = classes();
        document.getElementById("card-1").click();           // mode none: nothing is chosen
        const afterNone = s.getSelection().length;
        s.setSelectionMode("single", [{id: 1}, {id: 3}]);
        const single = classes();
        document.getElementById("card-1").click();
        document.getElementById("card-3").click();           // single: the new one replaces it
        document.getElementById("card-2").click();           // not selectable: ignored
        const singleSel = s.getSelection().map(c => c.id);
        s.setSelectionMode("multiple");
        document.getElementById("card-1").click();
        document.getElementById("card-2").click();
        const multi = s.getSelection().map(c => c.id).sort();
        document.getElementById("card-2").click();           // a second click unselects
        const unselected = s.getSelection().map(c => c.id);
        let bad = null;
        try { s.setSelectionMode("some"); } catch (e) { bad = e.message; }
        return {none, afterNone, single, singleSel, multi, unselected, changes, bad,
                tab: document.getElementById("card-2").tabIndex};
    }""")
    assert result["none"] == ["", "", ""] and result["afterNone"] == 0
    assert result["single"] == ["arena-card-selectable", "arena-card-unselectable", "arena-card-selectable"]
    assert result["singleSel"] == [3]
    assert result["multi"] == [1, 2, 3] and result["unselected"] == [1, 3]
    assert result["changes"][:2] == [[[1], 1], [[3], 3]]
    assert "none, single or multiple" in result["bad"]
    assert result["tab"] == 0  # selectable cards take the keyboard's focus


def test_stock_sorting_and_moving_between_stocks(page: Page) -> None:
    result = page.evaluate("""async () => {
        const m = new Arena.CardManager(gui, {});
        const a = new Arena.HandStock(m, "a", {sort: Arena.sortCards("suit", "-rank")});
        const b = new Arena.LineStock(m, "b");
        await a.addCards([{id: 1, suit: "H", rank: 2}, {id: 2, suit: "C", rank: 7}, {id: 3, suit: "H", rank: 9}]);
        const order = () => [...document.querySelectorAll("#a .arena-card")].map(n => n.id);
        const sorted = order();
        const fanned = document.getElementById("card-1").style.transform;
        const element = document.getElementById("card-3");
        const moved = await b.addCard({id: 3, suit: "H", rank: 9}, {fromStock: a});
        const same = document.getElementById("card-3") === element;   // one card, one element
        const again = await b.addCard({id: 3, suit: "H", rank: 9});
        await a.setSort(Arena.sortCards("-rank"));
        return {sorted, fanned, moved, same, again, inB: element.parentNode.id, left: order(),
                aCards: a.getCards().map(c => c.id), bCards: b.getCards().map(c => c.id),
                owner: m.getCardStock({id: 3}) === b, released: element.style.transform};
    }""")
    assert result["sorted"] == ["card-2", "card-3", "card-1"]  # clubs, then hearts high to low
    assert "rotate(" in result["fanned"]
    assert result["moved"] is True and result["same"] and result["again"] is False
    assert result["inB"] == "b" and result["owner"] and result["released"] == ""
    assert result["left"] == ["card-2", "card-1"] and result["aCards"] == [2, 1] and result["bCards"] == [3]


def test_deck_void_and_hidden_faces(page: Page) -> None:
    result = page.evaluate("""async () => {
        const m = new Arena.CardManager(gui, {
            setupFrontDiv: (c, d) => { d.textContent = "face " + c.v; },
            setupBackDiv: (c, d) => d.classList.add("back"),
            isCardVisible: (c) => c.v !== undefined,
        });
        const deck = new Arena.Deck(m, "deck", {cardNumber: 3});
        const counted = [deck.getCardNumber(), document.querySelector("#deck .arena-deck-counter").textContent,
                         !!document.querySelector("#deck .arena-deck-back .back")];
        await deck.addCard({id: 7});                           // face down: its face is empty
        const hidden = [document.getElementById("card-7").dataset.side,
                        document.querySelector("#card-7 .arena-card-front").textContent, deck.getCardNumber()];
        await deck.addCard({id: 8, v: 4});                     // the new top card: the last one leaves
        const top = [document.querySelectorAll("#deck .arena-card:not(.arena-deck-back)").length,
                     document.getElementById("card-7"), document.querySelector("#card-8 .arena-card-front").textContent];
        const v = new Arena.VoidStock(m, "void");
        const gone = await v.addCard({id: 8, v: 4});
        deck.setCardNumber(0);
        return {counted, hidden, top, gone, after: document.getElementById("card-8"),
                empty: document.getElementById("deck").dataset.empty};
    }""")
    assert result["counted"] == [3, "3", True]
    assert result["hidden"] == ["back", "", 4]
    assert result["top"] == [1, None, "face 4"]
    assert result["gone"] is True and result["after"] is None and result["empty"] == "true"


def test_counters(page: Page) -> None:
    result = page.evaluate("""async () => {
        const c = new Arena.Counter("b", {value: 2});
        c.toValue(12);
        const at = [c.getValue(), document.getElementById("b").dataset.value];
        await Arena.sleep(1500);
        const counted = document.getElementById("b").textContent;
        c.incValue(-5);
        c.setValue(3);
        const set = [c.getValue(), document.getElementById("b").textContent];
        c.disable();
        const legacy = new ebg.counter();  // BGA's way
        legacy.create("a");
        return {at, counted, set, disabled: document.getElementById("b").textContent, legacy: legacy.getValue()};
    }""")
    assert result["at"] == [12, "12"] and result["counted"] == "12"
    assert result["set"] == [3, "3"] and result["disabled"] == "-" and result["legacy"] == 0


def test_templates_escape_and_place(page: Page) -> None:
    result = page.evaluate("""() => {
        const html = gui.format_block("jstpl_t", {x: '"><img src=x>', label: Arena.html("<b>bold</b>")});
        const node = Arena.place(html, "b", "first");
        const before = Arena.place("<i id='i1'>x</i>", node, "before");
        let missing = null;
        try { gui.format_block("jstpl_nope", {}); } catch (e) { missing = e.message; }
        return {x: node.dataset.x, bold: node.querySelector("b").textContent, imgs: document.querySelectorAll("img").length,
                first: document.getElementById("b").firstElementChild.id, missing};
    }""")
    assert result["x"] == '"><img src=x>' and result["imgs"] == 0  # escaped, not markup
    assert result["bold"] == "bold" and result["first"] == "i1"
    assert "jstpl_nope" in result["missing"]


def test_status_bar_buttons_confirm_and_possible_actions(page: Page) -> None:
    page.evaluate("""() => {
        window.sent = [];
        gui.bgaPerformAction = (action, args) => { sent.push(action); return Promise.resolve(); };
        gui.statusBar.addPossibleActionButtons({draw: "Draw <now>"}, {colors: {bank: "secondary"}});
        gui.statusBar.addActionButton("Give up", () => sent.push("gaveUp"), {id: "quit", color: "alert",
                                                                           confirm: "Really?"});
        gui.statusBar.addActionButton("Off", () => sent.push("off"), {id: "off", disabled: true});
        gui.addActionButton("legacy", "<b>Old</b>", () => sent.push("legacy"), "red");
    }""")
    assert page.locator("#action_draw").inner_text() == "Draw <now>"  # a label is text
    assert page.locator("#action_bank").get_attribute("class") == "action-button bgabutton gray"
    assert page.locator("#legacy b").inner_text() == "Old"
    page.click("#action_draw")
    page.click("#action_bank")
    page.click("#legacy")
    page.click("#off", force=True)
    page.click("#quit")
    page.click(".arena-dialog [data-answer=no]")
    page.click("#quit")
    page.click(".arena-dialog [data-answer=yes]")
    assert page.evaluate("sent") == ["draw", "bank", "legacy", "gaveUp"]
    page.evaluate("gui.statusBar.setTitle('${you} must play'); gui.setClientState('pick', "
                  "{descriptionmyturn: '${you} pick a card', possibleactions: ['bank']})")
    assert page.evaluate("gui.possibleActions()") == ["bank"] and page.evaluate("gui.on_client_state")
    page.evaluate("gui.restoreServerGameState()")
    assert page.evaluate("gui.possibleActions()") == ["draw", "bank"]
    assert page.locator("#pagemaintitletext").inner_text() == "You must play"


def test_animations_resolve_and_leave_things_where_they_say(page: Page) -> None:
    result = page.evaluate("""async () => {
        const el = Arena.place("<div id='m' style='width:20px;height:20px'></div>", "a");
        const anim = gui.slideToObject("m", "deck", 200);
        const played = anim.play() === anim;
        await anim;
        const box = document.getElementById("m").getBoundingClientRect();
        const deck = document.getElementById("deck").getBoundingClientRect();
        const centred = Math.abs((box.left + box.width / 2) - (deck.left + deck.width / 2)) < 1.5;
        await gui.slideTemporaryObject("<div class='tmp'>t</div>", "b", "a", "deck", 100);
        await gui.fadeOutAndDestroy("m", 100);
        const moved = Arena.place("<div id='n'>n</div>", "a");
        await Arena.animations.slideAndAttach(moved, "b");
        return {played, centred, tmp: document.querySelectorAll(".tmp").length, m: document.getElementById("m"),
                n: document.getElementById("n").parentNode.id};
    }""")
    assert result == {"played": True, "centred": True, "tmp": 0, "m": None, "n": "b"}


def test_the_classic_ebg_stock(page: Page) -> None:
    result = page.evaluate("""async () => {
        const hand = new ebg.stock();
        hand.create(gui, $("a"), 30, 40);
        hand.image_items_per_row = 4;
        for (const t of [1, 2, 3]) hand.addItemType(t, 10 - t, "cards.png", t + 4);
        const changes = [];
        hand.onChangeSelection = (name, id) => changes.push([name, id]);
        await hand.addToStockWithId(1, 11);
        await hand.addToStockWithId(3, 13, "b");
        await hand.addToStockWithId(2, 12);
        const order = [...document.querySelectorAll("#a .stockitem")].map(n => n.id);
        const sprite = document.getElementById("a_item_13").style.backgroundPosition;
        hand.setSelectionMode(1);
        document.getElementById("a_item_12").click();
        document.getElementById("a_item_11").click();
        const selected = hand.getSelectedItems();
        await hand.removeFromStockById(11, "b");
        hand.changeItemsWeight({3: 100});
        return {order, sprite, selected, changes, count: hand.count(), items: hand.getAllItems(),
                gone: document.getElementById("a_item_11")};
    }""")
    assert result["order"] == ["a_item_13", "a_item_12", "a_item_11"]  # by weight: 7, 8, 9
    assert result["sprite"] == "-90px -40px"  # position 7 in rows of 4 items of 30 x 40
    assert result["selected"] == [{"type": 1, "id": 11}]
    assert result["changes"] == [["a", 12], ["a", 11]]
    assert result["count"] == 2 and result["gone"] is None
    assert result["items"] == [{"type": 2, "id": 12}, {"type": 3, "id": 13}]  # 3 now weighs most
