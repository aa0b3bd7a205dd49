/* Dialogs and tooltips: a message, a yes/no question answered in the page (a Promise), and
 * BGA's ``addTooltip`` family (the element's title, or a floating box for HTML). */
(function () {
  "use strict";
  const Arena = window.Arena;
  const esc = Arena.esc;

  const dialogs = {
    showMessage(text, type) {
      return Arena.gui.showMessage(text, type);
    },
    /** BGA's ``showMoveUnauthorized``. */
    showMoveUnauthorized() {
      return Arena.gui.showMessage(_("This move is not authorized now"), "error");
    },
    /** A question with Yes / No buttons; resolves to true for Yes. */
    confirmation(text) {
      return new Promise((resolve) => {
        const box = document.createElement("div");
        box.className = "arena-dialog";
        box.setAttribute("role", "dialog");
        box.innerHTML = `<div class="arena-dialog-box"><p class="arena-dialog-text">${esc(text)}</p>` +
          `<div class="arena-dialog-buttons"><button type="button" class="action-button blue" data-answer="yes">` +
          `${esc(_("Yes"))}</button><button type="button" class="action-button gray" data-answer="no">` +
          `${esc(_("No"))}</button></div></div>`;
        box.addEventListener("click", (ev) => {
          const button = ev.target.closest("[data-answer]");
          if (!button) return;
          box.remove();
          resolve(button.dataset.answer === "yes");
        });
        document.body.appendChild(box);
        box.querySelector("[data-answer=yes]").focus();
      });
    },
  };

  function nodeOf(id) {
    return typeof id === "string" ? document.getElementById(id) : id;
  }

  Object.assign(Arena.GameGui.prototype, {
    /** BGA's ``addTooltip(id, help, action)``: plain text, shown on hover. */
    addTooltip(id, helpString, actionString) {
      const node = nodeOf(id);
      if (node) node.title = [helpString, actionString].filter(Boolean).join("\n");
    },
    /** BGA's ``addTooltipHtml(id, html)``: trusted HTML, shown in a box on hover. */
    addTooltipHtml(id, html) {
      const node = nodeOf(id);
      if (!node) return;
      node.dataset.tooltipHtml = html;
      node.removeAttribute("title");
      if (node._arenaTooltip) return;
      node._arenaTooltip = true;
      node.addEventListener("mouseenter", () => {
        const box = document.createElement("div");
        box.className = "arena-tooltip";
        box.innerHTML = node.dataset.tooltipHtml || "";
        const rect = node.getBoundingClientRect();
        box.style.left = `${rect.left + window.scrollX}px`;
        box.style.top = `${rect.bottom + window.scrollY + 6}px`;
        document.body.appendChild(box);
        node._arenaTooltipBox = box;
      });
      node.addEventListener("mouseleave", () => {
        if (node._arenaTooltipBox) node._arenaTooltipBox.remove();
        node._arenaTooltipBox = null;
      });
    },
    addTooltipToClass(cssClass, helpString, actionString) {
      for (const node of document.getElementsByClassName(cssClass)) this.addTooltip(node, helpString, actionString);
    },
    addTooltipHtmlToClass(cssClass, html) {
      for (const node of document.getElementsByClassName(cssClass)) this.addTooltipHtml(node, html);
    },
    removeTooltip(id) {
      const node = nodeOf(id);
      if (!node) return;
      node.removeAttribute("title");
      delete node.dataset.tooltipHtml;
    },
    /** BGA's ``confirmationDialog(text, onYes, onNo)``. */
    confirmationDialog(text, onYes, onNo) {
      return dialogs.confirmation(text).then((yes) => (yes ? onYes && onYes() : onNo && onNo()));
    },
    showMoveUnauthorized() {
      return dialogs.showMoveUnauthorized();
    },
  });

  Arena.dialogs = dialogs;
})();
