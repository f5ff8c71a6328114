// ==UserScript==
// @name         Outline every link
// @description  Draws an outline around every link on the page; run it again to remove the outlines.
// @version      1.0
// @grant        none
// ==/UserScript==

// A style sheet rather than inline styles: one element to remove, and links added later are covered.
const styleID = "pagescript-outline-links";
const existing = document.getElementById(styleID);
if (existing) {
  existing.remove();
} else {
  const style = document.createElement("style");
  style.id = styleID;
  style.textContent = "a[href] { outline: 2px solid #e8590c !important; outline-offset: 1px !important; }";
  document.head.appendChild(style);
}

({ outlined: existing ? 0 : document.querySelectorAll("a[href]").length });
