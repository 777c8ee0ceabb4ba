// Every embed the Embed dialog can make lays out (issue 60.1): at 720 × 560 (the
// dialog's own frame) with each choice of controls and of panel, and at 390 × 600 and
// 360 × 460 with each choice of either kind (FRAMES), the scene is at least 200 px
// tall, no part covers another and every control can be reached (scrolled to, and the topmost thing at its centre), and axe-core finds
// no violation of WCAG 2.2 AA (nor of the order of headings). Before, ticking
// "parameter sliders" with the stability panel at 720 × 560 shrank the scene to 120 px
// and laid the panel over Play.
// Run: node --test tests/browser/   (scripts/test.sh builds dist/ first)
import { test } from "node:test";
import assert from "node:assert/strict";
import { axeViolations, open, servedBrowser } from "./harness.mjs";

let server, browser;
servedBrowser((s, b) => { server = s; browser = b; });

/** The dialog's choices, one of each kind of layout: no column of controls, one card,
 *  every card, the equations alone, and everything. */
const CONTROLS = ["", "parameters", "parameters,initial,methods", "equations", "parameters,initial,methods,equations"];
/** The panel beside the scene: the stability panel, the first plot, none. */
const PANELS = ["stability", "", "none"];
/** Every combination at the dialog's own frame; at the narrower frames, where the
 *  embed lays out in one column, each choice of controls once with the panels in turn
 *  (so every choice of each kind is seen there) and the fullest layout. Each layout is a
 *  page load of about 2.7 s: all 45 took two minutes of the test command. */
const every = CONTROLS.flatMap((controls) => PANELS.map((panel) => ({ controls, panel })));
const sampled = (offset) => CONTROLS.map((controls, i) => ({ controls, panel: PANELS[(i + offset) % PANELS.length] }))
  .concat([{ controls: CONTROLS.at(-1), panel: "stability" }])
  .filter((l, i, all) => all.findIndex((o) => o.controls === l.controls && o.panel === l.panel) === i);
const FRAMES = [
  { viewport: { width: 720, height: 560 }, lang: "zh", layouts: every },
  { viewport: { width: 390, height: 600 }, lang: "en", layouts: sampled(0) },
  { viewport: { width: 360, height: 460 }, lang: "zh", layouts: sampled(1) },
];

/** The scene's height, the parts that overlap, and the controls that cannot be reached. */
function inspect(page) {
  return page.evaluate(() => {
    const box = (e) => { const b = e.getBoundingClientRect(); return { l: b.left, t: b.top + scrollY, r: b.right, b: b.bottom + scrollY, h: b.height }; };
    const shown = (e) => e && e.getClientRects().length > 0 && getComputedStyle(e).display !== "none";
    const parts = { scene: "#plot-scene", stability: "#stability", plots: "#plots", transport: ".transport", legend: "#legend", ends: "#legend-ends", side: ".side", equations: ".equations" };
    const boxes = Object.fromEntries(Object.entries(parts).map(([k, s]) => [k, document.querySelector(s)]).filter(([, e]) => shown(e)).map(([k, e]) => [k, box(e)]));
    const overlaps = [];
    const names = Object.keys(boxes);
    for (let i = 0; i < names.length; i++) for (let j = i + 1; j < names.length; j++) {
      const [a, b] = [boxes[names[i]], boxes[names[j]]];
      if (Math.min(a.r, b.r) - Math.max(a.l, b.l) > 1 && Math.min(a.b, b.b) - Math.max(a.t, b.t) > 1) overlaps.push(`${names[i]} and ${names[j]}`);
    }
    const unreachable = [];
    for (const e of document.querySelectorAll("button, input, select, summary, textarea")) {
      if (!shown(e) || e.closest("[hidden], dialog:not([open])") || e.type === "hidden") continue;
      e.scrollIntoView({ block: "center", inline: "center" });
      const b = e.getBoundingClientRect();
      const [x, y] = [b.left + b.width / 2, b.top + Math.min(b.height / 2, 10)];
      const hit = x >= 0 && y >= 0 && x < innerWidth && y < innerHeight ? document.elementFromPoint(x, y) : null;
      const mine = hit && (hit === e || e.contains(hit) || hit.contains(e) || hit.closest("label")?.contains(e));
      if (!mine) unreachable.push(`${e.id || e.getAttribute("aria-label") || e.textContent.trim().slice(0, 16)} (under ${hit ? hit.id || hit.className || hit.tagName : "nothing: off screen"})`);
    }
    scrollTo(0, 0);
    return { scene: Math.round(boxes.scene?.h ?? 0), overlaps, unreachable };
  });
}

for (const { viewport, lang, layouts } of FRAMES) {
  const which = layouts === every ? "every embed the dialog offers" : `${layouts.length} of the dialog's embeds (each choice)`;
  test(`${which} lays out at ${viewport.width} × ${viewport.height} (${lang}): the scene 200 px tall at least, nothing covered, every control reachable, axe clean`, async () => {
    const wrong = [];
    for (const { controls, panel } of layouts) {
      const query = `${controls ? `&controls=${controls}` : ""}${panel ? `&panel=${panel}` : ""}`;
      const { page, problems, ctx } = await open(browser, `${server.url}#gallery=rolling-disk&embed${query}&lang=${lang}`, { viewport });
      await page.waitForSelector("#plot-scene");
      if (panel === "stability") await page.waitForFunction(() => !document.getElementById("stability").hidden, null, { timeout: 20000 });
      if (controls.includes("equations")) await page.waitForSelector("#eq-body .eq-math", { timeout: 20000 });
      const { scene, overlaps, unreachable } = await inspect(page);
      if (scene < 200) wrong.push(`${query}: the scene is ${scene} px tall`);
      if (overlaps.length) wrong.push(`${query}: ${overlaps.join(", ")} overlap`);
      if (unreachable.length) wrong.push(`${query}: cannot reach ${unreachable.join(", ")}`);
      const violations = await axeViolations(page);
      if (violations.length) wrong.push(`${query}: axe: ${violations.join("; ")}`);
      if (problems.length) wrong.push(`${query}: ${problems.join("; ")}`);
      await ctx.close();
    }
    assert.deepEqual(wrong, []);
  });
}

test("the Embed dialog previews the embed live, chooses which sliders it shows, and gives a fixed height for platforms without scripts", async () => {
  const { page, problems, ctx } = await open(browser, `${server.url}#gallery=rolling-disk`);
  await page.waitForSelector("#plot-scene");
  await page.click("#embed-open");
  // The preview: the embed itself, loaded a moment after the dialog opened.
  const snippetSrc = async () => /src="([^"]+)"/.exec(await page.inputValue("#embed-snippet"))[1];
  const preview = async (check) => {
    await page.waitForFunction(() => document.getElementById("embed-preview")?.dataset.src === /src="([^"]+)"/.exec(document.getElementById("embed-snippet").value)[1], null, { timeout: 10000 });
    const src = await snippetSrc();
    await page.waitForFunction((src) => document.getElementById("embed-preview")?.contentWindow?.location.href === src, src, { timeout: 10000 });
    const frame = page.frames().find((f) => f.url() === src);
    assert.ok(frame, "the preview shows the snippet's address");
    await frame.waitForSelector("body.embed[data-ready='1'] #plot-scene", { timeout: 30000 });
    return frame.evaluate(check);
  };
  assert.equal(await preview(() => [...document.querySelectorAll(".side .param")].filter((p) => p.getClientRects().length).length), 0, "no sliders unless ticked");
  // Parameter sliders, all but g: the snippet names the two, the preview shows two.
  await page.check("#embed-controls input[value=parameters]");
  assert.equal(await page.isVisible("#embed-parameters"), true);
  assert.deepEqual(await page.$$eval("#embed-parameters input", (c) => c.map((x) => x.value)), ["m", "r", "g"]);
  await page.uncheck("#embed-parameters input[value=g]");
  assert.match(await snippetSrc(), /&controls=parameters&params=m,r&panel=/);
  assert.deepEqual(await preview(() => [...document.querySelectorAll(".side .param .name")].map((n) => n.textContent)), ["m", "r"]);
  await page.screenshot({ path: new URL("../../target/screenshots/embed-dialog-preview.png", import.meta.url).pathname });
  // A fixed height: no class for the sizing script, the height as given; cleared, in proportion again.
  await page.fill("#embed-height", "700");
  const fixed = await page.inputValue("#embed-snippet");
  assert.ok(fixed.includes("height:700px") && !fixed.includes('class="nhlab"') && !fixed.includes("aspect-ratio"), fixed);
  await page.fill("#embed-height", "");
  const sized = await page.inputValue("#embed-snippet");
  assert.ok(sized.includes('class="nhlab"') && sized.includes("aspect-ratio:720/560"), sized);
  // The snippet's address on its own shows just the chosen sliders.
  const src = /src="([^"]+)"/.exec(sized)[1];
  const embed = await open(browser, src, { viewport: { width: 720, height: 560 } });
  await embed.page.waitForSelector("#plot-scene");
  assert.deepEqual(await embed.page.$$eval(".side .param .name", (n) => n.map((x) => x.textContent)), ["m", "r"]);
  assert.deepEqual(embed.problems, []);
  await embed.ctx.close();
  // Closing the dialog ends the preview's lab.
  await page.click("#close-share");
  assert.equal(await page.locator("#embed-preview").count(), 0);
  assert.deepEqual(problems, []);
  await ctx.close();
});
