/* The site's one script: sorting a table by the column heading clicked, and, on a list page,
   filtering by federation, women, juniors and active players, finding a player by name as
   you type, and a row of one line on a phone that a tap opens; on the typed-games form, the
   player and event pickers. Plain JavaScript, no library;
   the pages read fully without it. */
(function () {
  "use strict";

  /* The search key of a name, by the rule of ledger.names.name_key: accents dropped, case
     folded, the letters FIDE's lists write in ASCII, apostrophes joining, other marks a blank.
     Each row carries its name's key (data-key), worked out by the ledger; only the typed text
     is folded here. */
  var LETTERS = { "\u00f8": "o", "\u0142": "l", "\u0111": "d", "\u00f0": "d", "\u0127": "h",
                  "\u0167": "t", "\u0131": "i", "\u00e6": "ae", "\u0153": "oe", "\u00fe": "th",
                  "\u00df": "ss" };
  function fold(text) {
    var t = text.normalize("NFKD").replace(/\p{M}/gu, "").toLowerCase();
    t = t.replace(/[\u00f8\u0142\u0111\u00f0\u0127\u0167\u0131\u00e6\u0153\u00fe\u00df]/g,
                  function (c) { return LETTERS[c]; });
    t = t.normalize("NFKD").replace(/\p{M}/gu, "");
    t = t.replace(/['\u2019\u2018`\u00b4\u02bc\u02bb\u00b7]/g, "");
    return t.replace(/[^\p{L}\p{N}]+/gu, " ").trim();
  }

  function sortable(table) {
    var heads = table.tHead.rows[table.tHead.rows.length - 1].cells;  /* below a running line */
    var body = table.tBodies[0];
    var rows = Array.prototype.slice.call(body.rows);
    rows.forEach(function (row, i) { row.setAttribute("data-order", String(i)); });
    function key(row, col) {
      var cell = row.cells[col];
      var given = cell.getAttribute("data-sort");
      return given !== null ? given : cell.textContent.trim();
    }
    Array.prototype.forEach.call(heads, function (th, col) {
      var button = th.querySelector("button");
      if (!button) { return; }
      button.addEventListener("click", function () {
        var numeric = th.getAttribute("data-type") === "num";
        var current = th.getAttribute("aria-sort");
        var desc = current ? current === "ascending" : th.hasAttribute("data-desc");
        Array.prototype.forEach.call(heads, function (h) { h.removeAttribute("aria-sort"); });
        th.setAttribute("aria-sort", desc ? "descending" : "ascending");
        var sorted = Array.prototype.slice.call(body.rows);
        sorted.sort(function (a, b) {
          var x = key(a, col), y = key(b, col);
          var order;
          if (x === "" || y === "") {
            order = (x === "") - (y === "");
            if (order) { return order; }
          } else {
            order = numeric ? Number(x) - Number(y) : x.localeCompare(y);
            if (order) { return desc ? -order : order; }
          }
          return Number(a.getAttribute("data-order")) - Number(b.getAttribute("data-order"));
        });
        var fragment = document.createDocumentFragment();
        sorted.forEach(function (row) { fragment.appendChild(row); });
        body.appendChild(fragment);
      });
    });
  }

  function filterable(table) {
    var controls = document.getElementById(table.id + "-filters");
    if (!controls) { return; }
    var rows = Array.prototype.slice.call(table.tBodies[0].rows);
    var keys = rows.map(function (row) { return row.getAttribute("data-key") || ""; });
    var search = controls.querySelector("input[type=search]");
    var federation = controls.querySelector("select");
    var flags = Array.prototype.slice.call(controls.querySelectorAll("input[type=checkbox]"));
    var shown = document.getElementById(table.id + "-shown");
    function apply() {
      var words = search ? fold(search.value).split(" ").filter(Boolean) : [];
      var fed = federation ? federation.value : "";
      var count = 0;
      rows.forEach(function (row, i) {
        var keep = (!fed || row.getAttribute("data-fed") === fed) &&
          flags.every(function (box) {
            return !box.checked || row.hasAttribute(box.getAttribute("data-needs"));
          }) &&
          words.every(function (word) { return keys[i].indexOf(word) !== -1; });
        row.hidden = !keep;
        if (keep) { count += 1; }
      });
      if (shown) {
        shown.textContent = count === rows.length ? "" :
          count + " of " + rows.length + " shown";
      }
    }
    controls.addEventListener("input", apply);
    controls.addEventListener("change", apply);
    apply();
  }

  /* On a phone a list row is one line (rank, name, rating, change: site.css);
     tapping the row shows the rest of it, labelled, and tapping again folds it. Without the
     script the rows stay cards showing everything. */
  function foldable(table) {
    table.classList.add("folds");
    table.tBodies[0].addEventListener("click", function (event) {
      if (event.target.closest("a, button")) { return; }
      var row = event.target.closest("tr");
      if (!row) { return; }
      row.setAttribute("aria-expanded", String(row.classList.toggle("open")));
    });
    Array.prototype.forEach.call(table.tBodies[0].rows, function (row) {
      row.setAttribute("aria-expanded", "false");
    });
  }

  /* The pickers of the typed-games form: a text input with data-picker="players" (or
     "events") and a list= datalist. As one types (after a pause of 250 ms, two characters at
     least), the datalist is filled with what the ledger's search finds
     (/api/search/players?q=..., at most 20 names: web/pickers.py), so the browser offers them;
     the name chosen is typed in full, and matched by the ledger's name key on submit. */
  function describe(kind, item) {
    var facts = kind === "players" ?
      [item.title, item.federation, item.birth_year, item.fide_id && "FIDE " + item.fide_id] :
      [item.start && item.end && item.start + " to " + item.end, item.site];
    facts = facts.filter(function (fact) { return fact; });
    return facts.length ? item.name + " (" + facts.join(", ") + ")" : item.name;
  }
  function picker(input) {
    var kind = input.getAttribute("data-picker");
    var list = document.getElementById(input.getAttribute("list"));
    if (!list || (kind !== "players" && kind !== "events") || !window.fetch) { return; }
    var timer = null;
    input.addEventListener("input", function () {
      clearTimeout(timer);
      timer = setTimeout(function () {
        var query = input.value.trim();
        if (query.length < 2 || query.length > 100) { return; }
        fetch("/api/search/" + kind + "?q=" + encodeURIComponent(query),
              { headers: { "Accept": "application/json" }, credentials: "same-origin" })
          .then(function (answer) { return answer.ok ? answer.json() : null; })
          .then(function (found) {
            if (!found || input.value.trim() !== query) { return; }
            while (list.firstChild) { list.removeChild(list.firstChild); }
            (found[kind] || []).forEach(function (item) {
              var option = document.createElement("option");
              option.value = item.name;
              option.textContent = describe(kind, item);
              list.appendChild(option);
            });
          })
          .catch(function () { /* no offers: the name is typed in full */ });
      }, 250);
    });
  }
  Array.prototype.forEach.call(document.querySelectorAll("input[data-picker][list]"), picker);

  var table = document.getElementById("rating-list");
  if (table) { foldable(table); }
  Array.prototype.forEach.call(document.querySelectorAll("table.sortable"), sortable);
  if (table) { filterable(table); }
  var index = document.getElementById("player-index");
  if (index) { filterable(index); }
})();
