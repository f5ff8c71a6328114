// ==UserScript==
// @name         Page information
// @description  Shows the page's title, language, description, canonical address and size at a glance.
// @version      1.0
// @grant        none
// ==/UserScript==

const meta = (name) => {
  const element = document.querySelector(`meta[name="${name}"], meta[property="${name}"]`);
  return element ? element.getAttribute("content") : null;
};
const canonical = document.querySelector('link[rel="canonical"]');

({
  title: document.title,
  url: location.href,
  language: document.documentElement.lang || null,
  description: meta("description") || meta("og:description"),
  canonical: canonical ? canonical.href : null,
  characterSet: document.characterSet,
  elements: document.getElementsByTagName("*").length,
  images: document.images.length,
  scripts: document.scripts.length,
});
