/* Templates and small DOM helpers: BGA's ``format_block``, ``dojo.place`` and ``$``.
 *
 * A template is a ``<template id="jstpl_card">`` in the game's HTML fragment (or a string
 * in ``window.jstpl_card``, BGA's .tpl way); ``${name}`` is replaced by ``args.name``,
 * escaped, unless the value is ``Arena.html("<b>trusted</b>")``:
 *
 *   const html = this.format_block("jstpl_card", {id: 12, value: 5});
 *   const node = Arena.place(html, "deck");                 // appended, returns the element
 */
(function () {
  "use strict";
  const Arena = window.Arena;
  const esc = Arena.esc;

  /** Markup the caller vouches for: put into a template as it is. */
  class TrustedHtml {
    constructor(html) {
      this.html = String(html);
    }
    toString() {
      return this.html;
    }
  }

  function html(text) {
    return new TrustedHtml(text);
  }

  function templateText(name) {
    const node = document.getElementById(name);
    if (node && node.tagName === "TEMPLATE") return node.innerHTML;
    if (node && node.tagName === "SCRIPT" && node.type === "text/template") return node.textContent;
    if (typeof window[name] === "string") return window[name];
    throw new Error(`format_block: no template ${name} (a <template id="${name}"> or window.${name})`);
  }

  /** Fill ``${name}`` in a template string (escaped values; TrustedHtml as it is). */
  function fill(template, args) {
    args = args || {};
    return template.replace(/\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g, (m, key) => {
      if (!(key in args)) return m;
      const value = args[key];
      if (value instanceof TrustedHtml) return value.html;
      return esc(value === null || value === undefined ? "" : value);
    });
  }

  function format_block(name, args) {
    return fill(templateText(name), args);
  }

  function $(id) {
    return typeof id === "string" ? document.getElementById(id) : id;
  }

  /** ``dojo.place``: put HTML (or an element) into ``parent`` (an element or its id) at
   * "last" (default), "first", "before", "after", "replace", "only" or an index; returns
   * the placed element. */
  function place(content, parent, position) {
    const ref = $(parent);
    if (!ref) throw new Error("place: no element " + parent);
    let node = content;
    if (typeof content === "string") {
      const holder = document.createElement("template");
      holder.innerHTML = content.trim();
      node = holder.content.firstElementChild;
      if (!node) throw new Error("place: the HTML holds no element");
    }
    position = position === undefined ? "last" : position;
    if (typeof position === "number") {
      ref.insertBefore(node, ref.children[position] || null);
    } else if (position === "first") {
      ref.insertBefore(node, ref.firstChild);
    } else if (position === "before") {
      ref.parentNode.insertBefore(node, ref);
    } else if (position === "after") {
      ref.parentNode.insertBefore(node, ref.nextSibling);
    } else if (position === "replace") {
      ref.replaceWith(node);
    } else if (position === "only") {
      ref.innerHTML = "";
      ref.appendChild(node);
    } else {
      ref.appendChild(node);
    }
    return node;
  }

  Object.assign(Arena, {TrustedHtml, html, fill, format_block, place, $});
  Arena.GameGui.prototype.format_block = function (name, args) {
    return format_block(name, args);
  };
  if (window.$ === undefined) window.$ = $;
})();
