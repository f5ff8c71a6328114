// ==UserScript==
// @name         Show all headings
// @description  Lists the page's headings as an outline and points out skipped levels and missing or repeated top-level headings.
// @version      1.0
// @grant        none
// ==/UserScript==

const headings = Array.from(document.querySelectorAll("h1, h2, h3, h4, h5, h6")).map((heading) => ({
  level: Number(heading.tagName[1]),
  text: heading.innerText.trim().replace(/\s+/g, " "),
}));
const problems = [];
const topLevel = headings.filter((heading) => heading.level === 1).length;
if (topLevel === 0) problems.push("no h1");
if (topLevel > 1) problems.push(topLevel + " h1 headings");
headings.forEach((heading, index) => {
  const previous = index === 0 ? 0 : headings[index - 1].level;
  if (heading.level > previous + 1) problems.push(`h${previous || "-"} is followed by h${heading.level}: "${heading.text}"`);
});

({
  outline: headings.map((heading) => "  ".repeat(heading.level - 1) + `h${heading.level} ${heading.text}`),
  problems,
});
