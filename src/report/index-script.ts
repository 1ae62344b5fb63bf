// The index's script, written to assets/index.js: search, filters and sorting of the
// requirements table. It moves the server-rendered rows, never builds HTML from data, so
// that repository text cannot become markup here either. At most LIMIT rows are shown per
// keystroke (a button shows the rest): what keeps each keystroke fast on 10,000 rows.
export const INDEX_SCRIPT = `"use strict";
(function () {
  var LIMIT = 500;
  var dataNode = document.getElementById("report-data");
  var table = document.getElementById("requirements-table");
  if (!dataNode || !table) return;
  var data = JSON.parse(dataNode.textContent);
  var tbody = table.tBodies[0];
  var rows = Array.prototype.slice.call(tbody.rows);
  var n = data.rows.length;
  var haystack = new Array(n);
  for (var i = 0; i < n; i++) {
    var r = data.rows[i];
    haystack[i] = (r[0] + "\\n" + r[1] + "\\n" + r[2] + "\\n" + r[3].join("\\n") + "\\n" + r[7]).toLowerCase();
  }
  var form = document.getElementById("filters");
  var q = document.getElementById("q");
  var fCategory = document.getElementById("f-category");
  var fTag = document.getElementById("f-tag");
  var fCoverage = document.getElementById("f-coverage");
  var status = document.getElementById("status");
  var more = document.getElementById("show-all");
  var bucketKeys = ["no_test_plan", "manual_test_plan", "partially_manual_test_plan", "automated_test_plan"];
  var order = [];
  for (var k = 0; k < n; k++) order.push(k);
  var showAll = false;
  var fmt = function (x) { return x.toLocaleString("en-US"); };

  function cmp(a, b) { return a < b ? -1 : a > b ? 1 : 0; }
  var KEYS = {
    id: function (i) { return data.rows[i][0]; },
    short: function (i) { return data.rows[i][1]; },
    category: function (i) { return data.rows[i][2]; },
    tags: function (i) { return data.rows[i][3].join(" "); },
    coverage: function (i) { return data.rows[i][4]; },
    tests: function (i) { return data.rows[i][5]; },
    code: function (i) { return data.rows[i][6]; }
  };

  function update() {
    var terms = q.value.toLowerCase().split(/\\s+/).filter(Boolean);
    var category = fCategory.value, tag = fTag.value;
    var bucket = fCoverage.value === "" ? -1 : bucketKeys.indexOf(fCoverage.value);
    var hits = [];
    outer: for (var j = 0; j < n; j++) {
      var i = order[j], r = data.rows[i];
      if (category !== "" && r[2] !== category) continue;
      if (bucket >= 0 && r[4] !== bucket) continue;
      if (tag !== "" && r[3].indexOf(tag) < 0) continue;
      for (var t = 0; t < terms.length; t++) if (haystack[i].indexOf(terms[t]) < 0) continue outer;
      hits.push(i);
    }
    var shown = showAll ? hits.length : Math.min(hits.length, LIMIT);
    var fragment = document.createDocumentFragment();
    for (var s = 0; s < shown; s++) fragment.appendChild(rows[hits[s]]);
    tbody.replaceChildren(fragment);
    var text = hits.length === n ? fmt(n) + (n === 1 ? " requirement" : " requirements")
      : fmt(hits.length) + " of " + fmt(n) + " requirements match";
    if (shown < hits.length) text += ", showing the first " + fmt(shown);
    status.textContent = text;
    more.hidden = shown === hits.length;
    more.textContent = "Show all " + fmt(hits.length);
  }

  var headers = table.tHead.rows[0].cells;
  Array.prototype.forEach.call(headers, function (th) {
    var key = th.getAttribute("data-sort");
    if (!key || !KEYS[key]) return;
    var button = document.createElement("button");
    button.type = "button";
    button.textContent = th.textContent;
    th.textContent = "";
    th.appendChild(button);
    button.addEventListener("click", function () {
      var dir = th.getAttribute("aria-sort") === "ascending" ? -1 : 1;
      Array.prototype.forEach.call(headers, function (h) { h.removeAttribute("aria-sort"); });
      th.setAttribute("aria-sort", dir === 1 ? "ascending" : "descending");
      var f = KEYS[key];
      var values = new Array(n);
      for (var i = 0; i < n; i++) values[i] = f(i);
      order.sort(function (a, b) { return dir * cmp(values[a], values[b]) || cmp(data.rows[a][0], data.rows[b][0]); });
      update();
    });
  });

  function restart() { showAll = false; update(); }
  q.addEventListener("input", restart);
  fCategory.addEventListener("change", restart);
  fTag.addEventListener("change", restart);
  fCoverage.addEventListener("change", restart);
  form.addEventListener("submit", function (e) { e.preventDefault(); });
  more.addEventListener("click", function () { showAll = true; update(); });
  form.hidden = false;
  // The browser restores form fields on going back: show the list they describe.
  if (q.value || fCategory.value || fTag.value || fCoverage.value) update();
})();
`;
