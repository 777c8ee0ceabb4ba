// For those who cannot see the scene, and for the lecture hall (issue 60): Describe
// (or M) says what the system is doing at the clock in a polite live region, in the
// page's language, from the runner's state (each coordinate, each contact, the
// energy); the Projector mode draws large type, thick lines and high contrast.
// Screenshots in target/screenshots/motion-*.png and projector-*.png.
import { test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { ROOT, axeViolations, inkPerCanvas, open, servedBrowser } from "./harness.mjs";

let server, browser;
const SHOTS = process.env.NHLAB_SCREENSHOTS ?? path.join(ROOT, "target", "screenshots");
servedBrowser((s, b) => { server = s; browser = b; fs.mkdirSync(SHOTS, { recursive: true }); });

/** Opens gallery item `name` in `lang`, paused at its start. */
async function openPaused(name, lang) {
  const opened = await open(browser, `${server.url}#gallery=${name}&lang=${lang}`);
  const { page } = opened;
  await page.waitForSelector("body[data-ready='1']");
  if ((await page.getAttribute("#play", "aria-pressed")) === "true") await page.click("#play");
  await page.click("#reset");
  await page.waitForFunction(() => window.nhlabTest.runs()?.every((r) => r.t === 0));
  return opened;
}

test("Describe and M say the motion at the clock in a polite live region, in English and in Chinese", async () => {
  for (const [lang, slips, holds] of [["en", /contact “disk rolls on ground” slips: it needs μ ≥ [0-9.]+, and μ = 0\.4/, /^lagrange at t = 0: /],
    ["zh", /接触“圆盘在地面上滚动”在滑动：需要 μ ≥ [0-9.]+，而 μ = 0\.4/, /^lagrange，t = 0：/]]) {
    const { page, problems, ctx } = await openPaused("coin-slipping", lang);
    const region = page.locator("#motion-text");
    assert.equal(await region.getAttribute("aria-live"), "polite");
    assert.equal(await region.isHidden(), true, "nothing is said before it is asked for");
    // At the start: the coin holds; each coordinate is named with its value.
    await page.click("#describe-motion");
    await page.waitForFunction(() => document.getElementById("motion-text").textContent.length > 0);
    const start = await region.textContent();
    assert.match(start, holds);
    assert.match(start, lang === "en" ? /theta = [0-9.]+°/ : /theta = [0-9.]+°/, "the lean, in degrees");
    assert.match(start, lang === "en" ? /contact “disk rolls on ground” holds, pressing with N = [0-9.]+/ : /接触“圆盘在地面上滚动”保持，法向力 N = [0-9.]+/);
    // Stepped into its first slipping span (t ≈ 0.69 to 1.13: 60 steps of 3/200 s)
    // and asked by the key once every run is there.
    for (let k = 0; k < 60; k++) await page.keyboard.press("ArrowRight");
    await page.waitForFunction(() => window.nhlabTest.runs().every((r) => Math.abs(r.t - 0.9) < 1e-9 || r.error), null, { timeout: 30000 });
    await page.keyboard.press("m");
    await page.waitForFunction((before) => document.getElementById("motion-text").textContent !== before, start);
    const said = await region.textContent();
    assert.match(said, slips);
    assert.match(said, lang === "en" ? /^lagrange at t = 0\.9: / : /^lagrange，t = 0\.9：/);
    await page.screenshot({ path: path.join(SHOTS, `motion-${lang}.png`) });
    // A new system: what was said of the last one goes.
    await page.selectOption("#gallery", "chaplygin-sleigh");
    await page.waitForFunction(() => document.getElementById("motion-text").hidden);
    assert.deepEqual(problems, []);
    await ctx.close();
  }
});

test("the projector mode: large type, plots drawn with thicker lines, high contrast without an axe violation; &projector opens in it", async () => {
  const { page, problems, ctx } = await open(browser, `${server.url}#gallery=rolling-disk`);
  await page.click("#to-end");
  await page.waitForSelector("body[data-finished='1']", { timeout: 30000 });
  await page.waitForSelector("body[data-drawn='1']");
  await page.waitForSelector("#stability:not([hidden])");
  // The stability chart's dark pixels (its eigenvalue tracks are drawn in the
  // methods' colours and black).
  const stabilityInk = () => page.evaluate(() => {
    const c = document.getElementById("stability-canvas");
    const d = c.getContext("2d").getImageData(0, 0, c.width, c.height).data;
    let ink = 0;
    for (let i = 0; i < d.length; i += 4) if (d[i] + d[i + 1] + d[i + 2] < 300) ink++;
    return ink;
  });
  const inkOf = async () => ({ ...Object.fromEntries((await inkPerCanvas(page)).map((c) => [c.id, c.ink])), stability: await stabilityInk() });
  const before = await inkOf();
  const fontOf = () => page.evaluate(() => parseFloat(getComputedStyle(document.getElementById("title")).fontSize));
  const small = await fontOf();
  await page.click("#projector");
  assert.equal(await page.getAttribute("#projector", "aria-pressed"), "true");
  await page.waitForFunction(() => document.body.classList.contains("projector"));
  await page.waitForTimeout(300);
  await page.waitForSelector("body[data-drawn='1']");
  const after = await inkOf();
  assert.ok(await fontOf() >= 1.3 * small, `the title grows: ${small} → ${await fontOf()} px`);
  await page.screenshot({ path: path.join(SHOTS, "projector-rolling-disk.png") });
  // The same pictures, drawn with lines 1.6 times as thick: the scene (the same
  // size on the page) about 1.6 times the coloured pixels, and each plot more (their
  // canvases grow, and their type takes more of them).
  assert.ok(after["plot-scene"] > 1.3 * before["plot-scene"], `the scene: ${before["plot-scene"]} → ${after["plot-scene"]} coloured pixels`);
  for (const id of ["plot-energy", "plot-trajectory", "plot-series-0", "stability"]) {
    assert.ok(after[id] > 1.15 * before[id], `${id}: ${before[id]} → ${after[id]} coloured pixels`);
  }
  assert.deepEqual(await axeViolations(page), [], "axe in the projector mode");
  // Off again: as before.
  await page.click("#projector");
  await page.waitForTimeout(300);
  await page.waitForSelector("body[data-drawn='1']");
  assert.equal(await fontOf(), small);
  assert.deepEqual(problems, []);
  await ctx.close();
  // A link (or an embed) that asks for it.
  const linked = await open(browser, `${server.url}#gallery=rolling-disk&embed&projector`);
  await linked.page.waitForSelector("body[data-ready='1']");
  assert.equal(await linked.page.evaluate(() => document.body.classList.contains("projector")), true);
  assert.deepEqual(linked.problems, []);
  await linked.ctx.close();
});
