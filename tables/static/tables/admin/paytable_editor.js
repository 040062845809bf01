// The paytable editor: shows the columns of the chosen bet, copies a preset into the lines,
// and refreshes the engine's math as the lines are typed (the server computes it).
(function () {
  "use strict";

  function ready(fn) {
    if (document.readyState !== "loading") fn();
    else document.addEventListener("DOMContentLoaded", fn);
  }

  ready(function () {
    var editor = document.querySelector(".paytable-editor");
    if (!editor) return;
    var form = editor.closest("form");
    var kind = form.querySelector("select[name=kind]");
    var preset = form.querySelector("select[name=preset]");
    var math = document.getElementById("paytable-math");
    var timer = null;

    function currentKind() {
      if (kind) return kind.value || "none";
      var match = /kind-(\w+)/.exec(editor.className);
      return match ? match[1] : "none";
    }

    function showKind() {
      editor.className = editor.className.replace(/kind-\w+/, "kind-" + currentKind());
    }

    function refresh() {
      if (!editor.dataset.mathUrl || currentKind() === "none") return;
      var data = new FormData(form);
      if (!kind) data.set("kind", currentKind());
      fetch(editor.dataset.mathUrl, {
        method: "POST",
        body: data,
        credentials: "same-origin",
        headers: { "X-Requested-With": "fetch" },
      })
        .then(function (response) { return response.ok ? response.text() : null; })
        .then(function (html) { if (html !== null) math.innerHTML = html; })
        .catch(function () {});
    }

    function later() {
      clearTimeout(timer);
      timer = setTimeout(refresh, 250);
    }

    function setRow(category, value) {
      var row = editor.querySelector('tr[data-category="' + category + '"]');
      if (!row) return;
      row.querySelectorAll("input").forEach(function (input) { input.value = ""; });
      if (value === undefined || value === null) return;
      var text = String(value);
      var odds = /^(\d+):(\d+)$/.exec(text);
      if (odds) {
        row.querySelector('input[name$="_n"]').value = odds[1];
        row.querySelector('input[name$="_m"]').value = odds[2];
      } else if (/%$/.test(text)) {
        row.querySelector('input[name$="_percent"]').value = text.slice(0, -1);
      } else {
        row.querySelector('input[name$="_amount"]').value = text;
      }
    }

    editor.querySelectorAll(".preset-use").forEach(function (button) {
      button.addEventListener("click", function () {
        var lines = JSON.parse(button.dataset.lines);
        editor.querySelectorAll("tr[data-category]").forEach(function (row) {
          setRow(row.dataset.category, lines[row.dataset.category]);
        });
        if (preset) preset.value = "";
        refresh();
      });
    });

    // Editing a row leaves the preset: the rows are then the paytable, and the page says so
    // (else the preset's lines would silently win over what was typed).
    var leftNote = editor.querySelector("[data-left-preset]");
    editor.querySelectorAll("tr[data-category] input").forEach(function (input) {
      input.addEventListener("input", function () {
        if (!preset || !preset.value) return;
        if (leftNote) {
          leftNote.querySelector("[data-preset-name]").textContent = preset.value;
          leftNote.hidden = false;
        }
        preset.value = "";
      });
    });

    if (kind) kind.addEventListener("change", function () { showKind(); refresh(); });
    form.addEventListener("input", later);
    form.addEventListener("change", later);
    showKind();
  });
})();
