// @ts-check
// The Share dialog: the share link, and the embed snippet for course notes with its
// choices (controls, panel, sliders, language, a fixed height) and a live preview.

import { $, copyText, el, errorText } from "../dom.js";
import { galleryWordsIn, language, t } from "../i18n.js";
import { state } from "../store.js";
import { say, share } from "../actions.js";
import { galleryWordsItem } from "../services/links.js";

/** The system whose choices the dialog's ticks are (a new one starts with none). */
let ticksFor = /** @type {string | null} */ (null);

export function wireShare() {
  $("share").addEventListener("click", () => openShare({ copy: true }));
  $("embed-open").addEventListener("click", () => openShare({ copy: false }));
  $("close-share").addEventListener("click", () => $("share-dialog").close());
  // The preview is a lab of its own: it stops when the dialog closes.
  $("share-dialog").addEventListener("close", stopEmbedPreview);
  $("copy-snippet").addEventListener("click", (/** @type {Event} */ e) => copyText($("embed-snippet").value, /** @type {HTMLElement} */ (e.currentTarget)));
  for (const id of ["embed-controls", "embed-panel", "embed-language", "embed-parameters"]) $(id).addEventListener("change", renderEmbedSnippet);
  $("embed-height").addEventListener("input", renderEmbedSnippet);
}

/** The Share dialog. From "Share link" (`copy`) the link is copied and the label says
 *  so; from "Embed" the clipboard is left alone (it silently took the link, issue 60)
 *  and the iframe is selected for its own Copy button. A new system starts with no
 *  controls ticked (they were the previous system's). */
async function openShare({ copy = true } = {}) {
  let link;
  try { link = share(); } catch (e) { say(errorText(e)); return; }
  $("share-link").value = link;
  const s = state();
  const system = s.galleryOrigin ?? s.info?.title ?? "";
  if (ticksFor !== system) {
    for (const box of $("embed-controls").querySelectorAll("input[type=checkbox]")) box.checked = false;
    $("embed-panel").replaceChildren();
    ticksFor = system;
  }
  fillPanelChoice();
  renderEmbedSnippet();
  const copied = copy ? await copyText(link) : false;
  $("share-link-label").textContent = t(copied ? "share.link" : "share.link.plain");
  $("share-dialog").showModal();
  (copy ? $("share-link") : $("embed-snippet")).select();
}

/** The Embed dialog's choice of panel: the scenario's plots, its stability panel when
 *  it has one, or nothing; the stability panel first where there is one. */
function fillPanelChoice() {
  const select = $("embed-panel");
  const previous = select.value;
  const s = state();
  const plots = (s.info?.layout?.panels ?? []).filter((/** @type {any} */ p) => p.kind !== "Scene");
  /** @type {[string, string][]} */
  const options = [
    ...(s.stability ? [["stability", t("share.panel.stability")]] : []),
    ...plots.map((/** @type {any} */ p) => [p.id.replace(/^plot-/, ""), p.title]),
    ["none", t("share.panel.none")],
  ];
  select.replaceChildren(...options.map(([value, text]) => el("option", { value, text })));
  if (options.some(([v]) => v === previous)) select.value = previous;
}

/** The iframe for course notes: as wide as the notes' column up to 720 px and in the
 *  proportion of 720 × 560 (never shorter than 460 px, where the plots still fit),
 *  showing the controls ticked in the dialog. */
function renderEmbedSnippet() {
  const s = state();
  if (!s.shareLink) return;
  /** @type {HTMLInputElement[]} */
  const boxes = [...$("embed-controls").querySelectorAll("input:checked")];
  const chosen = boxes.map((i) => i.value);
  if (!$("embed-panel").options.length) fillPanelChoice();
  fillParameterChoice(chosen.includes("parameters"));
  /** @type {HTMLInputElement[]} */
  const all = [...$("embed-parameters").querySelectorAll("input")];
  const ticked = all.filter((i) => i.checked).map((i) => i.value);
  const params = chosen.includes("parameters") && ticked.length < all.length ? `&params=${ticked.join(",")}` : "";
  const embed = new URL(s.shareLink);
  const lang = $("embed-language").value;
  embed.hash = embed.hash.replace(/&lang=[^&]*/, "");
  embed.hash += `&embed${chosen.length ? `&controls=${chosen.join(",")}` : ""}${params}&panel=${encodeURIComponent($("embed-panel").value)}${lang ? `&lang=${lang}` : ""}`;
  // The frame's title in the embed's language (a gallery item's translation), else
  // in the page's: what a screen reader says of the frame in the course's page.
  const origin = galleryWordsItem(s);
  const title = ((origin && galleryWordsIn(lang || language(), origin)?.title) ?? s.info.title).replace(/[<>&"]/g, "");
  // `class="nhlab"` is what the Help's sizing script looks for; the border is outside
  // the height a host sets (content-box), so that the height reported is the content's.
  // A fixed height (for a platform that runs no script): no class for the sizing
  // script to find, and the height as given; otherwise in proportion, then sized.
  const fixed = Math.round(Number($("embed-height").value));
  const size = fixed >= EMBED_MIN_HEIGHT && fixed <= EMBED_MAX_HEIGHT ? `height:${fixed}px` : "aspect-ratio:720/560;min-height:460px";
  const cls = size.startsWith("height") ? "" : ' class="nhlab"';
  $("embed-snippet").value = `<iframe${cls} src="${embed.href}" title="${title} — nhlab" loading="lazy" style="display:block;width:100%;max-width:720px;${size};border:1px solid #ccc;box-sizing:content-box"></iframe>`;
  previewEmbed(embed.href);
}

/** The heights a fixed-height embed may be given, in CSS pixels. */
const EMBED_MIN_HEIGHT = 300, EMBED_MAX_HEIGHT = 3000;

/** The Embed dialog's choice of the sliders an embed shows: a tick box a parameter,
 *  all ticked, shown only while "parameter sliders" is. Built once per system. */
function fillParameterChoice(/** @type {boolean} */ shown) {
  const box = $("embed-parameters");
  const parameters = state().info?.parameters ?? [];
  box.hidden = !shown || !(parameters.length > 1);
  const names = parameters.map((/** @type {any} */ p) => p.name);
  if (box.dataset.names === names.join(",")) return;
  box.dataset.names = names.join(",");
  box.querySelectorAll("label").forEach((/** @type {Element} */ l) => l.remove());
  for (const name of names) {
    const check = el("input", { type: "checkbox", value: name });
    check.checked = true;
    box.append(el("label", {}, check, ` ${name}`));
  }
}

/** The dialog's live preview: the embed itself, at half size, loaded a moment after
 *  the last change (each load starts a lab of its own). */
let previewTimer = /** @type {ReturnType<typeof setTimeout> | undefined} */ (undefined);
function previewEmbed(/** @type {string} */ href) {
  clearTimeout(previewTimer);
  if ($("embed-preview")?.dataset.src === href) return;
  previewTimer = setTimeout(() => {
    // Made when first needed: a page (or an embed) without the dialog open has no frame.
    let frame = $("embed-preview");
    if (!frame) {
      frame = el("iframe", { id: "embed-preview", title: t("share.preview.title") });
      frame.inert = true; // shown, not used: no focus, nothing read out
      $("embed-preview-box").append(frame);
    }
    frame.dataset.src = href;
    frame.src = href;
  }, PREVIEW_DELAY_MS);
}

/** Stops the preview (the dialog closed): its frame, and the lab in it, go. */
function stopEmbedPreview() {
  clearTimeout(previewTimer);
  $("embed-preview")?.remove();
}

/** How long the preview waits after a change before it loads, in ms. */
const PREVIEW_DELAY_MS = 400;
