// The stability panel's map (issue 62) in headless Chromium: `[stability] map` gives
// the panel a Map toggle; the map is computed by the helper worker coarse first,
// agrees cell by cell with the coin's closed form, is drawn, is operated by keys
// and by a click (both values set, the run restarted, the map not computed again),
// and axe finds nothing in either language.
// Run: node --test tests/browser/   (scripts/test.sh builds dist/ first)
import { test } from "node:test";
import assert from "node:assert/strict";
import path from "node:path";
import { axeViolations, open, servedBrowser } from "./harness.mjs";
import { SHOTS } from "./lab-support.mjs";

let server, browser;
servedBrowser((s, b) => { server = s; browser = b; });

const mapOf = (page) => page.evaluate(() => window.nhlabTest.stabilityMapArea());
const mapDone = (page) => page.waitForFunction(() => {
  const m = window.nhlabTest.stabilityMapArea();
  return m && m.data.done === m.data.total && /\S/.test(document.getElementById("stability-map-note").textContent);
}, null, { timeout: 60000 });
/** The initial spin and the radius in the editor's text. */
const spinAndRadius = (page) => page.evaluate(() => {
  const text = document.getElementById("editor").value;
  return [Number(/^v = \{[^}]*\bphi = ([-0-9.e]+)/m.exec(text)?.[1]), Number(/^r = ([-0-9.e]+)/m.exec(text)?.[1])];
});

test("the coin's map: coarse first, the closed form cell by cell, keys and a click run at a point, axe clean in both languages", async () => {
  const { page, problems } = await open(browser, `${server.url}#gallery=rolling-disk`);
  const toggle = page.locator("#stability-map-toggle");
  await toggle.waitFor({ state: "visible", timeout: 30000 });
  assert.equal(await toggle.getAttribute("aria-pressed"), "false");
  assert.equal(await page.isVisible("#stability-map-canvas"), false, "the sweep first");
  await toggle.click();
  assert.equal(await toggle.getAttribute("aria-pressed"), "true");
  assert.equal(await page.isVisible("#stability-canvas"), false, "the map replaces the sweep");

  // Progressive: a first drawing holds only part of the points, and the coarse ones.
  await page.waitForFunction(() => window.nhlabTest.stabilityMapArea() !== null, null, { timeout: 30000 });
  const first = await mapOf(page);
  await mapDone(page);
  const { data, area } = await mapOf(page);
  const ny = data.y.values.length, nx = data.x.values.length;
  if (first.data.done < first.data.total) {
    for (let k = 0; k < nx * ny; k++) {
      const coarse = Math.floor(k / ny) % 4 === 0 && (k % ny) % 4 === 0;
      if (first.data.stable[k] >= 0) assert.ok(coarse || first.data.done > Math.ceil(nx / 4) * Math.ceil(ny / 4), "coarse cells come first");
    }
  }
  // Every cell against the closed form: upright rolling is neutrally stable (the
  // wobble an undamped oscillation: code 2) where phi'² > g/(3r), else unstable.
  assert.equal(data.failed, 0, data.first_error);
  let checked = 0;
  for (let i = 0; i < nx; i++) {
    for (let j = 0; j < ny; j++) {
      const margin = data.x.values[i] ** 2 - 9.81 / (3 * data.y.values[j]);
      if (Math.abs(margin) < 1e-6) continue;
      assert.equal(data.stable[i * ny + j], margin > 0 ? 2 : 0, `phi' = ${data.x.values[i]}, r = ${data.y.values[j]}`);
      checked++;
    }
  }
  assert.ok(checked > 5000, `${checked} cells checked`);
  // Drawn: grey (neutrally stable) and red (unstable) cells.
  const cells = (page) => page.evaluate(() => {
    const c = document.getElementById("stability-map-canvas");
    const d = c.getContext("2d").getImageData(0, 0, c.width, c.height).data;
    let green = 0, red = 0, grey = 0;
    for (let i = 0; i < d.length; i += 4) {
      if (d[i + 1] > d[i] + 20 && d[i + 1] > d[i + 2] + 15) green++;
      else if (d[i] > d[i + 1] + 40 && d[i] > d[i + 2] + 40) red++;
      else if (d[i] === 190 && d[i + 1] === 190 && d[i + 2] === 190) grey++;
    }
    return { green, red, grey };
  });
  const drawn = await cells(page);
  assert.ok(drawn.grey > 5000 && drawn.red > 5000 && drawn.green < 500, `cells drawn (${JSON.stringify(drawn)} pixels)`);
  const note = await page.textContent("#stability-map-note");
  assert.match(note, /^The run uses phi' = 6, r = 0\.3: neutrally stable\./);
  assert.match(note, /At r = 0\.3: neutrally stable \(grey\) for phi' from 3\.3\d* to 10\./);
  assert.match(await page.getAttribute("#stability-map-canvas", "aria-label"), /^Stability map\. Largest real part .* over phi' from 0 to 10 \(across\) and r from 0\.05 to 0\.5 \(up\)/);
  assert.match(await page.textContent("#stability-map-title"), /^Stability map over phi' and r \(lagrange; state /);
  await (await page.$("#stability")).screenshot({ path: path.join(SHOTS, "stability-map-disk.png") });
  assert.deepEqual(await axeViolations(page, "#stability"), []);

  // Keys: the marker starts at the run's point; ← and ↓ move it, and the line says
  // where it is and what the motion is there.
  await page.focus("#stability-map-canvas");
  await page.keyboard.press("Shift+ArrowLeft");
  await page.keyboard.press("Shift+ArrowLeft");
  await page.keyboard.press("Shift+ArrowLeft");
  await page.keyboard.press("ArrowDown");
  const said = await page.textContent("#stability-map-cursor");
  const [, spin, radius] = /^phi' = ([0-9.]+), r = ([0-9.]+): (neutrally stable|unstable)/.exec(said) ?? [];
  assert.ok(spin && radius, said);
  assert.ok(Number(spin) < 3.4 && Number(radius) < 0.3, said);
  assert.match(said, Number(spin) ** 2 > 9.81 / (3 * Number(radius)) ? /: neutrally stable/ : /: unstable/);
  await page.keyboard.press("Escape");
  assert.equal(await page.textContent("#stability-map-cursor"), "");
  await page.keyboard.press("Shift+ArrowLeft");
  await page.keyboard.press("ArrowDown");
  const marked = /^phi' = ([0-9.]+), r = ([0-9.]+)/.exec(await page.textContent("#stability-map-cursor"));
  await page.keyboard.press("Enter");
  await page.waitForFunction(([s, r]) => {
    const text = document.getElementById("editor").value;
    return new RegExp(`phi = ${s}\\b`).test(text) && new RegExp(`^r = ${r}\\b`, "m").test(text);
  }, [marked[1], marked[2]], { timeout: 10000 });
  await page.waitForFunction(([s, r]) => {
    const info = window.nhlabTest.info();
    return Math.abs(info.coordinates.find((c) => c.name === "phi").v - s) < 1e-9 && Math.abs(info.parameters.find((p) => p.name === "r").value - r) < 1e-9;
  }, [Number(marked[1]), Number(marked[2])], { timeout: 10000 });

  // A click: both values, one edit; the map is the same, so it is not computed again.
  const before = await mapOf(page);
  const box = await (await page.$("#stability-map-canvas")).boundingBox();
  const [left, right, top, bottom] = area;
  const ix = 10, jy = 40; // the cell phi' = x[10], r = y[40]
  const cx = left + (ix + 0.5) / nx * (right - left), cy = bottom - (jy + 0.5) / ny * (bottom - top);
  await page.mouse.click(box.x + cx, box.y + cy);
  const [expectSpin, expectRadius] = [data.x.values[ix], data.y.values[jy]];
  await page.waitForFunction(([s, r]) => {
    const info = window.nhlabTest.info();
    return Math.abs(info.coordinates.find((c) => c.name === "phi").v - s) < 1e-9 && Math.abs(info.parameters.find((p) => p.name === "r").value - r) < 1e-9;
  }, [expectSpin, expectRadius], { timeout: 10000 });
  assert.deepEqual(await spinAndRadius(page), [expectSpin, expectRadius]);
  const after = await mapOf(page);
  assert.equal(after.data.done, after.data.total);
  assert.deepEqual(after.data.max_real, before.data.max_real, "the same map, not computed again");
  await page.waitForFunction((r) => document.getElementById("stability-map-note").textContent.startsWith(`The run uses phi' = `)
    && document.getElementById("stability-map-note").textContent.includes(`r = ${r}`), String(expectRadius));
  // The clock restarted at the clicked point.
  assert.ok(Number(/t = ([0-9.]+)/.exec(await page.textContent("#clock"))[1]) < 2);

  // In Chinese: the words, the legend's, and axe.
  await page.selectOption("#language", "zh");
  await page.waitForFunction(() => /稳定性地图/.test(document.getElementById("stability-map-title").textContent));
  assert.match(await page.textContent("#stability-map-note"), /^运行采用 phi' = /);
  assert.equal(await page.textContent("#stability-map-toggle"), "地图");
  assert.deepEqual(await axeViolations(page, "#stability"), []);
  await (await page.$("#stability")).screenshot({ path: path.join(SHOTS, "stability-map-disk-zh.png") });
  await page.selectOption("#language", "en");

  // Back to the sweep: the toggle again.
  await toggle.click();
  assert.equal(await page.isVisible("#stability-canvas"), true);
  assert.equal(await page.isVisible("#stability-map-canvas"), false);
  assert.deepEqual(problems, []);
});

test("the bicycle's map is against its forward speed and trail, and stable at the benchmark between the weave and capsize speeds", async () => {
  const { page, problems } = await open(browser, `${server.url}#gallery=whipple-bicycle`);
  await page.locator("#stability-map-toggle").waitFor({ state: "visible", timeout: 30000 });
  await page.click("#stability-map-toggle");
  await mapDone(page);
  const { data } = await mapOf(page);
  assert.equal(data.x.label, "v (m/s)");
  assert.equal(data.y.over, "c");
  const ny = data.y.values.length;
  const j = data.y.values.findIndex((c) => Math.abs(c - 0.08) < 1e-12);
  assert.ok(j >= 0, "the benchmark's trail is a row");
  // Meijaard et al. (2007): self-stable from 4.292 to 6.024 m/s at the benchmark.
  for (let i = 0; i < data.x.values.length; i++) {
    const v = data.x.shown[i];
    if (Math.abs(v - 4.2924) < 0.02 || Math.abs(v - 6.0243) < 0.02) continue;
    assert.equal(data.stable[i * ny + j] === 1, v > 4.2924 && v < 6.0243, `v = ${v}`);
  }
  assert.match(await page.textContent("#stability-map-note"), /^The run uses v = 5 m\/s, c = 0\.08: stable\./);
  assert.match(await page.textContent("#stability-map-note"), /At c = 0\.08: stable for v from 4\.3\d* to 5\.9\d*\./);
  await (await page.$("#stability")).screenshot({ path: path.join(SHOTS, "stability-map-bicycle.png") });
  assert.deepEqual(problems, []);
});

test("in an embed (720 × 560) the map fills the panel's cell: the frame does not scroll, one caption shows, axe is clean", async () => {
  const { page, problems } = await open(browser, `${server.url}#gallery=rolling-disk&embed&panel=stability`, { viewport: { width: 720, height: 560 } });
  await page.locator("#stability-map-toggle").waitFor({ state: "visible", timeout: 30000 });
  await page.click("#stability-map-toggle");
  await mapDone(page);
  const layout = await page.evaluate(() => ({
    scroll: document.documentElement.scrollHeight - window.innerHeight,
    map: document.getElementById("stability-map-canvas").getBoundingClientRect().height,
    figure: document.getElementById("stability").getBoundingClientRect().bottom,
  }));
  assert.ok(layout.scroll <= 0, `the frame scrolls by ${layout.scroll} px`);
  assert.ok(layout.map >= 100 && layout.figure <= 560, JSON.stringify(layout));
  assert.equal(await page.isVisible("#stability-note"), false, "the sweep's caption is hidden");
  assert.equal(await page.isVisible("#stability-map-note"), true);
  assert.deepEqual(await axeViolations(page, "#stability"), []);
  await page.screenshot({ path: path.join(SHOTS, "stability-map-embed.png") });
  assert.deepEqual(problems, []);
});

test("a map slower than its budget is stopped: what it drew stays, the caption says so, and the sweep, the run and the next scenario's panel go on", async () => {
  const context = await browser.newContext({ viewport: { width: 1400, height: 1000 } });
  // The map's budget, below the bicycle's derivation and 8,100 linearisations (1.3 s here).
  await context.addInitScript(() => { window.NHLAB_BUDGET_MS = { map: 700 }; });
  const { page, problems, ctx } = await open(browser, `${server.url}#gallery=whipple-bicycle`, { context });
  await page.locator("#stability-map-toggle").waitFor({ state: "visible", timeout: 30000 });
  await page.click("#stability-map-toggle");
  await page.waitForFunction(() => /^No stability map: the map took more than 0\.7 s and was stopped/.test(document.getElementById("stability-map-note").textContent), null, { timeout: 20000 });
  // What came before the budget ran out stays (how much depends on the machine:
  // perhaps nothing, if deriving took the budget).
  const kept = await mapOf(page);
  if (kept) assert.ok(kept.data.done < kept.data.total, `${kept.data.done} of ${kept.data.total} points`);
  // The helper was replaced: the sweep is still there, and the run plays on.
  await page.click("#stability-map-toggle");
  assert.match(await page.textContent("#stability-note"), /^The run uses rear' = /);
  const clock = () => page.evaluate(() => Number(/t = ([0-9.]+)/.exec(document.getElementById("clock").textContent)[1]));
  const before = await clock();
  await page.waitForFunction((t) => Number(/t = ([0-9.]+)/.exec(document.getElementById("clock").textContent)[1]) > t, before);
  // The replaced helper answers the next scenario's sweep.
  await page.evaluate(() => { window.location.hash = "#gallery=rolling-disk"; });
  await page.waitForFunction(() => /phi'/.test(document.getElementById("stability-title").textContent)
    && /^The run uses phi' = 6/.test(document.getElementById("stability-note").textContent), null, { timeout: 20000 });
  assert.deepEqual(problems, []);
  await ctx.close();
});
