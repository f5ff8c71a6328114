// ==UserScript==
// @name         Dark mode
// @description  Turns a light page dark by inverting its colours (pictures and videos keep theirs); run it again to undo.
// @version      1.0
// @grant        none
// ==/UserScript==

// Inverting the whole page and inverting media back keeps photos natural; hue-rotate restores hues.
const styleID = "pagescript-dark-mode";
const existing = document.getElementById(styleID);
if (existing) {
  existing.remove();
} else {
  const style = document.createElement("style");
  style.id = styleID;
  style.textContent = [
    "html { filter: invert(1) hue-rotate(180deg) !important; background: #fff !important; }",
    "img, picture, video, canvas, svg image, iframe, [style*='background-image'] { filter: invert(1) hue-rotate(180deg) !important; }",
  ].join("\n");
  document.head.appendChild(style);
}

({ darkMode: !existing });
