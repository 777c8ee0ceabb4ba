// @ts-check
// Embed mode (`&embed`): the page laid out for an iframe in course notes — the
// classes that choose what shows, the link to the full lab, and the height told to
// the page around it.

import { $ } from "../dom.js";
import { store } from "../store.js";
import { EMBED_CONTROLS, embedPanel } from "../services/links.js";

export function wireEmbed() {
  store.subscribe(["embed", "embedControls", "embedPanel", "embedParameters"], (s) => {
    document.body.classList.toggle("embed", s.embed);
    for (const c of EMBED_CONTROLS) document.body.classList.toggle(`show-${c}`, s.embedControls.includes(c));
    const panel = embedPanel(s);
    for (const kind of ["none", "stability", "plot"]) {
      document.body.classList.toggle(`panel-${kind}`, s.embed && (panel === kind || (kind === "plot" && !["none", "stability"].includes(panel))));
    }
    if (s.embed) reportHeight();
    document.body.classList.toggle("with-controls", s.embedControls.some((c) => ["parameters", "initial", "methods"].includes(c)));
  });
  // "Open in the full lab" opens what the embed shows, values moved included: its
  // address after the address has followed the text (actions.js, after the update).
  store.subscribe(["embed", "text"], ({ embed }) => { if (embed) queueMicrotask(linkFullLab); });
}

/** The full lab's address: this one without what makes it an embed. */
function linkFullLab() {
  const full = new URL(location.href);
  full.search = "";
  full.hash = full.hash.replace(/&?embed\b/, "").replace(/&?controls=[^&]*/, "").replace(/&?params=[^&]*/, "").replace(/&?panel=[^&]*/, "");
  $("open-full").href = full.href;
}

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
