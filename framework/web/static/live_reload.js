/* Live reload in the local studio: a table page asks every second whether its game's files
 * changed (the page's arena-config "live": url, version) and reloads when they did; while
 * the game does not load it shows why (file and line) and reloads once it is fixed.
 * Production pages have no "live" entry: this script then does nothing.
 */
(function () {
  "use strict";

  const node = document.getElementById("arena-config");
  let live = null;
  try {
    live = node ? JSON.parse(node.textContent).live : null;
  } catch (e) {
    live = null;
  }
  if (!live || !live.url) return;
  let version = live.version;
  const every = live.poll_ms || 1000;
  document.documentElement.dataset.liveReload = "watching";

  function showError(error) {
    let box = document.getElementById("live-reload-error");
    if (!box) {
      box = document.createElement("div");
      box.id = "live-reload-error";
      box.className = "live-reload-error";
      box.setAttribute("role", "alert");
      // Styled here: the framework's stylesheet belongs to the client.
      box.style.cssText = "position:sticky;top:0;z-index:100;padding:.6rem 1rem;background:#fde8e6;" +
        "border-bottom:2px solid #b3261e;display:flex;flex-direction:column;gap:.2rem;white-space:pre-wrap";
      document.body.prepend(box);
    }
    box.replaceChildren();
    const title = document.createElement("strong");
    title.textContent = error.title;
    const message = document.createElement("div");
    message.className = "error";
    message.textContent = error.message;
    box.append(title, message);
    if (error.file) {
      const where = document.createElement("code");
      where.className = "error-where";
      where.textContent = error.file + ":" + error.line + (error.source ? "  " + error.source : "");
      box.append(where);
    }
    document.documentElement.dataset.liveReload = "broken";
  }

  function check() {
    fetch(live.url, {headers: {Accept: "application/json"}, cache: "no-store", credentials: "same-origin"})
      .then((answer) => answer.json())
      .then((status) => {
        if (!status.live) return; // nothing is reloaded here: stop asking
        if (status.version !== version) {
          version = status.version;
          if (!status.error) {
            document.documentElement.dataset.liveReload = "reloading";
            window.location.reload();
            return;
          }
          showError(status.error);
        }
        setTimeout(check, every);
      })
      .catch(() => setTimeout(check, every * 3)); // the studio is restarting: ask again later
  }

  if (live.error && !document.getElementById("game-load-error")) showError(live.error);
  setTimeout(check, every);
})();
