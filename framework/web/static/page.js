/* What every page runs, from a file (the Content-Security-Policy allows no inline script):
 * the language menu sends its form when changed, and a table page starts its client. */
(function () {
  "use strict";
  for (const select of document.querySelectorAll("form.lang-switch select[name=lang]")) {
    select.addEventListener("change", () => select.form.submit());
  }
  if (document.getElementById("arena-config") && window.Arena) window.Arena.start();
})();
