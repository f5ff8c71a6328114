// ==UserScript==
// @name         Tables to CSV
// @description  Converts every table on the page to CSV text, one string per table, ready to paste into a spreadsheet.
// @version      1.0
// @grant        none
// ==/UserScript==

// RFC 4180 quoting: a field with a comma, quote or line break is quoted, and quotes are doubled.
const quote = (value) => (/[",\r\n]/.test(value) ? '"' + value.replace(/"/g, '""') + '"' : value);
const csv = Array.from(document.querySelectorAll("table")).map((table) =>
  Array.from(table.rows)
    .map((row) =>
      Array.from(row.cells)
        .flatMap((cell) => {
          const value = cell.innerText.trim();
          // A cell spanning several columns fills them, so the columns stay aligned.
          return [value, ...Array(Math.max(0, cell.colSpan - 1)).fill("")];
        })
        .map(quote)
        .join(",")
    )
    .join("\r\n")
);

({ tables: csv.length, csv });
