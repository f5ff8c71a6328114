// ==UserScript==
// @name         Dark mode
// @description  Turns a light page dark by inverting its colours (pictures and videos keep theirs); run it again to undo.
// @version      1.1
// @grant        none
// ==/UserScript==

// Inverting the whole page and inverting media back keeps photos natural; hue-rotate restores hues.
// A constructed style sheet rather than a <style> element: a page's Content-Security-Policy
// (style-src) governs the element, not the sheet, so this works on strict sites too. The sheet
// is told from the page's own by a custom property of its first rule.
const marker = "--pagescript-dark-mode";
const sheets = document.adoptedStyleSheets;
const isDarkMode = (sheet) => [...sheet.cssRules].some((rule) => rule.style && rule.style.getPropertyValue(marker) !== "");
const existing = sheets.find(isDarkMode);
if (existing) {
  document.adoptedStyleSheets = sheets.filter((sheet) => sheet !== existing);
} else {
  const sheet = new CSSStyleSheet();
  sheet.replaceSync([
    `html { ${marker}: on; filter: invert(1) hue-rotate(180deg) !important; background: #fff !important; }`,
    "img, picture, video, canvas, svg image, iframe, [style*='background-image'] { filter: invert(1) hue-rotate(180deg) !important; }",
  ].join("\n"));
  document.adoptedStyleSheets = [...sheets, sheet];
}

({ darkMode: !existing });
