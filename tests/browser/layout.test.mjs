// The page as a teaching instrument (issue 39): the moving system first on every
// screen size and in embeds, a legend that never moves the page, embeds laid out by
// their frame's size that report their height to the host, short gallery links.
// Screenshots of each layout go to target/screenshots/.
// Run: node --test tests/browser/   (scripts/test.sh builds dist/ first)
import { test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { ROOT, open, servedBrowser, showEquations } from "./harness.mjs";

let server, browser;
const SHOTS = process.env.NHLAB_SCREENSHOTS ?? path.join(ROOT, "target", "screenshots");
servedBrowser((s, b) => { server = s; browser = b; });

/** Where the scene's canvas is against the viewport, once the first frame is drawn. */
async function sceneBox(page) {
  await page.waitForSelector("#plot-scene");
  return page.evaluate(() => {
    const r = document.getElementById("plot-scene").getBoundingClientRect();
    return { top: r.top, bottom: r.bottom, left: r.left, right: r.right, width: r.width, height: r.height, vw: innerWidth, vh: innerHeight, scrollY };
  });
}

const LAYOUTS = [
  { name: "desktop-1400x900", url: "#gallery=chaplygin-sleigh", viewport: { width: 1400, height: 900 } },
  { name: "phone-390x844", url: "#gallery=chaplygin-sleigh", viewport: { width: 390, height: 844 } },
  { name: "embed-720x560", url: "#gallery=rolling-disk&embed", viewport: { width: 720, height: 560 } },
  { name: "embed-360x460", url: "#gallery=rolling-disk&embed", viewport: { width: 360, height: 460 } },
  { name: "bicycle-1400x900", url: "#gallery=whipple-bicycle", viewport: { width: 1400, height: 900 } },
];

for (const l of LAYOUTS) {
  test(`the scene is in the first view: ${l.name}`, async () => {
    const { page, problems, ctx } = await open(browser, `${server.url}${l.url}`, { viewport: l.viewport });
    const b = await sceneBox(page);
    const what = `${l.name}: ${JSON.stringify(b)}`;
    assert.equal(b.scrollY, 0, what);
    assert.ok(b.top >= 0 && b.bottom <= b.vh + 0.5, `the whole scene in the first view (${what})`);
    assert.ok(b.left >= 0 && b.right <= b.vw + 0.5, `no wider than the view (${what})`);
    assert.ok(b.height >= 180 && b.width >= 300, `big enough to watch (${what})`);
    // Playback is in the first view too, beside or under the scene.
    const play = await page.evaluate(() => { const r = document.getElementById("play").getBoundingClientRect(); return r.bottom <= innerHeight && r.top >= 0; });
    assert.ok(play, `the Play button in the first view (${l.name})`);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    assert.ok(overflow <= 0, `no sideways scrolling (${overflow} px, ${l.name})`);
    await page.waitForTimeout(300);
    await page.screenshot({ path: path.join(SHOTS, `layout-${l.name}.png`) });
    assert.deepEqual(problems, []);
    await ctx.close();
  });
}

test("the legend never moves the page: layout shift while Hamel's run ends is at most 0.01", async () => {
  const { page, problems, ctx } = await open(browser, `${server.url}#gallery=chaplygin-sleigh`, { viewport: { width: 1400, height: 900 } });
  await page.waitForSelector("#plot-scene");
  await page.waitForFunction(() => document.querySelectorAll("#legend li").length === 3);
  // Measured from here: the page has loaded and plays.
  await page.evaluate(() => {
    window.__shift = 0;
    window.__shifts = [];
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) {
        if (e.hadRecentInput) continue;
        window.__shift += e.value;
        window.__shifts.push({ value: e.value, sources: (e.sources ?? []).map((s) => s.node?.id || s.node?.className || s.node?.nodeName) });
      }
    }).observe({ type: "layout-shift" });
  });
  // Hamel's embedding ends at t ≈ 1.14 (its split is singular there).
  await page.waitForFunction(() => document.querySelector("#legend li.ended"), null, { timeout: 30000 });
  await page.waitForFunction(() => /hamel: Hamel's embedding ends at t = 1\.14/.test(document.getElementById("legend-ends").textContent));
  await page.waitForTimeout(500);
  const shift = await page.evaluate(() => ({ total: window.__shift, shifts: window.__shifts }));
  assert.ok(shift.total <= 0.01, `cumulative layout shift ${shift.total}: ${JSON.stringify(shift.shifts)}`);
  await page.screenshot({ path: path.join(SHOTS, "layout-legend-ended.png") });
  assert.deepEqual(problems, []);
  await ctx.close();
});

test("the share link of an unchanged gallery item is the short #gallery= link", async () => {
  const { page, problems, ctx } = await open(browser, `${server.url}#gallery=whipple-bicycle`);
  await page.click("#share");
  assert.equal(await page.inputValue("#share-link"), `${server.url}#gallery=whipple-bicycle`);
  // The Embed dialog: the panel beside the scene, chosen from the scenario's.
  const options = await page.$$eval("#embed-panel option", (o) => o.map((x) => x.value));
  assert.ok(options.includes("none") && options.length >= 3, JSON.stringify(options));
  await page.selectOption("#embed-panel", "none");
  assert.match(await page.inputValue("#embed-snippet"), /src="[^"]*#gallery=whipple-bicycle&embed&panel=none"/);
  await page.click("#close-share");
  // Edited, it carries the text.
  await page.fill(".param input[aria-label='g']", "9.7");
  await page.press(".param input[aria-label='g']", "Enter");
  // Loaded (the address bar follows what plays).
  await page.waitForFunction(() => location.hash.startsWith("#s="), null, { timeout: 20000 });
  await page.click("#share");
  assert.match(await page.inputValue("#share-link"), /#s=2\./);
  await page.click("#close-share");
  assert.deepEqual(problems, []);
  await ctx.close();
});

/** Opens `address` in a fresh 720×560 context (nothing cached), `before(page)` first;
 *  once `drawn` holds (by default: every panel shows the latest data, which on a full
 *  page that plays can take seconds), returns what `after(page)` gives (no page errors
 *  allowed). */
async function coldOpen(address, before, after, drawn = "body[data-drawn='1']") {
  const ctx = await browser.newContext({ viewport: { width: 720, height: 560 } });
  const page = await ctx.newPage();
  const problems = [];
  page.on("pageerror", (e) => problems.push(e.message));
  await before?.(page);
  await page.goto(address);
  await page.waitForSelector(drawn, { timeout: 30000 });
  const seen = await after(page);
  await ctx.close();
  assert.deepEqual(problems, []);
  return seen;
}

test("an embed loads the page's and the runner's modules, and the helper's only when it shows what the helper computes; the full page when asked", async () => {
  const modulesOf = async (address, then = async () => {}) => {
    const requested = [];
    await coldOpen(address, async (page) => {
      page.on("request", (r) => requested.push(new URL(r.url()).pathname.split("/").pop()));
    }, async (page) => {
      await page.waitForSelector("body[data-ready='1']", { timeout: 30000 });
      await then(page);
      await page.waitForTimeout(1500); // anything asked for after the first frame
    });
    return ["page", "runner", "helper"].filter((kind) => requested.some((f) => f.startsWith(`nhlab-${kind}-`) && f.endsWith("_bg.wasm")))
      .concat(requested.includes("editor.js") ? ["editor"] : []);
  };
  assert.deepEqual(await modulesOf(`${server.url}#gallery=chaplygin-sleigh&embed`), ["page", "runner"]);
  assert.deepEqual(await modulesOf(`${server.url}#gallery=rolling-disk&embed&panel=stability`), ["page", "runner", "helper"]);
  assert.deepEqual(await modulesOf(`${server.url}#gallery=chaplygin-sleigh&embed&controls=equations`), ["page", "runner", "helper"]);
  // The whole page (issue 60): the helper's module once something asks for it — the
  // equations come into view, or a stability panel is shown — and the editor.
  assert.deepEqual(await modulesOf(`${server.url}#gallery=coin-slipping`), ["page", "runner", "editor"]);
  assert.deepEqual(await modulesOf(`${server.url}#gallery=coin-slipping`, showEquations), ["page", "runner", "helper", "editor"]);
  assert.deepEqual(await modulesOf(server.url), ["page", "runner", "helper", "editor"], "the sleigh's stability panel");
});

test("the first runner opens the first scenario before the page asks (a gallery item, a share link, the default, in Chinese), and anything else as usual", async () => {
  // What it reads is settled at the first frame.
  const firstOpen = (address) => coldOpen(address, null, (page) => page.evaluate(() => ({ ahead: window.nhlabPerf.firstOpenedAhead,
    title: document.getElementById("title").textContent, editor: document.getElementById("editor").value, lang: document.documentElement.lang })),
  "body[data-ready='1']");
  const disk = await firstOpen(`${server.url}#gallery=rolling-disk&embed`);
  assert.equal(disk.ahead, true);
  assert.match(disk.title, /disk/i);
  // A share link of an edited text: inflated in the page's head, the same bytes as the editor's.
  const { page: maker, ctx: makerCtx } = await open(browser, server.url);
  const edited = await maker.evaluate(() => window.wasmBindings.gallery_text("chaplygin-sleigh").replace(/^title = .*$/m, 'title = "A sleigh shared as a link"'));
  const payload = await maker.evaluate((text) => window.wasmBindings.share_payload(text), edited);
  const json = JSON.stringify({ format: "nhlab/1", title: "An oscillator shared as JSON", coordinates: ["x"], kinetic: "x'^2/2",
    potential: "x^2/2", initial: { q: { x: 1 } } }, null, 1);
  const jsonPayload = await maker.evaluate((text) => window.wasmBindings.share_payload(text), json);
  await makerCtx.close();
  const shared = await firstOpen(`${server.url}#s=${payload}&embed`);
  assert.equal(shared.ahead, true);
  assert.equal(shared.editor, edited);
  assert.equal(shared.title, "A sleigh shared as a link");
  // A JSON text shared as a link: the runner reads JSON as it reads TOML.
  const sharedJson = await firstOpen(`${server.url}#s=${jsonPayload}&embed`);
  assert.equal(sharedJson.ahead, true);
  assert.equal(sharedJson.editor, json);
  assert.equal(sharedJson.title, "An oscillator shared as JSON");
  // The default item on the bare address, and a link in Chinese (the texts the runner makes are in the page's language).
  assert.equal((await firstOpen(server.url)).ahead, true);
  const zh = await firstOpen(`${server.url}#gallery=rolling-disk&lang=zh`);
  assert.equal(zh.ahead, true);
  assert.equal(zh.lang, "zh-CN");
  // An item the gallery lacks: nothing is opened ahead, and the default plays with the page's message.
  const missing = await firstOpen(`${server.url}#gallery=no-such-item&embed`);
  assert.equal(missing.ahead, false);
  assert.match(missing.title, /sleigh/i);
  // A damaged link: nothing ahead; the page says what is wrong, the default plays.
  const damaged = await firstOpen(`${server.url}#s=2.${payload.slice(2, 40)}&embed`);
  assert.equal(damaged.ahead, false);
  assert.match(damaged.title, /sleigh/i);
});

test("an embed reports its content height to the host page (nhlab:height and lti.frameResize), and shows the panel it is told to", async () => {
  const ctx = await browser.newContext({ viewport: { width: 900, height: 900 } });
  const page = await ctx.newPage();
  const problems = [];
  page.on("pageerror", (e) => problems.push(e.message));
  page.on("console", (m) => { if (m.type() === "error") problems.push(m.text()); });
  const host = (src, width, height) => `<!doctype html><body style="margin:0">
    <script>window.heights = []; window.lti = [];
      addEventListener("message", (e) => {
        if (e.data?.type === "nhlab:height") window.heights.push(e.data.height);
        if (e.data?.subject === "lti.frameResize") window.lti.push(e.data.height);
      });</script>
    <iframe src="${src}" width="${width}" height="${height}" style="border:0;display:block"></iframe></body>`;
  const cases = [
    { src: `${server.url}#gallery=rolling-disk&embed&panel=stability`, width: 720, height: 560, panel: "#stability" },
    { src: `${server.url}#gallery=chaplygin-sleigh&embed&panel=energy`, width: 720, height: 560, panel: "#plot-energy" },
    { src: `${server.url}#gallery=chaplygin-sleigh&embed`, width: 360, height: 460, panel: "#plots .fig.chosen canvas" },
  ];
  const requested = [];
  page.on("request", (r) => requested.push(new URL(r.url()).pathname));
  for (const c of cases) {
    await page.setContent(host(c.src, c.width, c.height));
    const frame = await (await page.waitForSelector("iframe")).contentFrame();
    await frame.waitForSelector("body[data-ready='1']", { timeout: 30000 });
    await frame.waitForSelector("#plot-scene");
    await frame.waitForSelector(c.panel, { state: "visible", timeout: 20000 });
    await page.waitForTimeout(400);
    const content = await frame.evaluate(() => Math.ceil(document.documentElement.scrollHeight));
    await page.waitForFunction((h) => window.heights.at(-1) === h && window.lti.at(-1) === h, content, { timeout: 5000 })
      .catch(async () => assert.fail(`reported ${JSON.stringify(await page.evaluate(() => [window.heights, window.lti]))}, content ${content}`));
    // Only the one panel beside the scene.
    const shown = await frame.$$eval("#plots > .fig, #stability", (f) => f.filter((x) => x.getBoundingClientRect().height > 0).map((x) => x.id));
    assert.equal(shown.length, 1, JSON.stringify(shown));
    if (c.width >= 600) assert.equal(content, c.height, `a wide frame is filled, not scrolled (${c.src})`);
    else assert.ok(content > c.height, `a narrow frame is as tall as its content: the host sizes it (${content})`);
    // A host that sizes the frame to the reported height: the height holds (no growth).
    await page.evaluate((h) => { document.querySelector("iframe").height = String(h); }, content);
    await page.waitForTimeout(500);
    const after = await frame.evaluate(() => Math.ceil(document.documentElement.scrollHeight));
    assert.equal(after, content, `resized to its height, the content keeps it (${c.src})`);
    await page.screenshot({ path: path.join(SHOTS, `embed-host-${c.width}x${c.height}-${c.panel.replace(/[^a-z]+/g, "-")}.png`), fullPage: true });
  }
  // An embed loads no editor (several on one course page stay light).
  assert.ok(requested.some((p) => p.endsWith(".wasm")), requested.join(" "));
  assert.ok(!requested.some((p) => p.endsWith("/editor.js")), `no editor bundle: ${requested.join(" ")}`);
  assert.deepEqual(problems, []);
  await ctx.close();
});

test("the Embed dialog's snippet with the Help's sizing script settles after one message per change, nothing cut off, whatever the frame's border", async () => {
  // Issue 60.2: the snippet's border with box-sizing:border-box made each height the
  // frame was given 2 px short of the one reported; the frame shrank, message after
  // message (204 for two frames), to its 460 px minimum, and Play was gone.
  const author = await browser.newContext({ viewport: { width: 1200, height: 900 } });
  const authorPage = await author.newPage();
  await authorPage.goto(`${server.url}#gallery=rolling-disk`);
  await authorPage.waitForSelector("body[data-ready='1']");
  await authorPage.click("#embed-open");
  await authorPage.check("#embed-controls input[value='parameters']");
  const disk = await authorPage.inputValue("#embed-snippet");
  await authorPage.click("#close-share");
  await authorPage.selectOption("#gallery", "chaplygin-sleigh");
  await authorPage.waitForFunction(() => document.querySelector("h1").textContent === "Chaplygin sleigh");
  await authorPage.click("#embed-open");
  const sleigh = await authorPage.inputValue("#embed-snippet");
  await author.close();
  assert.match(disk, /^<iframe class="nhlab" /);
  // The Help's own script, as printed in docs/lab.md, and a platform that applies
  // Canvas's message too; a third frame styled as the old snippet (border-box),
  // which the Help's script sizes with its border counted in.
  const docs = fs.readFileSync(path.join(ROOT, "docs", "lab.md"), "utf8");
  const script = /```html\n\s*(<script>[\s\S]*?<\/script>)\n\s*```/.exec(docs)[1];
  const old = sleigh.replace("box-sizing:content-box", "box-sizing:border-box").replace('class="nhlab"', 'class="nhlab old"');
  const host = `<!doctype html><body style="margin:0;padding:8px;width:720px">
    <script>window.count = new Map();
      addEventListener("message", (e) => {
        const f = [...document.querySelectorAll("iframe")].find((f) => f.contentWindow === e.source);
        if (!f) return;
        if (e.data?.type === "nhlab:height") window.count.set(f.title + f.className, (window.count.get(f.title + f.className) ?? 0) + 1);
        // A platform applying Canvas's message as it is, to the snippet's frames.
        if (e.data?.subject === "lti.frameResize" && f.className === "nhlab") f.style.height = e.data.height + "px";
      });</script>${script}${disk}${sleigh}${old}</body>`;
  for (const width of [900, 390]) {
    const ctx = await browser.newContext({ viewport: { width, height: 800 } });
    const page = await ctx.newPage();
    const problems = [];
    page.on("pageerror", (e) => problems.push(e.message));
    // (Loaded at once: a lazy frame below the fold would wait to be scrolled to.)
    await page.setContent(host.replace("width:720px", `width:${width - 16}px`).replaceAll(' loading="lazy"', ""));
    // An embed starts when it comes into view: each is scrolled to.
    for (const [k, frame] of page.frames().slice(1).entries()) {
      await page.locator("iframe").nth(k).scrollIntoViewIfNeeded();
      await frame.waitForSelector("body[data-ready='1']", { timeout: 30000 });
    }
    await page.waitForTimeout(2500);
    const settled = await page.evaluate(() => [...document.querySelectorAll("iframe")].map((f) => f.getBoundingClientRect().height));
    await page.waitForTimeout(1000);
    const later = await page.evaluate(() => [...document.querySelectorAll("iframe")].map((f) => f.getBoundingClientRect().height));
    assert.deepEqual(later, settled, `the heights hold (${width} px)`);
    const counts = await page.evaluate(() => [...window.count.values()]);
    assert.ok(counts.length === 3 && counts.every((n) => n <= 6), `a few messages each (${counts}; 204 before) at ${width} px`);
    for (const [k, frame] of page.frames().slice(1).entries()) {
      const { sh, ch } = await frame.evaluate(() => ({ sh: document.documentElement.scrollHeight, ch: document.documentElement.clientHeight }));
      assert.ok(sh <= ch + 1, `frame ${k} at ${width} px: nothing cut off (${sh} of content in ${ch})`);
      assert.ok(await frame.isVisible("#play"), `frame ${k} at ${width} px: Play is there`);
    }
    assert.ok(settled.every((h) => h >= 460), `no frame collapsed (${settled})`);
    assert.deepEqual(problems, []);
    await ctx.close();
  }
});
