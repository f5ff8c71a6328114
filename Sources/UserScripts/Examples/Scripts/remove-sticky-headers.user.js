// ==UserScript==
// @name         Remove sticky headers
// @description  Hides fixed and sticky bars, banners and overlays that cover the page, and lets it scroll again.
// @version      1.0
// @grant        none
// ==/UserScript==

const hidden = [];
for (const element of document.querySelectorAll("body *")) {
  const position = getComputedStyle(element).position;
  if (position !== "fixed" && position !== "sticky") continue;
  // Skip elements inside one already hidden: they disappear with it.
  if (hidden.some((parent) => parent.contains(element))) continue;
  element.style.setProperty("display", "none", "important");
  hidden.push(element);
}
// Cookie walls and modal overlays often lock scrolling while they are shown.
for (const element of [document.documentElement, document.body]) {
  if (getComputedStyle(element).overflow === "hidden") element.style.setProperty("overflow", "auto", "important");
}

({
  removed: hidden.length,
  elements: hidden.slice(0, 20).map((element) => element.tagName.toLowerCase() + (element.id ? "#" + element.id : "")),
});
