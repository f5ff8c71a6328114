// ==UserScript==
// @name         Images without alt text
// @description  Outlines in red every image that has no alt attribute and lists where they come from.
// @version      1.0
// @grant        none
// ==/UserScript==

// An empty alt="" is correct for decorative images, so only a missing attribute counts.
const images = Array.from(document.images);
const missing = images.filter((image) => !image.hasAttribute("alt"));
for (const image of missing) {
  image.style.setProperty("outline", "4px solid red", "important");
  image.style.setProperty("outline-offset", "-2px", "important");
}

({
  images: images.length,
  withoutAlt: missing.length,
  sources: missing.slice(0, 20).map((image) => image.currentSrc || image.src),
});
