/* The table's chat: the lines come from GET /chat?after= (polled: every few seconds while the
 * page is shown, rarely while it is hidden), a line goes out with POST /chat. Every text is put
 * in the page with textContent: a line is never HTML. A moderator (the game's developers, the
 * site's admins) gets a button to hide a line from everyone. */
(function () {
  "use strict";
  const Arena = window.Arena;
  const _ = Arena._;
  const SHOWN_MS = 3000;
  const HIDDEN_MS = 15000;

  const chat = {
    lastId: 0,
    moderator: false,
    timer: null,
    busy: false,

    start() {
      this.box = document.getElementById("chat-box");
      if (!this.box) return;
      this.list = document.getElementById("chat-lines");
      this.form = document.getElementById("chat-form");
      this.input = document.getElementById("chat-input");
      this.closedNote = document.getElementById("chat-closed");
      this.form.addEventListener("submit", (ev) => {
        ev.preventDefault();
        this.send();
      });
      this.list.addEventListener("click", (ev) => {
        const button = ev.target.closest("[data-chat-hide]");
        if (button) this.hide(Number(button.dataset.chatHide));
      });
      document.addEventListener("visibilitychange", () => {
        if (!document.hidden) this.poll();
      });
      this.poll();
    },

    schedule() {
      if (this.timer) clearTimeout(this.timer);
      this.timer = setTimeout(() => this.poll(), document.hidden ? HIDDEN_MS : SHOWN_MS);
    },

    async poll() {
      if (this.busy) return;
      this.busy = true;
      try {
        const answer = await Arena.get(`/chat?after=${this.lastId}`);
        this.moderator = !!answer.moderator;
        for (const line of answer.lines) {
          this.lastId = Math.max(this.lastId, line.id);
          this.add(line);
        }
        for (const id of answer.hidden || []) this.remove(id);
        this.setOpen(answer.can_write, answer.closed);
      } catch (err) {
        /* the chat is a comfort: try again at the next tick */
      } finally {
        this.busy = false;
        this.schedule();
      }
    },

    setOpen(open, why) {
      this.form.hidden = !open;
      this.closedNote.hidden = !!open;
      this.closedNote.textContent = open ? "" : (why || "");
    },

    /** Put a line in its place by id (a line sent from here is shown before the poll brings it). */
    add(line) {
      if (line.hidden || this.list.querySelector(`[data-chat-id="${line.id}"]`)) return;
      const li = document.createElement("li");
      li.dataset.chatId = String(line.id);
      li.className = "chat-line";
      const time = document.createElement("time");
      time.className = "chat-time";
      const when = new Date(line.time);
      time.dateTime = line.time;
      time.textContent = isNaN(when) ? "" : when.toLocaleTimeString(Arena.config.lang || [], {hour: "2-digit", minute: "2-digit"});
      const author = document.createElement("b");
      author.className = "chat-author";
      author.textContent = line.author;
      const gui = Arena.gui;
      if (gui && gui.gamedatas && gui.gamedatas.players[String(line.author_id)]) {
        author.style.color = gui.playerColor(line.author_id);
      }
      const body = document.createElement("span");
      body.className = "chat-body";
      body.textContent = line.body;
      li.append(time, " ", author, " ", body);
      if (this.moderator) {
        const hide = document.createElement("button");
        hide.type = "button";
        hide.className = "chat-hide";
        hide.dataset.chatHide = String(line.id);
        hide.title = _("Hide this message from everyone");
        hide.textContent = "×";
        li.append(" ", hide);
      }
      const after = [...this.list.children].find((node) => Number(node.dataset.chatId) > line.id);
      this.list.insertBefore(li, after || null);
      this.list.scrollTop = this.list.scrollHeight;
    },

    remove(id) {
      const li = this.list.querySelector(`[data-chat-id="${id}"]`);
      if (li) li.remove();
    },

    async send() {
      const text = this.input.value.trim();
      if (!text) return;
      try {
        const answer = await Arena.post("/chat", {body: text});
        this.input.value = "";
        this.add(answer.line);
      } catch (err) {
        if (Arena.gui) Arena.gui.showMessage(err.message, "error");
      }
    },

    async hide(id) {
      try {
        await Arena.post(`/chat/${id}/hide`, {});
        this.remove(id);
      } catch (err) {
        if (Arena.gui) Arena.gui.showMessage(err.message, "error");
      }
    },
  };

  Arena.chat = chat;
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", () => chat.start());
  else chat.start();
})();
