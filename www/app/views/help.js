// @ts-check
// The Help dialog: the project's documents rendered at build time, their links
// kept inside it, and every whole scenario in them openable in the editor.

import { $, el, errorText } from "../dom.js";
import { language, t } from "../i18n.js";
import { store } from "../store.js";
import { openText, say } from "../actions.js";
import { api } from "../services/modules.js";

/** The page the dialog shows (or last showed). */
const shownPage = () => $("help-body").dataset.page ?? "first-system";

export function wireHelp() {
  $("help-open").addEventListener("click", () => openHelp(shownPage()));
  $("close-help").addEventListener("click", () => $("help-dialog").close());
  for (const tab of document.querySelectorAll(".help-tabs [role=tab]")) tab.addEventListener("click", () => openHelp(/** @type {HTMLElement} */ (tab).dataset.page));
  // Another language: the open dialog in it.
  store.subscribe(["language"], () => { if ($("help-dialog").open) openHelp(shownPage()); });
}

/** Opens the Help dialog on `page` (`first-system`, `reference` or `lab`), scrolled to
 *  heading `anchor` if given. */
function openHelp(page = "first-system", /** @type {string | null} */ anchor = null) {
  const body = $("help-body");
  const key = `${page} ${language()}`;
  if (body.dataset.page !== page || body.dataset.key !== key) {
    let html;
    try { html = api().help_html(page, language()); } catch (e) { say(errorText(e)); return; }
    body.dataset.key = key;
    body.innerHTML = html; // the project's own documents, rendered when the page was built
    body.dataset.page = page;
    decorateHelp(body);
  }
  for (const tab of document.querySelectorAll(".help-tabs [role=tab]")) tab.setAttribute("aria-selected", String(/** @type {HTMLElement} */ (tab).dataset.page === page));
  if (!$("help-dialog").open) $("help-dialog").showModal();
  // Code blocks and tables wider than the dialog scroll: they take the focus, so that
  // the arrow keys scroll them too (measured now that the dialog is laid out).
  for (const wide of body.querySelectorAll("pre, table")) {
    if (wide.scrollWidth > wide.clientWidth + 1) {
      wide.tabIndex = 0;
      if (wide.localName === "pre") wide.setAttribute("role", "region");
      if (!wide.hasAttribute("aria-label")) wide.setAttribute("aria-label", t(wide.localName === "pre" ? "help.code-scrolls" : "help.table-scrolls"));
    }
  }
  const target = anchor ? body.querySelector(`[id="${CSS.escape(anchor)}"]`) : null;
  if (target) target.scrollIntoView(); else body.scrollTop = 0;
}

/** Links inside the help stay inside it; every whole scenario gets a button that
 *  opens it in the editor. */
function decorateHelp(/** @type {HTMLElement} */ body) {
  for (const a of body.querySelectorAll("a")) {
    if (!a.hasAttribute("href")) continue;
    const href = a.getAttribute("href");
    const inner = /^(?:(?:\.\.?\/)?(?:docs\/)?(reference|first-system|lab)\.md(?=#|$))?(?:#(.+))?$/.exec(href);
    const elsewhere = /^(?:\.\.?\/)?(?:docs\/)?[\w-]+\.md(?:#.*)?$/.test(href);
    if (inner && href !== "") {
      a.addEventListener("click", (e) => { e.preventDefault(); openHelp(inner[1] ?? body.dataset.page, inner[2] ?? null); });
    } else if (elsewhere) {
      // Another of the repository's documents (architecture, benchmarks…): not part
      // of the page, so named rather than linked to an address that does not exist.
      const name = el("span", { class: "doc-name", text: a.textContent });
      name.title = t("help.in-repository", { file: `docs/${href.replace(/^(?:\.\.?\/)?(?:docs\/)?/, "").replace(/#.*$/, "")}` });
      a.replaceWith(name);
    } else {
      a.target = "_blank";
      a.rel = "noopener";
    }
  }
  for (const code of body.querySelectorAll("pre > code.language-toml")) {
    const text = code.textContent ?? "";
    if (!/^format = "nhlab\/1"/m.test(text)) continue;
    const button = el("button", { type: "button", class: "small open-example", text: t("help.open-example") });
    button.addEventListener("click", () => {
      $("help-dialog").close();
      openText(text);
    });
    code.parentElement.after(button);
  }
}
