/* The lobby's create-table forms: each option shows the description of its chosen value,
 * and options that only apply to some values of another option hide otherwise. */
(function () {
  "use strict";
  for (const form of document.querySelectorAll("form.create")) {
    const refresh = () => {
      const values = {};
      for (const select of form.querySelectorAll("select[data-option]")) values[select.dataset.option] = select.value;
      for (const option of form.querySelectorAll(".option")) {
        const select = option.querySelector("select");
        const chosen = select.options[select.selectedIndex];
        option.querySelector(".value-desc").textContent = chosen ? chosen.dataset.description || "" : "";
        const condition = JSON.parse(option.dataset.condition || "{}");
        const shown = Object.entries(condition).every(([id, allowed]) => allowed.map(String).includes(values[id]));
        option.hidden = !shown;
      }
      const players = Number(form.querySelector("input[name=players]").value) || 0;
      form.querySelectorAll(".bots label").forEach((label, seat) => { label.hidden = seat >= players; });
    };
    form.addEventListener("change", refresh);
    form.addEventListener("input", refresh);
    refresh();
  }
})();
