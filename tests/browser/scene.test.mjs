// The scene panel in headless Chromium: every gallery item draws its system and it
// moves; formulations that disagree are drawn apart in their colours; the 3D view
// turns with a drag; a broken or undefined scene is reported, never fatal.
// Run: node --test tests/browser/   (scripts/test.sh builds dist/ first)
import { test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { ROOT, open, colourPixels, servedBrowser } from "./harness.mjs";

let server, browser;
const SHOTS = process.env.NHLAB_SCREENSHOTS ?? path.join(ROOT, "target", "screenshots");
servedBrowser((s, b) => { server = s; browser = b; });

const clock = (page) => page.evaluate(() => Number(/t = ([0-9.]+)/.exec(document.getElementById("clock").textContent)[1]));
const waitClockPast = (page, t) => page.waitForFunction((t) => Number(/t = ([0-9.]+)/.exec(document.getElementById("clock").textContent)[1]) > t, t, { timeout: 20000 });

/** The scene canvas' coloured pixels (a method's colour, solid or ghost) and a digest. */
const sceneInk = (page) => page.evaluate(() => {
  const c = document.getElementById("plot-scene");
  const d = c.getContext("2d").getImageData(0, 0, c.width, c.height).data;
  let ink = 0;
  for (let i = 0; i < d.length; i += 4) if (Math.max(d[i], d[i + 1], d[i + 2]) - Math.min(d[i], d[i + 1], d[i + 2]) > 25) ink++;
  return { ink, digest: c.toDataURL() };
});

/** Waits (up to 20 s) for the scene canvas to hold more than `least` coloured
 *  pixels; false if it never does. A system just opened from the gallery may
 *  rebuild the panels (a blank canvas) a frame after the clock it replaces last
 *  ticked, so one look right after the clock can see nothing drawn yet. A canvas
 *  not laid out yet has no pixels, and reading them would throw (which ended the
 *  wait at once, twice in clean-clone runs): it is waited for like a blank one. */
const waitForInk = (page, least) => page.waitForFunction((least) => {
  try {
    const c = document.getElementById("plot-scene");
    if (!c || c.width === 0 || c.height === 0) return false;
    const d = c.getContext("2d").getImageData(0, 0, c.width, c.height).data;
    let ink = 0;
    for (let i = 0; i < d.length; i += 4) if (Math.max(d[i], d[i + 1], d[i + 2]) - Math.min(d[i], d[i + 1], d[i + 2]) > 25) ink++;
    return ink > least;
  } catch (e) {
    // A canvas swapped out between the look-up and the read (the panels
    // rebuilt): looked at again at the next poll, as a blank one is.
    window.__inkProblem = String(e);
    return false;
  }
}, least, { timeout: 20000, polling: 100 }).then(() => true, (e) => { lastInkProblem = String(e); return false; });
let lastInkProblem = "";

test("the scene draws every gallery system, and it moves", async () => {
  const { page, problems, ctx } = await open(browser, server.url);
  const names = await page.evaluate(() => [...document.querySelectorAll("#gallery option")].map((o) => o.value).filter(Boolean));
  const entries = await page.evaluate(() => window.wasmBindings.gallery_entries().length);
  assert.ok(names.length >= 20 && names.length === entries, `the whole gallery (${names.length} of ${entries})`);
  const still = [];
  for (const name of names) {
    // The clock and the canvas go on showing the previous system until the new
    // one is installed (a clean-clone run read the old ink, then a blank canvas).
    const loaded = await page.evaluate(() => Number(document.body.dataset.loaded ?? 0));
    await page.evaluate((name) => { location.hash = `gallery=${name}`; }, name);
    await page.waitForFunction((name) => document.getElementById("gallery").value === name, name, { timeout: 20000 });
    await page.waitForFunction((n) => Number(document.body.dataset.loaded ?? 0) > n, loaded, { timeout: 20000 });
    await page.waitForSelector("#plot-scene", { timeout: 20000 });
    await page.waitForFunction(() => document.getElementById("plot-scene").dataset.cssSize, null, { timeout: 20000 });
    const t = await clock(page);
    await waitClockPast(page, t + 0.05);
    const inked = await waitForInk(page, 100);
    const a = await sceneInk(page);
    const inPage = await page.evaluate(() => window.__inkProblem ?? "");
    assert.ok(inked && a.ink > 100, `${name}: the scene has drawn ink (${a.ink} coloured pixels; ${lastInkProblem} ${inPage})`);
    await waitClockPast(page, (await clock(page)) + 0.3);
    const b = await sceneInk(page);
    // A system at rest would be drawn the same; none of the gallery's is.
    if (a.digest === b.digest) still.push(name);
  }
  assert.deepEqual(still, [], "every scene changes as the clock runs");
  assert.deepEqual(problems, []);
  await ctx.close();
});

test("the sleigh's Hamel ghost parts from the true sleigh, each in its colour", async () => {
  const { page, problems, ctx } = await open(browser, `${server.url}#gallery=chaplygin-sleigh`);
  // Hamel's embedding ends at t ≈ 1.15 where the true sleigh runs on.
  await waitClockPast(page, 3);
  await page.click("#play"); // pause
  await page.waitForTimeout(100);
  const colours = await page.evaluate(() => Object.fromEntries([...document.querySelectorAll("#legend li")].map((li) => [li.querySelector("strong").textContent, li.querySelector(".swatch").style.background])));
  const hex = (css) => `#${css.match(/\d+/g).slice(0, 3).map((x) => Number(x).toString(16).padStart(2, "0")).join("")}`;
  // The first method solid; the others as ghosts: 45 % of their colour over white.
  const ghost = (css) => hex(`rgb(${css.match(/\d+/g).slice(0, 3).map((x) => Math.round(0.45 * Number(x) + 0.55 * 255)).join(",")})`);
  const [lagrange, hamel] = await colourPixels(page, "plot-scene", [hex(colours.lagrange), ghost(colours.hamel)]);
  assert.ok(lagrange > 100 && hamel > 100, `both copies drawn (${lagrange}, ${hamel} pixels)`);
  const centre = (rgb) => page.evaluate((rgb) => {
    const c = document.getElementById("plot-scene");
    const d = c.getContext("2d").getImageData(0, 0, c.width, c.height).data;
    const [r, g, b] = [1, 3, 5].map((i) => parseInt(rgb.slice(i, i + 2), 16));
    let n = 0, x = 0, y = 0;
    for (let i = 0; i < d.length; i += 4) {
      if (Math.abs(d[i] - r) + Math.abs(d[i + 1] - g) + Math.abs(d[i + 2] - b) < 30) { n++; x += (i / 4) % c.width; y += Math.floor(i / 4 / c.width); }
    }
    return [x / n, y / n];
  }, rgb);
  const [a, b] = [await centre(hex(colours.lagrange)), await centre(ghost(colours.hamel))];
  assert.ok(Math.hypot(a[0] - b[0], a[1] - b[1]) > 40, `drawn apart: ${a} and ${b}`);
  // The text alternative says where each is.
  assert.match(await page.textContent("#scene-text"), /lagrange: sleigh at \(.+\); .*hamel: sleigh at/);
  await page.locator("#plot-scene-fig").screenshot({ path: path.join(SHOTS, "scene-sleigh.png") });
  assert.deepEqual(problems, []);
  await ctx.close();
});

test("dragging turns the 3D view; a double-click fits it again", async () => {
  const { page, problems, ctx } = await open(browser, `${server.url}#gallery=whipple-bicycle`);
  await waitClockPast(page, 0.5);
  await page.click("#play"); // pause: only the view changes below
  await page.waitForTimeout(100);
  // The stability panel above fills in meanwhile: boxes are read before each gesture.
  await page.waitForFunction(() => /Boundaries|No change/.test(document.getElementById("stability-note")?.textContent ?? ""), null, { timeout: 20000 });
  await page.locator("#plot-scene").scrollIntoViewIfNeeded();
  await page.waitForTimeout(100);
  const at = async (dx, dy) => {
    const b = await (await page.$("#plot-scene")).boundingBox();
    return [b.x + dx, b.y + dy];
  };
  const before = (await sceneInk(page)).digest;
  await page.mouse.move(...await at(400, 190));
  await page.mouse.down();
  await page.mouse.move(...await at(520, 220), { steps: 6 });
  await page.mouse.up();
  await page.waitForTimeout(100);
  const turned = await sceneInk(page);
  assert.ok(turned.digest !== before, "the view turned");
  assert.ok(turned.ink > 150, `still drawn (${turned.ink})`);
  // The wheel zooms, and a double-click fits the bicycle again.
  // (Chromium sends no wheel event right after a captured drag until the mouse moves.)
  await page.mouse.move(...await at(200, 150));
  await page.mouse.wheel(0, -400);
  await page.waitForTimeout(100);
  const zoomed = await sceneInk(page);
  assert.ok(zoomed.digest !== turned.digest, "zoomed");
  await page.mouse.dblclick(...await at(10, 10));
  await page.waitForTimeout(100);
  const fitted = await sceneInk(page);
  assert.ok(fitted.digest !== zoomed.digest && fitted.ink > 150, `fitted again (${fitted.ink} pixels)`);
  await page.locator("#plot-scene-fig").screenshot({ path: path.join(SHOTS, "scene-bicycle-turned.png") });
  assert.deepEqual(problems, []);
  await ctx.close();
});

test("the wheel over the scene scrolls the page unless Ctrl is held or the scene was clicked; by touch, a pinch zooms and the caption says so", async () => {
  // Issue 60.6: the wheel over the scene zoomed it and the course page did not move;
  // on a phone a swipe that started on the scene did not scroll.
  const { page, problems, ctx } = await open(browser, `${server.url}#gallery=whipple-bicycle`, { viewport: { width: 1000, height: 700 } });
  await waitClockPast(page, 0.3);
  await page.click("#play"); // pause: only the view changes below
  await page.waitForFunction(() => /Boundaries|No change/.test(document.getElementById("stability-note")?.textContent ?? ""), null, { timeout: 20000 });
  await page.locator("#plot-scene").scrollIntoViewIfNeeded();
  await page.waitForTimeout(150);
  const centre = async () => { const b = await (await page.$("#plot-scene")).boundingBox(); return [b.x + b.width / 2, b.y + b.height / 2]; };
  const scrolled = () => page.evaluate(() => window.scrollY);
  await page.mouse.move(...await centre());
  const before = { y: await scrolled(), digest: (await sceneInk(page)).digest };
  await page.mouse.wheel(0, 200);
  await page.waitForFunction((y) => window.scrollY > y, before.y);
  assert.equal((await sceneInk(page)).digest, before.digest, "the scene did not zoom");
  assert.equal(await page.isVisible("#plot-scene-fig .zoom-hint"), true, "it says how to zoom");
  assert.match(await page.textContent("#plot-scene-fig .zoom-hint"), /Ctrl \+ wheel zooms the scene/);
  // Ctrl + wheel zooms and leaves the page where it is.
  await page.mouse.move(...await centre());
  const y = await scrolled();
  await page.keyboard.down("Control");
  await page.mouse.wheel(0, -300);
  await page.keyboard.up("Control");
  await page.waitForTimeout(150);
  const zoomed = (await sceneInk(page)).digest;
  assert.notEqual(zoomed, before.digest, "Ctrl + wheel zoomed");
  assert.equal(await scrolled(), y, "and the page did not scroll");
  assert.match(await page.textContent("#plot-scene-fig .handling"), /Ctrl \+ the wheel zooms \(or the wheel once the scene is clicked\)/);
  assert.deepEqual(problems, []);
  await ctx.close();
  // A phone: the caption speaks of touch; two fingers pinch to zoom.
  const phoneContext = await browser.newContext({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });
  const phone = await open(browser, `${server.url}#gallery=whipple-bicycle`, { context: phoneContext });
  await waitClockPast(phone.page, 0.3);
  await phone.page.click("#play");
  await phone.page.locator("#plot-scene").scrollIntoViewIfNeeded();
  await phone.page.waitForTimeout(150);
  assert.match(await phone.page.textContent("#plot-scene-fig .handling"), /pinch with two fingers to zoom.*a vertical swipe scrolls the page/);
  assert.equal(await phone.page.evaluate(() => getComputedStyle(document.getElementById("plot-scene")).touchAction), "pan-y");
  const box = await (await phone.page.$("#plot-scene")).boundingBox();
  const [cx, cy] = [box.x + box.width / 2, box.y + box.height / 2];
  const untouched = (await sceneInk(phone.page)).digest;
  const cdp = await phoneContext.newCDPSession(phone.page);
  const fingers = (d) => [{ x: cx - d, y: cy, id: 1 }, { x: cx + d, y: cy, id: 2 }];
  await cdp.send("Input.dispatchTouchEvent", { type: "touchStart", touchPoints: fingers(20) });
  for (const d of [30, 45, 60, 80]) await cdp.send("Input.dispatchTouchEvent", { type: "touchMove", touchPoints: fingers(d) });
  await cdp.send("Input.dispatchTouchEvent", { type: "touchEnd", touchPoints: [] });
  await phone.page.waitForTimeout(150);
  assert.notEqual((await sceneInk(phone.page)).digest, untouched, "the pinch zoomed the scene");
  assert.deepEqual(phone.problems, []);
  await phoneContext.close();
});

test("a broken scene table is a positioned message; an undefined element is hidden with a note", async () => {
  const { page, problems, ctx } = await open(browser, `${server.url}#gallery=pendulum-cartesian`);
  await waitClockPast(page, 0.2);
  const text = await page.inputValue("#editor");
  // A misspelt kind: the running pendulum goes on, the editor says where.
  await page.fill("#editor-view .cm-content", text.replace('kind = "segment"', 'kind = "segmnt"'));
  await page.waitForFunction(() => /scene\.shapes\[0\]\.kind/.test(document.getElementById("editor-status").textContent));
  assert.match(await page.textContent("#editor-status"), /line \d+, column \d+: scene\.shapes\[0\]\.kind: `segmnt` is not a scene shape.*did you mean `segment`/);
  // A bob whose radius is undefined for x < 0: it disappears there with a note, the
  // rod and the plots go on.
  await page.fill("#editor-view .cm-content", text.replace('radius = "0.05"', 'radius = "0.05*sqrt(x)"'));
  await page.waitForFunction(() => document.getElementById("editor-status").textContent.startsWith("loaded"));
  await page.waitForFunction(() => /Not drawn at this time .*: bob/.test(document.getElementById("scene-hidden")?.textContent ?? ""), null, { timeout: 20000 });
  assert.ok((await sceneInk(page)).ink > 50, "the rod is still drawn");
  const t = await clock(page);
  await waitClockPast(page, t + 0.2);
  assert.deepEqual(problems, []);
  await ctx.close();
});

test("the scene is in embed mode, and exports as PNG", async () => {
  const { page, problems, ctx } = await open(browser, `${server.url}#gallery=rolling-disk&embed`, { viewport: { width: 720, height: 560 } });
  await waitClockPast(page, 0.3);
  assert.equal(await page.evaluate(() => document.body.classList.contains("embed")), true);
  const box = await (await page.$("#plot-scene")).boundingBox();
  assert.ok(box.width > 300 && box.height > 250, `the scene takes half the embedded page, its panel the other (${box.width}×${box.height})`);
  assert.ok((await sceneInk(page)).ink > 150);
  const [download] = await Promise.all([page.waitForEvent("download"), page.click("#plot-scene-fig button")]);
  assert.equal(download.suggestedFilename(), "rolling-disk-scene.png");
  const bytes = fs.readFileSync(await download.path());
  assert.equal(bytes.subarray(1, 4).toString(), "PNG");
  await page.screenshot({ path: path.join(SHOTS, "scene-embed.png") });
  assert.deepEqual(problems, []);
  await ctx.close();
});

test("while playing, plots out of view are still refreshed, and all are current once the clock stops", async () => {
  // A short window: the scene and the first plots are in view, the E-vector plot is not.
  const { page, problems, ctx } = await open(browser, server.url, { viewport: { width: 1200, height: 700 } });
  await waitClockPast(page, 0.3);
  await page.evaluate(() => document.getElementById("plot-scene-fig").scrollIntoView());
  await page.waitForFunction(() => document.getElementById("plot-e")?.hasAttribute("data-offscreen"), null, { timeout: 10000 });
  await page.waitForFunction(() => !document.getElementById("plot-scene").hasAttribute("data-offscreen"));
  const digest = () => page.evaluate(() => document.getElementById("plot-e").toDataURL());
  const before = await digest();
  await waitClockPast(page, (await clock(page)) + 0.5);
  assert.notEqual(await digest(), before, "the off-screen E-vector plot moved on while playing");
  // Stopped, every panel shows the clock's time: pixels stay as they are.
  await page.click("#play");
  await page.waitForTimeout(200);
  const stopped = await digest();
  await page.waitForTimeout(300);
  assert.equal(await digest(), stopped, "nothing is redrawn differently once stopped");
  // Scrolled into view, it is drawn the same (it was already current).
  await page.evaluate(() => document.getElementById("plot-e-fig").scrollIntoView());
  await page.waitForFunction(() => !document.getElementById("plot-e").hasAttribute("data-offscreen"));
  await page.waitForTimeout(100);
  assert.equal(await digest(), stopped, "the plot was current before it came into view");
  assert.deepEqual(problems, []);
  await ctx.close();
});
