// Links: the share link and embed snippet, the address bar kept a link to what
// plays, opening from `#s=…`, `#gallery=…` and `&embed`, and the CSV export.

import { $, copyText, download, el, errorText, notice } from "./dom.js";
import { editorStatus, highlightProblem } from "./editing.js";
import { slug } from "./plots.js";
import { load } from "./runner.js";
import { galleryWordsIn, language, t } from "./i18n.js";

export function shareUrl(lab) {
  const url = new URL(location.href);
  url.search = "";
  // A gallery item as it is: the short link names it.
  const name = unchangedGalleryItem(lab);
  if (name !== null) {
    url.hash = `gallery=${encodeURIComponent(name)}${lab.linkLanguage ? `&lang=${lab.linkLanguage}` : ""}`;
    return url.href;
  }
  url.hash = `s=${lab.api.share_payload(lab.text)}${lab.linkLanguage ? `&lang=${lab.linkLanguage}` : ""}`; // throws why it cannot
  return url.href;
}

/** The Share dialog. From "Share link" (`copy`) the link is copied and the label says
 *  so; from "Embed" the clipboard is left alone (it silently took the link, issue 60)
 *  and the iframe is selected for its own Copy button. A new system starts with no
 *  controls ticked (they were the previous system's). */
export async function openShare(lab, { copy = true } = {}) {
  let link;
  try { link = shareUrl(lab); } catch (e) { notice(errorText(e)); return; }
  lab.unshared = false;
  history.replaceState(null, "", link);
  $("share-link").value = link;
  lab.shareLink = link;
  const system = lab.galleryOrigin ?? lab.info?.title ?? "";
  if (lab.embedTicksFor !== system) {
    for (const box of $("embed-controls").querySelectorAll("input[type=checkbox]")) box.checked = false;
    $("embed-panel").replaceChildren();
    lab.embedTicksFor = system;
  }
  fillPanelChoice(lab);
  renderEmbedSnippet(lab);
  const copied = copy ? await copyText(link) : false;
  $("share-link-label").textContent = t(copied ? "share.link" : "share.link.plain");
  $("share-dialog").showModal();
  (copy ? $("share-link") : $("embed-snippet")).select();
}

// ---------- help: the project's own documents, rendered at build time ----------

/** The controls an embedder may show besides the scene, its panel and playback
 *  (`#…&embed&controls=parameters,methods`). `stability` is the older way of asking
 *  for `&panel=stability`. */
export const EMBED_CONTROLS = ["parameters", "initial", "methods", "stability", "equations"];

/** The panel an embed shows beside the scene (`&panel=`): a plot's id (`trajectory`,
 *  `energy`, …), `stability` or `none`; empty for the first plot. */
export function embedPanel(lab) {
  return lab.embedPanel || (lab.embedControls.includes("stability") ? "stability" : "");
}

/** The Embed dialog's choice of panel: the scenario's plots, its stability panel when
 *  it has one, or nothing; the stability panel first where there is one. */
function fillPanelChoice(lab) {
  const select = $("embed-panel");
  const previous = select.value;
  const plots = (lab.info?.layout?.panels ?? []).filter((p) => p.kind !== "Scene");
  const options = [
    ...(lab.stability ? [["stability", t("share.panel.stability")]] : []),
    ...plots.map((p) => [p.id.replace(/^plot-/, ""), p.title]),
    ["none", t("share.panel.none")],
  ];
  select.replaceChildren(...options.map(([value, text]) => el("option", { value, text })));
  if (options.some(([v]) => v === previous)) select.value = previous;
}

/** The iframe for course notes: as wide as the notes' column up to 720 px and in the
 *  proportion of 720 × 560 (never shorter than 460 px, where the plots still fit),
 *  showing the controls ticked in the dialog. */
export function renderEmbedSnippet(lab) {
  const chosen = [...$("embed-controls").querySelectorAll("input:checked")].map((i) => i.value);
  if (!$("embed-panel").options.length) fillPanelChoice(lab);
  fillParameterChoice(lab, chosen.includes("parameters"));
  const all = [...$("embed-parameters").querySelectorAll("input")];
  const ticked = all.filter((i) => i.checked).map((i) => i.value);
  const params = chosen.includes("parameters") && ticked.length < all.length ? `&params=${ticked.join(",")}` : "";
  const embed = new URL(lab.shareLink);
  const lang = $("embed-language").value;
  embed.hash = embed.hash.replace(/&lang=[^&]*/, "");
  embed.hash += `&embed${chosen.length ? `&controls=${chosen.join(",")}` : ""}${params}&panel=${encodeURIComponent($("embed-panel").value)}${lang ? `&lang=${lang}` : ""}`;
  // The frame's title in the embed's language (a gallery item's translation), else
  // in the page's: what a screen reader says of the frame in the course's page.
  const origin = galleryWordsItem(lab);
  const title = ((origin && galleryWordsIn(lang || language(), origin)?.title) ?? lab.info.title).replace(/[<>&"]/g, "");
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
function fillParameterChoice(lab, shown) {
  const box = $("embed-parameters");
  box.hidden = !shown || !(lab.info?.parameters?.length > 1);
  const names = (lab.info?.parameters ?? []).map((p) => p.name);
  if (box.dataset.names === names.join(",")) return;
  box.dataset.names = names.join(",");
  box.querySelectorAll("label").forEach((l) => l.remove());
  for (const name of names) {
    const check = el("input", { type: "checkbox", value: name });
    check.checked = true;
    box.append(el("label", {}, check, ` ${name}`));
  }
}

/** The dialog's live preview: the embed itself, at half size, loaded a moment after
 *  the last change (each load starts a lab of its own). */
let previewTimer = null;
function previewEmbed(href) {
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
export function stopEmbedPreview() {
  clearTimeout(previewTimer);
  $("embed-preview")?.remove();
}

/** How long the preview waits after a change before it loads, in ms. */
const PREVIEW_DELAY_MS = 400;

export async function exportCsv(lab) {
  // The whole run, computed in the worker apart from the playing one, so the file is
  // the command line's whatever the playback position; the button cancels it.
  const button = $("export-csv");
  if (lab.exporting) { lab.helper.replace("export cancelled"); return; }
  if (lab.inputsMoved) {
    // Inputs moved by hand: the run cannot be computed again from the text, so the
    // file holds the samples the runs have recorded so far, as played.
    const answer = await lab.runner.ask("csvPlayed");
    if (!answer.ok) { notice(t("csv.failed", { why: answer.error })); return; }
    download(`${slug(lab)}-as-played.csv`, new Blob([answer.result], { type: "text/csv" }));
    notice(t("csv.as-played", { t: lab.clock.toFixed(3) }), "info");
    return;
  }
  const label = button.textContent;
  lab.exporting = true;
  button.textContent = t("csv.cancel");
  const answer = await lab.helper.ask("csv", { text: lab.text }, {
    onProgress: (x) => { button.textContent = t("csv.cancel.progress", { percent: Math.round(100 * x) }); },
  });
  lab.exporting = false;
  button.textContent = label;
  if (answer.ok) download(`${slug(lab)}.csv`, new Blob([answer.result], { type: "text/csv" }));
  else if (answer.cancelled) notice(t("csv.cancelled"), "info");
  else notice(t("csv.failed", { why: answer.error }));
}

// ---------- the fragment: #s=…, #gallery=…, &embed ----------

/** Tells the page embedding this one how tall its content is, whenever that changes,
 *  so that a host can size the frame: `{type: "nhlab:height", height}` (documented in
 *  the lab's help) and Canvas LMS's `{subject: "lti.frameResize", height}`, which
 *  course platforms built on it listen for. Heights in CSS pixels. */
let reportingHeight = false;

function reportHeight() {
  if (reportingHeight || window.parent === window) return; // once (a new fragment does not add another)
  reportingHeight = true;
  let last = -1;
  const filled = window.matchMedia("(min-width: 600px)");
  const post = () => {
    const height = Math.ceil(document.documentElement.scrollHeight);
    // A wide frame is filled by its content, so its height is the frame's own: a
    // smaller one is the host's doing (a border counted in the height it set), and
    // saying it back shrank the frame again, 2 px a message, to its minimum (issue
    // 60). It reports its first height and any growth; a narrow frame, whose content
    // has a height of its own, every change.
    if (height === last || (filled.matches && last !== -1 && height < last)) return;
    last = height;
    window.parent.postMessage({ type: "nhlab:height", height }, "*");
    window.parent.postMessage({ subject: "lti.frameResize", height }, "*");
  };
  new ResizeObserver(post).observe(document.body);
  post();
}

/** Keeps the address bar a link to what plays: `#gallery=` while that item's text
 *  is unchanged, else the running text's share link (its comments and layout
 *  included), so that a reload or a copied address opens what is on the screen. */
/** The name of the gallery item playing, when its text is unchanged; else null. */
/** The gallery item whose translated title, hint and description stand for the text:
 *  its own, with any values changed (a slider moved), but not its words; or null. */
export function galleryWordsItem(lab) {
  if (!lab.galleryOrigin) return null;
  try { return lab.api.gallery_words_stand(lab.text, lab.galleryOrigin) ? lab.galleryOrigin : null; } catch { return null; }
}

export function unchangedGalleryItem(lab) {
  if (!lab.galleryOrigin) return null;
  try { return lab.api.gallery_text(lab.galleryOrigin) === lab.text ? lab.galleryOrigin : null; } catch { return null; }
}

export function syncAddress(lab) {
  let original = null;
  if (lab.galleryOrigin) try { original = lab.api.gallery_text(lab.galleryOrigin); } catch { original = null; }
  const edited = original !== null && lab.text !== original;
  const embed = embedSuffix(lab);
  let hash = null;
  if (original !== null && !edited) hash = `#gallery=${encodeURIComponent(lab.galleryOrigin)}`;
  else {
    try { hash = `#s=${lab.api.share_payload(lab.text)}`; } catch { hash = null; } // too long to be a link
  }
  if (hash !== null) history.replaceState(null, "", hash + embed);
  $("edited-mark").hidden = !edited;
  const option = [...$("gallery").options].find((o) => o.value === lab.galleryOrigin);
  if (option) option.textContent = option.dataset.title + (edited ? t("gallery.edited") : "");
}

/** What the address keeps after the scenario: the language a link named, and in
 *  embed mode what the embed shows. */
export function embedSuffix(lab) {
  const lang = lab.linkLanguage ? `&lang=${lab.linkLanguage}` : "";
  if (!lab.embed) return lang;
  const shown = lab.embedParameters ? `&params=${lab.embedParameters.join(",")}` : "";
  return `${lang}&embed${lab.embedControls.length ? `&controls=${lab.embedControls.join(",")}` : ""}${shown}${lab.embedPanel ? `&panel=${encodeURIComponent(lab.embedPanel)}` : ""}`;
}

export function parseFragment() {
  const params = new URLSearchParams(location.hash.replace(/^#/, ""));
  const query = new URLSearchParams(location.search);
  const controls = (params.get("controls") ?? query.get("controls") ?? "").split(",").filter((c) => EMBED_CONTROLS.includes(c));
  // A panel's id: letters, digits and dashes (anything else is ignored).
  const panel = (params.get("panel") ?? query.get("panel") ?? "").replace(/[^a-z0-9-]/gi, "");
  // The parameters an embed's sliders show (`&params=m,r`): names only; none given, all.
  const named = params.get("params") ?? query.get("params");
  const shownParameters = named === null ? null : named.split(",").filter((n) => /^[A-Za-z_][A-Za-z0-9_]*$/.test(n));
  return { share: params.get("s"), gallery: params.get("gallery"), embed: params.has("embed") || query.has("embed"), controls, panel, shownParameters };
}

export function openGallery(lab, name, { message } = {}) {
  let text;
  try { text = lab.api.gallery_text(name); } catch (e) { notice(errorText(e)); return false; }
  lab.galleryName = name;
  lab.galleryOrigin = name;
  $("gallery").value = name;
  if (message) notice(message); else notice(null);
  load(lab, text, { trusted: true });
  return true;
}

/** A fresh task: what follows runs after the page has had its turn (input, a frame). */
const nextTask = () => new Promise((resolve) => setTimeout(resolve, 0));

/** Opens a share payload: its scenario plays, or, when it has problems, shows in the
 *  editor with them while the default system plays. */
async function openSharedScenario(lab, payload) {
  let text;
  try {
    text = lab.api.share_to_toml(payload);
  } catch (e) {
    openGallery(lab, lab.api.gallery_default(), { message: t("link.default-instead", { why: errorText(e) }) });
    return;
  }
  const ok = await load(lab, text);
  if (ok !== false) return;
  // Show the link's scenario and its problems; the default system plays meanwhile.
  const status = lab.status?.message ?? "";
  if (!lab.display) await load(lab, lab.api.gallery_text(lab.api.gallery_default()), { fromEditor: true, trusted: true });
  await nextTask();
  $("editor").value = text;
  await nextTask();
  editorStatus(lab, status, "error");
  highlightProblem(lab, status);
  notice(t(lab.loadTimedOut ? "link.too-slow" : "link.problems"));
}

export function openFromFragment(lab) {
  const f = parseFragment();
  lab.embed = f.embed;
  lab.embedControls = f.embed ? f.controls : [];
  lab.embedPanel = f.embed ? f.panel : "";
  lab.embedParameters = f.embed ? f.shownParameters : null;
  document.body.classList.toggle("embed", f.embed);
  for (const c of EMBED_CONTROLS) document.body.classList.toggle(`show-${c}`, lab.embedControls.includes(c));
  const panel = embedPanel(lab);
  for (const kind of ["none", "stability", "plot"]) {
    document.body.classList.toggle(`panel-${kind}`, f.embed && (panel === kind || (kind === "plot" && !["none", "stability"].includes(panel))));
  }
  if (f.embed) reportHeight();
  document.body.classList.toggle("with-controls", lab.embedControls.some((c) => ["parameters", "initial", "methods"].includes(c)));
  const full = new URL(location.href);
  full.search = "";
  full.hash = full.hash.replace(/&?embed\b/, "").replace(/&?controls=[^&]*/, "").replace(/&?params=[^&]*/, "").replace(/&?panel=[^&]*/, "");
  $("open-full").href = full.href;
  if (f.share !== null) {
    // In tasks of their own: reading a megabyte-long link, putting it in the editor
    // (the page's first layout with it) and marking its problems were one task of
    // 0.3–0.45 s, on top of the page's start.
    lab.galleryName = null;
    lab.galleryOrigin = null;
    $("gallery").value = "";
    notice(null);
    nextTask().then(() => openSharedScenario(lab, f.share));
    return;
  }
  if (f.gallery !== null) {
    if (!openGallery(lab, f.gallery)) {
      openGallery(lab, lab.api.gallery_default(), { message: t("link.no-item", { name: f.gallery }) });
    }
    return;
  }
  openGallery(lab, lab.api.gallery_default());
}

// ---------- playback ----------
