// ==UserScript==
// @name         List links
// @description  Lists the page's links with their text and address, and counts those that leave the site.
// @version      1.0
// @grant        none
// ==/UserScript==

const links = Array.from(document.querySelectorAll("a[href]")).map((link) => ({
  // An image link's text is its picture's alt text, as a screen reader would read it.
  text: (link.innerText || link.getAttribute("aria-label") || link.title || Array.from(link.querySelectorAll("img[alt]")).map((image) => image.alt).join(" "))
    .trim()
    .replace(/\s+/g, " ")
    .slice(0, 120),
  href: link.href,
  external: link.hostname !== "" && link.hostname !== location.hostname,
}));

({
  links: links.length,
  external: links.filter((link) => link.external).length,
  withoutText: links.filter((link) => link.text === "").length,
  list: links.slice(0, 200),
});
