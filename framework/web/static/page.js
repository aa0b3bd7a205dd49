/* What every page runs, from a file (the Content-Security-Policy allows no inline script):
 * the language menu sends its form when changed (a table page starts its client from start.js). */
(function () {
  "use strict";
  for (const select of document.querySelectorAll("form.lang-switch select[name=lang]")) {
    select.addEventListener("change", () => select.form.submit());
  }
})();
