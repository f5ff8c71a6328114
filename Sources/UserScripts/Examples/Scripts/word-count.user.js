// ==UserScript==
// @name         Word count
// @description  Counts the words and characters of the page's visible text and estimates its reading time.
// @version      1.0
// @grant        none
// ==/UserScript==

// innerText is the rendered text: hidden elements and script contents are left out.
const text = document.body ? document.body.innerText : "";
let words = 0;
if (typeof Intl !== "undefined" && Intl.Segmenter) {
  // A segmenter also counts words in languages written without spaces (Chinese, Japanese, Thai).
  for (const segment of new Intl.Segmenter(document.documentElement.lang || undefined, { granularity: "word" }).segment(text)) {
    if (segment.isWordLike) words += 1;
  }
} else {
  words = text.split(/\s+/).filter((word) => /[\p{L}\p{N}]/u.test(word)).length;
}

({
  words,
  characters: text.replace(/\s/g, "").length,
  readingMinutes: Math.max(1, Math.round(words / 230)),
});
