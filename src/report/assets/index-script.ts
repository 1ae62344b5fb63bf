// The index's script, written to assets/index.js: search, filters and sorting of the
// requirements table over the JSON copy of every requirement. Rows are built with DOM calls
// and textContent, never from HTML text, so repository text cannot become markup here
// either. At most LIMIT rows (index-page.ts) are shown per keystroke ("show more" adds more):
// what keeps a keystroke fast on 10,000 requirements (bench/report.ts measures it).
export const INDEX_SCRIPT = `"use strict";
(function () {
  var dataNode = document.getElementById("report-data");
  var table = document.getElementById("requirements-table");
  if (!dataNode || !table) return;
  var LIMIT = Number(table.getAttribute("data-limit")) || 50;
  var data = JSON.parse(dataNode.textContent);
  var tbody = table.tBodies[0];
  var n = data.rows.length;
  // The rows already in the page are the first ones, in order: reused as they are.
  var rows = new Array(n);
  var written = tbody.rows;
  for (var w = 0; w < written.length && w < n; w++) rows[w] = written[w];
  var haystack = new Array(n);
  for (var i = 0; i < n; i++) {
    var r = data.rows[i];
    haystack[i] = (r[0] + "\\n" + r[1] + "\\n" + r[2] + "\\n" + r[3].join("\\n") + "\\n" + r[7] + (data.projects ? "\\n" + r[9] : "")).toLowerCase();
  }
  var form = document.getElementById("filters");
  var q = document.getElementById("q");
  var fCategory = document.getElementById("f-category");
  var fTag = document.getElementById("f-tag");
  var fCoverage = document.getElementById("f-coverage");
  // With several projects: a Project column after the ID (row[9]) and its filter.
  var fProject = data.projects ? document.getElementById("f-project") : null;
  var status = document.getElementById("status");
  var more = document.getElementById("show-more");
  var order = [];
  for (var k = 0; k < n; k++) order.push(k);
  var shownMax = LIMIT;
  var sortKey = "id+";
  var displayed = [];
  var fmt = function (x) { return x.toLocaleString("en-US"); };

  function cell(tr, className) {
    var td = document.createElement("td");
    if (className) td.className = className;
    tr.appendChild(td);
    return td;
  }
  function span(parent, className, text) {
    var s = document.createElement("span");
    s.className = className;
    s.textContent = text;
    parent.appendChild(s);
    return s;
  }
  function row(i) {
    if (rows[i]) return rows[i];
    var r = data.rows[i];
    var tr = document.createElement("tr");
    var a = document.createElement("a");
    a.className = "id";
    a.href = r[8];
    a.textContent = r[0];
    cell(tr).appendChild(a);
    if (data.projects) cell(tr).textContent = r[9];
    cell(tr).textContent = r[1];
    cell(tr).textContent = r[2];
    var tags = cell(tr);
    for (var t = 0; t < r[3].length; t++) {
      if (t > 0) tags.appendChild(document.createTextNode(" "));
      span(tags, "tag", r[3][t]);
    }
    span(cell(tr), "badge " + data.buckets[r[4]], data.labels[r[4]]);
    cell(tr, "num").textContent = String(r[5]);
    cell(tr, "num").textContent = String(r[6]);
    rows[i] = tr;
    return tr;
  }

  function cmp(a, b) { return a < b ? -1 : a > b ? 1 : 0; }
  var KEYS = {
    id: function (i) { return data.rows[i][0]; },
    project: function (i) { return data.rows[i][9] || ""; },
    short: function (i) { return data.rows[i][1]; },
    category: function (i) { return data.rows[i][2]; },
    tags: function (i) { return data.rows[i][3].join(" "); },
    coverage: function (i) { return data.rows[i][4]; },
    tests: function (i) { return data.rows[i][5]; },
    code: function (i) { return data.rows[i][6]; }
  };

  // Typing on at the end of the query only narrows: the next keystroke searches the last hits.
  var last = { key: null, query: null, hits: null };

  function update() {
    var query = q.value.toLowerCase();
    var terms = query.split(/\\s+/).filter(Boolean);
    var category = fCategory.value, tag = fTag.value, project = fProject ? fProject.value : "";
    var bucket = fCoverage.value === "" ? -1 : data.buckets.indexOf(fCoverage.value);
    var key = category + "\\u0000" + tag + "\\u0000" + bucket + "\\u0000" + project + "\\u0000" + sortKey;
    var pool = last.key === key && last.hits && query.indexOf(last.query) === 0 ? last.hits : order;
    var hits = [];
    outer: for (var j = 0; j < pool.length; j++) {
      var i = pool[j], r = data.rows[i];
      if (category !== "" && r[2] !== category) continue;
      if (project !== "" && r[9] !== project) continue;
      if (bucket >= 0 && r[4] !== bucket) continue;
      if (tag !== "" && r[3].indexOf(tag) < 0) continue;
      for (var t = 0; t < terms.length; t++) if (haystack[i].indexOf(terms[t]) < 0) continue outer;
      hits.push(i);
    }
    last = { key: key, query: query, hits: hits };
    var shown = Math.min(hits.length, shownMax);
    // The same rows as shown (a keystroke that changes no match among them): no DOM change.
    var same = displayed.length === shown;
    for (var d = 0; same && d < shown; d++) same = displayed[d] === hits[d];
    if (!same) {
      var fragment = document.createDocumentFragment();
      for (var s = 0; s < shown; s++) fragment.appendChild(row(hits[s]));
      tbody.replaceChildren(fragment);
      displayed = hits.slice(0, shown);
    }
    var text = hits.length === n ? fmt(n) + (n === 1 ? " requirement" : " requirements")
      : fmt(hits.length) + " of " + fmt(n) + " requirements match";
    if (shown < hits.length) text += ", the first " + fmt(shown) + " shown";
    status.textContent = text;
    var rest = hits.length - shown;
    more.hidden = rest === 0;
    more.textContent = rest <= 500 ? "Show all " + fmt(hits.length) : "Show 500 more";
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
      sortKey = key + (dir === 1 ? "+" : "-");
      var f = KEYS[key];
      var values = new Array(n);
      for (var i = 0; i < n; i++) values[i] = f(i);
      order.sort(function (a, b) { return dir * cmp(values[a], values[b]) || cmp(data.rows[a][0], data.rows[b][0]); });
      update();
    });
  });

  function restart() { shownMax = LIMIT; update(); }
  q.addEventListener("input", restart);
  fCategory.addEventListener("change", restart);
  fTag.addEventListener("change", restart);
  fCoverage.addEventListener("change", restart);
  if (fProject) fProject.addEventListener("change", restart);
  form.addEventListener("submit", function (e) { e.preventDefault(); });
  more.addEventListener("click", function () { shownMax += 500; update(); });
  form.hidden = false;
  // The browser restores form fields on going back: show the list they describe. Otherwise
  // the status line loses the no-script note and gains the "show more" button.
  update();
})();
`;
