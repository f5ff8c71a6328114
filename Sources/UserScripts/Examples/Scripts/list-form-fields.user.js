// ==UserScript==
// @name         List form fields
// @description  Lists every form field on the page with its type, name, label and whether it is required; passwords are never shown.
// @version      1.0
// @grant        none
// ==/UserScript==

const labelOf = (field) => {
  const labels = field.labels ? Array.from(field.labels) : [];
  const text = labels.map((label) => label.innerText.trim()).filter(Boolean).join(" ");
  const caption = field.tagName === "BUTTON" ? field.innerText.trim() : "";
  return text || field.getAttribute("aria-label") || field.getAttribute("placeholder") || caption || field.getAttribute("title") || "";
};
const fields = Array.from(document.querySelectorAll("input, select, textarea, button")).map((field) => {
  const type = (field.getAttribute("type") || field.type || field.tagName).toLowerCase();
  const secret = type === "password" || type === "hidden";
  return {
    form: field.form ? field.form.getAttribute("name") || field.form.id || Array.from(document.forms).indexOf(field.form) : null,
    tag: field.tagName.toLowerCase(),
    type,
    name: field.name || null,
    id: field.id || null,
    label: labelOf(field),
    required: Boolean(field.required),
    value: secret ? null : String(field.value ?? "").slice(0, 80),
  };
});

({ forms: document.forms.length, fields });
