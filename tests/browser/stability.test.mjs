// The stability panel in headless Chromium: it draws the scenario's `[stability]`
// sweep, a click sets the swept value and restarts the run, a share link carries it.
// Run: node --test tests/browser/   (scripts/test.sh builds dist/ first)
import { test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { ROOT, open, colourPixels, servedBrowser } from "./harness.mjs";

let server, browser;
const SHOTS = process.env.NHLAB_SCREENSHOTS ?? path.join(ROOT, "target", "screenshots");
servedBrowser((s, b) => { server = s; browser = b; });

const note = (page) => page.textContent("#stability-note");
const panelReady = (page, what) => page.waitForFunction((what) => {
  const fig = document.getElementById("stability");
  return !fig.hidden && document.getElementById("stability-title").textContent.includes(what)
    && /Boundaries|No change/.test(document.getElementById("stability-note").textContent);
}, what, { timeout: 20000 });

/** Clicks the panel at `fraction` of its plotting area's width (the axis span the
 *  page keeps for clicks). */
async function clickAt(page, fraction) {
  // In view first (the scene comes before it, and may push it below the fold).
  await page.locator("#stability-canvas").scrollIntoViewIfNeeded();
  const span = await page.evaluate(() => window.nhlabTest.stabilitySpan());
  const box = await (await page.$("#stability-canvas")).boundingBox();
  await page.mouse.click(box.x + span[0] + fraction * (span[1] - span[0]), box.y + 40);
}

test("the stability panel draws the sweep, a click runs at that value, and a link carries it", async () => {
  const { page, problems, ctx } = await open(browser, `${server.url}#gallery=rolling-disk`);
  await panelReady(page, "phi'");
  // The coin: one boundary at phi'² = g/(3r); above it the wobble is a neutral
  // oscillation (every Re λ zero to round-off), which the panel calls neutrally
  // stable, as its hint and description do (issue 60: it said "becomes stable" and
  // "linear analysis cannot decide" side by side).
  assert.match(await note(page), /^The run uses phi' = 6: neutrally stable — small oscillations neither grow nor decay\. Boundaries: phi' = 3\.30151480\d* \(becomes neutrally stable\)\. Neutrally stable from 3\.30151480\d* to 10 \(shaded grey: every Re λ is zero to round-off, so small oscillations neither grow nor decay, as in a conservative system; whether the nonlinear terms keep it so, a linear analysis cannot tell\)\./);
  const description = await page.textContent("#description");
  assert.match(description, /neutrally stable \(a small weave neither grows nor decays\) when v² > g r \/ 3/);
  // Drawn: the tracks in the modes' dark colours (never a method's), the marginal
  // range shaded grey rather than green.
  const [navy, green, blue, red] = await colourPixels(page, "stability-canvas", ["#000080", "#005a32", "#1f77b4", "#d62728"]);
  assert.ok(navy > 200 && green > 200, `tracks drawn (${navy}, ${green} pixels)`);
  assert.ok(blue < 20 && red < 20, `no method's colour (${blue}, ${red} pixels)`);
  // Light pixels: the shading, neutral grey (#ededed) where marginal, tinted green
  // (#e4f3e4) where asymptotically stable.
  const { grey, tinted } = await page.evaluate(() => {
    const c = document.getElementById("stability-canvas");
    const d = c.getContext("2d").getImageData(0, 0, c.width, c.height).data;
    let grey = 0, tinted = 0;
    for (let i = 0; i < d.length; i += 4) {
      const [r, g, b] = [d[i], d[i + 1], d[i + 2]];
      if (r < 225 || r > 245) continue;
      if (Math.abs(r - g) <= 2 && Math.abs(g - b) <= 2) grey++;
      else if (g - r >= 8 && g - b >= 8) tinted++;
    }
    return { grey, tinted };
  });
  assert.ok(grey > 5000 && tinted < 100, `the marginal range shaded grey (${grey} grey, ${tinted} green pixels)`);
  await (await page.$("#stability")).screenshot({ path: path.join(SHOTS, "stability-disk.png") });

  // Its PNG is drawn afresh at twice the size, with the panel's title over it.
  const [download] = await Promise.all([page.waitForEvent("download"), page.click("#stability-png")]);
  assert.equal(download.suggestedFilename(), "rolling-disk-stability.png");
  const png = fs.readFileSync(await download.path());
  fs.copyFileSync(await download.path(), path.join(SHOTS, "stability-disk-export.png"));
  const box = await (await page.$("#stability-canvas")).boundingBox();
  const [width, height] = [png.readUInt32BE(16), png.readUInt32BE(20)];
  assert.equal(width, Math.round(2 * Math.min(Math.max(box.width, 120), 2000)), `PNG width ${width} for a ${box.width} px panel`);
  assert.equal(height, Math.round(2 * Math.min(Math.max(box.height + 40, 120), 2000)), `PNG height ${height}`);

  // A click at 20 % of the axis (phi' = 2) sets the initial spin and restarts.
  await page.waitForFunction(() => Number(/t = ([0-9.]+)/.exec(document.getElementById("clock").textContent)[1]) > 0.5);
  await clickAt(page, 0.2);
  await page.waitForFunction(() => /phi = 2(\.0+)?\b/.test(document.getElementById("editor").value));
  assert.match(await note(page), /The run uses phi' = 2: unstable\./);
  // The run restarts once the edited text has loaded (the note is the page's own, at once).
  await page.waitForFunction(() => Number(/t = ([0-9.]+)/.exec(document.getElementById("clock").textContent)[1]) < 0.5, null, { timeout: 10000 })
    .catch(async () => assert.fail(`the run restarted (${await page.textContent("#clock")})`));

  // The share link opens with the same table and value.
  await page.click("#share");
  const link = await page.inputValue("#share-link");
  await page.click("#close-share");
  const other = await open(browser, link);
  await panelReady(other.page, "phi'");
  assert.equal(await note(other.page), await note(page));
  assert.match(await other.page.inputValue("#editor"), /\[stability\]/);
  assert.deepEqual(problems, []);
  assert.deepEqual(other.problems, []);
  await ctx.close();
  await other.ctx.close();
});

test("a parameter sweep is clicked into the parameter; a broken table is a message", async () => {
  const { page, problems, ctx } = await open(browser, `${server.url}#gallery=rolling-disk`);
  await panelReady(page, "phi'");
  // Sweep gravity instead: upright at spin 6 is stable while g < 3 r s² = 32.4.
  const text = (await page.inputValue("#editor"))
    .replace(`sweep = { over = "phi'", from = 0, to = 10, step = 0.01 }`, `sweep = { over = "g", from = 0, to = 50, step = 0.5 }`)
    .replace(`at = { theta = 0, "theta'" = 0, "psi'" = 0 }`, `at = { theta = 0, "theta'" = 0, "psi'" = 0, "phi'" = 6 }`);
  await page.fill("#editor-view .cm-content", text);
  await panelReady(page, "against g");
  assert.match(await note(page), /^The run uses g = 9\.81: neutrally stable — small oscillations neither grow nor decay\. Boundaries: g = 32\.4\d* \(becomes unstable\)\. Neutrally stable from 0 to 32\.4\d* \(shaded grey[^)]*\)\./);
  await clickAt(page, 0.8); // g = 40
  await page.waitForFunction(() => /g = 40\b/.test(document.getElementById("editor").value));
  await page.waitForFunction(() => /The run uses g = 40: unstable\./.test(document.getElementById("stability-note").textContent));
  // The slider follows within a frame or two of the new run's info.
  await page.waitForFunction(() => document.querySelector(".param input[aria-label='g']")?.value === "40");

  // A sweep over a name that is not there: the editor says where; the run goes on.
  await page.fill("#editor-view .cm-content", text.replace(`over = "g"`, `over = "gee"`));
  await page.waitForFunction(() => /stability\.sweep\.over/.test(document.getElementById("editor-status").textContent));
  assert.deepEqual(problems, []);
  await ctx.close();
});

test("a sweep slower than its budget is stopped with a message, and the run goes on", async () => {
  const context = await browser.newContext({ viewport: { width: 1400, height: 1000 } });
  // The helper's budget, far below the bicycle's 1,001 linearisations.
  await context.addInitScript(() => { window.NHLAB_BUDGET_MS = { derive: 20 }; });
  const { page, problems, ctx } = await open(browser, `${server.url}#gallery=whipple-bicycle`, { context });
  await page.waitForFunction(() => /No stability analysis: the sweep took more than 0.02 s and was stopped/.test(document.getElementById("stability-note").textContent), null, { timeout: 20000 });
  const clock = () => page.evaluate(() => Number(/t = ([0-9.]+)/.exec(document.getElementById("clock").textContent)[1]));
  const before = await clock();
  await page.waitForFunction((t) => Number(/t = ([0-9.]+)/.exec(document.getElementById("clock").textContent)[1]) > t, before);
  assert.deepEqual(problems, []);
  await ctx.close();
});

test("the bicycle's panel is drawn against its forward speed, with the benchmark's speeds", async () => {
  const { page, problems, ctx } = await open(browser, `${server.url}#gallery=whipple-bicycle`);
  await panelReady(page, "against v [m/s], from rear'");
  const text = await note(page);
  assert.match(text, /^The run uses rear' = 16\.6666666\d* \(v = 5 m\/s\): stable\./, text);
  assert.match(text, /rear' = 14\.3079417\d* \(v = 4\.29238253\d* m\/s; becomes stable\); rear' = 20\.0808733\d* \(v = 6\.02426201\d* m\/s; becomes unstable\)/, text);
  // A click at 20 % of the axis: 20 % of 0 … 9.99 m/s, about 2 m/s (rear' ≈ 6.66).
  await clickAt(page, 0.2);
  await page.waitForFunction(() => /rear = 6\.6\d*/.test(document.getElementById("editor").value));
  await page.waitForFunction(() => /^The run uses rear' = 6\.6\d* \(v = 1\.99\d* m\/s\): unstable\./.test(document.getElementById("stability-note").textContent), null, { timeout: 20000 });
  await (await page.$("#stability")).screenshot({ path: path.join(SHOTS, "stability-bicycle-speed.png") });
  assert.deepEqual(problems, []);
  await ctx.close();
});

test("in Chinese the coin's panel, hint and description agree: neutrally stable above its critical spin", async () => {
  const { page, problems, ctx } = await open(browser, `${server.url}#gallery=rolling-disk&lang=zh`);
  await page.waitForFunction(() => /临界值|变为/.test(document.getElementById("stability-note").textContent), null, { timeout: 20000 });
  const said = await note(page);
  assert.match(said, /^本次运行用 phi' = 6：中性稳定 —— 小振动既不增长也不衰减。/);
  assert.match(said, /phi' = 3\.30151480\d*（变为中性稳定）/);
  assert.doesNotMatch(said, /无法判定。|变为稳定|临界范围/, said);
  assert.match(await page.textContent("#description"), /则中性稳定（小的摆动既不增长也不衰减）/);
  assert.deepEqual(problems, []);
  await ctx.close();
});
