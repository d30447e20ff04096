/* Sortable tables: <table data-sortable> whose <th data-sort-first="asc|desc"> headings hold
   a <button>. Clicking a heading (or Enter/Space on it) sorts the rows by that column, best
   first; again reverses. Cells sort by data-sort-value (numbers when they parse, else text),
   ties keep the server's order. aria-sort tells screen readers which column sorts the table.
   A table swapped in by a live update keeps the order the visitor chose. */
(function () {
  "use strict";

  var chosen = {}; // table id -> {column, direction}

  function cellValue(row, column) {
    var cell = row.cells[column];
    if (!cell) {
      return "";
    }
    var value = cell.getAttribute("data-sort-value");
    return value === null ? cell.textContent.trim() : value;
  }

  function sortTable(table, column, direction) {
    var heading = table.tHead.rows[0].cells[column];
    var asText = heading.getAttribute("data-sort-type") === "text";
    var body = table.tBodies[0];
    var rows = Array.prototype.slice.call(body.rows);
    rows.forEach(function (row, index) {
      if (row.getAttribute("data-order") === null) {
        row.setAttribute("data-order", index);
      }
    });
    var sign = direction === "asc" ? 1 : -1;
    rows.sort(function (a, b) {
      var x = cellValue(a, column);
      var y = cellValue(b, column);
      var order;
      if (!asText && x !== "" && y !== "" && !isNaN(x) && !isNaN(y)) {
        order = parseFloat(x) - parseFloat(y);
      } else {
        order = String(x).localeCompare(String(y), document.documentElement.lang || undefined);
      }
      if (order === 0) {
        return a.getAttribute("data-order") - b.getAttribute("data-order");
      }
      return sign * order;
    });
    rows.forEach(function (row) {
      body.appendChild(row);
    });
    var headings = table.tHead.rows[0].cells;
    for (var i = 0; i < headings.length; i++) {
      if (i === column) {
        headings[i].setAttribute("aria-sort", direction === "asc" ? "ascending" : "descending");
      } else if (headings[i].hasAttribute("aria-sort")) {
        headings[i].removeAttribute("aria-sort");
      }
    }
  }

  function setUp(table) {
    if (table.getAttribute("data-sortable-ready") !== null || !table.tHead || !table.tBodies[0]) {
      return;
    }
    table.setAttribute("data-sortable-ready", "");
    var headings = table.tHead.rows[0].cells;
    Array.prototype.forEach.call(headings, function (heading, column) {
      var button = heading.querySelector("button");
      if (!button) {
        return;
      }
      button.addEventListener("click", function () {
        var current = heading.getAttribute("aria-sort");
        var first = heading.getAttribute("data-sort-first") || "asc";
        var direction;
        if (current === "ascending") {
          direction = "desc";
        } else if (current === "descending") {
          direction = "asc";
        } else {
          direction = first;
        }
        sortTable(table, column, direction);
        if (table.id) {
          chosen[table.id] = { column: column, direction: direction };
        }
      });
    });
    var choice = table.id ? chosen[table.id] : null;
    if (choice) {
      sortTable(table, choice.column, choice.direction);
    }
  }

  function setUpAll(root) {
    var tables = root.querySelectorAll("table[data-sortable]");
    for (var i = 0; i < tables.length; i++) {
      setUp(tables[i]);
    }
  }

  document.addEventListener("live:update", function (event) {
    setUpAll(event.target);
  });
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", function () { setUpAll(document); });
  } else {
    setUpAll(document);
  }
})();
