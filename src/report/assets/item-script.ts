// The item pages' script, written to assets/item.js: the window title names the item the
// fragment shows (the stylesheet does the showing, so the pages work without it).
export const ITEM_SCRIPT = `"use strict";
(function () {
  var base = document.title;
  function update() {
    var id = decodeURIComponent(location.hash.slice(1));
    var article = id ? document.getElementById(id) : null;
    var name = article && article.classList.contains("item") ? article.querySelector("h2 .id") : null;
    document.title = name ? name.textContent + " — " + base : base;
  }
  window.addEventListener("hashchange", update);
  update();
})();
`;
