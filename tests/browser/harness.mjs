// Shared set-up of the browser tests and the browser benchmark: a static server for
// dist/ on 127.0.0.1 (in this process, so it stops with it) and Debian's Chromium
// driven by playwright-core (never a downloaded browser).
import { before, after } from "node:test";
import http from "node:http";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
export const DIST = process.env.NHLAB_DIST ?? path.join(ROOT, "dist");
const TYPES = { ".html": "text/html", ".js": "text/javascript", ".wasm": "application/wasm", ".css": "text/css" };

/** Serves dist/ on a free port; resolves to { url, close }. */
export function serve() {
  if (!fs.existsSync(path.join(DIST, "index.html"))) {
    throw new Error(`${DIST}/index.html is missing: build with \`trunk build --release --offline\` first`);
  }
  const server = http.createServer((req, res) => {
    const name = decodeURIComponent(new URL(req.url, "http://x").pathname);
    const file = path.join(DIST, name === "/" ? "index.html" : name);
    if (!file.startsWith(DIST) || !fs.existsSync(file) || fs.statSync(file).isDirectory()) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { "content-type": TYPES[path.extname(file)] ?? "application/octet-stream" });
    fs.createReadStream(file).pipe(res);
  });
  return new Promise((resolve) => {
    server.listen(0, "127.0.0.1", () => {
      const url = `http://127.0.0.1:${server.address().port}/`;
      resolve({ url, close: () => new Promise((r) => server.close(r)) });
    });
  });
}

/** Serves dist/ and launches Chromium before a file's tests, closes both after them;
 *  `ready(server, browser)` hands them to the file. */
export function servedBrowser(ready) {
  let server, browser;
  before(async () => {
    server = await serve();
    browser = await launch();
    ready(server, browser);
  });
  after(async () => {
    await browser?.close();
    await server?.close();
  });
}

export async function launch() {
  return chromium.launch({
    executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium",
    headless: true,
    args: ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--disable-background-networking",
      "--disable-quic", "--no-first-run", "--disable-component-update", "--disable-sync"],
  });
}

/** A new page that records console errors, page errors and dialogs (none may happen;
 *  the question before leaving with unshared edits is counted in `page.leaveWarnings`). */
export async function open(browser, url, { viewport = { width: 1400, height: 1000 }, context } = {}) {
  const ctx = context ?? await browser.newContext({ viewport, acceptDownloads: true });
  const page = await ctx.newPage();
  const problems = [];
  page.on("pageerror", (e) => problems.push(`page error: ${e.message}`));
  page.on("console", (m) => { if (m.type() === "error") problems.push(`console error: ${m.text()}`); });
  // "Leave with unshared edits?" is the page's own question: counted and accepted.
  page.leaveWarnings = 0;
  page.on("dialog", async (d) => {
    if (d.type() === "beforeunload") { page.leaveWarnings++; await d.accept(); return; }
    problems.push(`dialog: ${d.message()}`);
    await d.dismiss();
  });
  await page.goto(url);
  await page.waitForSelector("body[data-ready='1']", { timeout: 30000 });
  return { page, problems, ctx };
}

/** Scrolls the equations into view: the full page derives them only once they come
 *  within a screen of it (issue 60: the helper's module is fetched when asked). */
export async function showEquations(page) {
  await page.locator("#eq-body").scrollIntoViewIfNeeded();
}

/** How many pixels of each canvas are neither white nor grid grey: drawn data. */
export async function inkPerCanvas(page) {
  return page.evaluate(() => [...document.querySelectorAll(".scene-slot canvas, .plots canvas")].filter((c) => c.getClientRects().length > 0).map((c) => {
    const d = c.getContext("2d").getImageData(0, 0, c.width, c.height).data;
    let ink = 0;
    for (let i = 0; i < d.length; i += 4) {
      const [r, g, b] = [d[i], d[i + 1], d[i + 2]];
      if (Math.max(r, g, b) - Math.min(r, g, b) > 60) ink++; // saturated: a method's colour
    }
    return { id: c.id, ink, width: c.width, height: c.height, css: c.dataset.cssSize, clock: document.getElementById("clock")?.textContent };
  }));
}

/** How many pixels of canvas `id` are within a small distance of each CSS colour. */
export async function colourPixels(page, id, colours) {
  return page.evaluate(({ id, colours }) => {
    const c = document.getElementById(id);
    const d = c.getContext("2d").getImageData(0, 0, c.width, c.height).data;
    const rgb = colours.map((h) => [1, 3, 5].map((i) => parseInt(h.slice(i, i + 2), 16)));
    const counts = rgb.map(() => 0);
    for (let i = 0; i < d.length; i += 4) {
      rgb.forEach(([r, g, b], k) => {
        if (Math.abs(d[i] - r) + Math.abs(d[i + 1] - g) + Math.abs(d[i + 2] - b) < 30) counts[k]++;
      });
    }
    return counts;
  }, { id, colours });
}

/** A digest of every canvas' pixels, to tell whether the plots changed. */
export async function canvasDigest(page) {
  return page.evaluate(() => [...document.querySelectorAll(".scene-slot canvas, .plots canvas")].filter((c) => c.getClientRects().length > 0).map((c) => c.toDataURL()).join("|"));
}

/** Brings line `line` (1-based) of the scenario editor into view, as a reader going
 *  there with the keys would: CodeMirror draws only the lines in view, so a mark on
 *  another line is not in the page (after a fill the caret is at the text's end). */
export async function revealEditorLine(page, line) {
  await page.locator("#editor-view").scrollIntoViewIfNeeded();
  await page.locator("#editor-view .cm-content").focus();
  await page.keyboard.press("Control+Home");
  for (let k = 1; k < line; k++) await page.keyboard.press("ArrowDown");
}

/** The text of a download triggered by clicking `selector`. */
export async function downloadText(page, selector) {
  const [download] = await Promise.all([page.waitForEvent("download"), page.click(selector)]);
  const file = await download.path();
  return { name: download.suggestedFilename(), text: fs.readFileSync(file, "utf8") };
}

/** axe-core's WCAG 2.2 A and AA rules on the page as it is now: the violations, each
 *  with the elements it found (empty when the page passes). */
export async function axeViolations(page, context = "body") {
  if (!(await page.evaluate(() => typeof window.axe !== "undefined"))) {
    await page.addScriptTag({ path: path.join(ROOT, "node_modules", "axe-core", "axe.min.js") });
  }
  return page.evaluate(async (context) => {
    const result = await window.axe.run(context, {
      runOnly: { type: "tag", values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"] },
      resultTypes: ["violations"],
    });
    // And the order of headings (axe's best practice, not a WCAG rule): no level skipped.
    const order = await window.axe.run(context, { runOnly: { type: "rule", values: ["heading-order"] }, resultTypes: ["violations"] });
    return [...result.violations, ...order.violations].map((v) => `${v.id} (${v.impact}): ${v.help} — ${v.nodes.slice(0, 4).map((n) => n.target.join(" ")).join(", ")}`);
  }, context);
}
