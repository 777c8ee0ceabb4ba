// End-to-end tests of the web lab in headless Chromium against the built dist/.
// Run: node --test tests/browser/   (scripts/test.sh builds dist/ and the CLI first)
import { test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { execFileSync } from "node:child_process";
import zlib from "node:zlib";
import { ROOT, DIST, open, servedBrowser, inkPerCanvas, canvasDigest, downloadText, colourPixels, revealEditorLine } from "./harness.mjs";

let server, browser;
const SHOTS = process.env.NHLAB_SCREENSHOTS ?? path.join(ROOT, "target", "screenshots");

servedBrowser((s, b) => {
  server = s;
  browser = b;
  fs.mkdirSync(SHOTS, { recursive: true });
});

/** Clicks "To end" and waits until every run has caught up (a few frames at most). */
async function toEnd(page) {
  await page.click("#to-end");
  await page.waitForSelector("body[data-finished='1']");
  await page.waitForTimeout(50); // the frame that draws it
  await page.waitForSelector("body[data-drawn='1']"); // and the frames after it, if its time ran out
}
const clockOf = (page) => page.evaluate(() => Number(/t = ([0-9.]+)/.exec(document.getElementById("clock").textContent)[1]));
const waitClockPast = (page, t, options = {}) => page.waitForFunction((t) => Number(/t = ([0-9.]+)/.exec(document.getElementById("clock").textContent)[1]) > t, t, options);

/** Every plot's ink, once each has drawn data or 3 s have passed: while playing, plots
 *  scrolled out of view are refreshed one per frame, in turn. */
async function drawnInk(page, min = 30) {
  const deadline = Date.now() + 3000;
  for (;;) {
    const canvases = await inkPerCanvas(page);
    if (canvases.every((c) => c.ink > min) || Date.now() > deadline) return canvases;
    await page.waitForTimeout(50);
  }
}

function assertPlotsDrawn(canvases, min = 30) {
  assert.ok(canvases.length >= 4, `at least four plots, found ${canvases.length}`);
  for (const c of canvases) assert.ok(c.ink > min, `${c.id} has drawn data (${c.ink} coloured pixels; ${JSON.stringify(c)})`);
}

test("the default scenario plays and draws every plot", async () => {
  const { page, problems, ctx } = await open(browser, server.url);
  await waitClockPast(page, 0.5);
  assert.equal(await page.textContent("h1"), "Chaplygin sleigh");
  const ids = (await inkPerCanvas(page)).map((c) => c.id);
  assert.deepEqual(ids, ["plot-scene", "plot-trajectory", "plot-series-0", "plot-series-1", "plot-residual", "plot-energy", "plot-e"]);
  assertPlotsDrawn(await drawnInk(page));
  const legend = await page.textContent("#legend");
  for (const m of ["lagrange", "hamel", "gauss"]) assert.ok(legend.includes(m), `legend names ${m}`);
  // The legend's E = (…) is explained under it.
  assert.match(await page.textContent("#legend-note"), /E = \(…\) is Hamel's E-vector, G − H, .*by independent coordinate \(x, phi\)/);
  assert.match(await page.textContent("#legend-note"), /Hamel's split: dependent y \(from \[hamel\] dependent\)/);
  // Each method draws in its own colour, the legend's: every one is visible in every
  // time plot, even where two agree and overlap (the first is drawn widest).
  const colours = await page.evaluate(() => window.wasmBindings.methods().filter((m) => ["lagrange", "hamel", "gauss"].includes(m.id)).map((m) => m.colour));
  const swatches = await page.evaluate(() => [...document.querySelectorAll("#legend .swatch")].map((e) => getComputedStyle(e).backgroundColor));
  await waitClockPast(page, 2);
  const asRgb = (h) => `rgb(${[1, 3, 5].map((i) => parseInt(h.slice(i, i + 2), 16)).join(", ")})`;
  assert.deepEqual([...swatches].sort(), colours.map(asRgb).sort(), "the legend's swatches are the plots' colours");
  for (const id of ["plot-series-0", "plot-series-1", "plot-e"]) {
    const counts = await colourPixels(page, id, colours);
    counts.forEach((n, k) => assert.ok(n > 20, `${id}: colour ${colours[k]} drawn (${n} pixels)`));
  }
  // Sliders in the order the scenario writes its parameters.
  assert.deepEqual(await page.$$eval(".param .name", (e) => e.map((x) => x.textContent)), ["m", "a", "I"]);
  // Typeset equations, with LaTeX to copy.
  assert.ok(await page.locator("#eq-body math").count() > 5);
  assert.ok(await page.locator("#eq-body button", { hasText: "Copy LaTeX" }).count() > 5);
  await page.screenshot({ path: path.join(SHOTS, "lab.png"), fullPage: true });
  assert.deepEqual(problems, []);
  await ctx.close();
});

test("exports: the scenario as TOML, each plot as PNG", async () => {
  const { page, problems, ctx } = await open(browser, `${server.url}#gallery=appell-hamel`);
  const toml = await downloadText(page, "#export-toml");
  assert.equal(toml.name, "appell-hamel.toml");
  assert.equal(toml.text, fs.readFileSync(path.join(ROOT, "scenarios", "appell-hamel.toml"), "utf8"));
  const [download] = await Promise.all([page.waitForEvent("download"), page.click("#plot-trajectory-fig button")]);
  assert.equal(download.suggestedFilename(), "appell-hamel-trajectory.png");
  const png = fs.readFileSync(await download.path());
  assert.deepEqual([...png.subarray(1, 4)].map((c) => String.fromCharCode(c)).join(""), "PNG");
  assert.ok(png.length > 2000);
  // Twice the panel's size on the page (with room for its title), whatever the screen's pixel ratio.
  const box = await (await page.$("#plot-trajectory")).boundingBox();
  const [w, h] = [png.readUInt32BE(16), png.readUInt32BE(20)];
  assert.equal(w, Math.floor(box.width * 2), `PNG width ${w} for a ${box.width} px panel`);
  assert.equal(h, Math.floor((box.height + 40) * 2), `PNG height ${h} for a ${box.height} px panel`);
  fs.writeFileSync(path.join(SHOTS, "export-trajectory.png"), png);
  assert.deepEqual(problems, []);
  await ctx.close();
});

test("Copy LaTeX puts the equation's LaTeX on the clipboard", async () => {
  const ctx = await browser.newContext({ viewport: { width: 1400, height: 1000 } });
  await ctx.grantPermissions(["clipboard-read", "clipboard-write"], { origin: server.url });
  const { page, problems } = await open(browser, server.url, { context: ctx });
  await page.selectOption("#eq-method", "lagrange");
  const expected = await page.evaluate(async () => {
    const helper = await window.nhlabTest.module("helper");
    const lab = new helper.WebLab(window.wasmBindings.gallery_text("chaplygin-sleigh"));
    const d = lab.derive("lagrange");
    lab.free();
    return d.matrices[0].latex;
  });
  assert.match(expected, /^M = \\begin\{bmatrix\}/);
  await page.locator("#eq-body button", { hasText: "Copy LaTeX" }).first().click();
  await page.waitForFunction(() => [...document.querySelectorAll("#eq-body button")].some((b) => b.textContent === "Copied"));
  assert.equal(await page.evaluate(() => navigator.clipboard.readText()), expected);
  assert.deepEqual(problems, []);
  await ctx.close();
});

test("choosing a gallery item changes the plots", async () => {
  const { page, problems, ctx } = await open(browser, server.url);
  await toEnd(page);
  const before = await canvasDigest(page);
  await page.selectOption("#gallery", "knife-edge-incline");
  await page.waitForFunction(() => document.querySelector("h1").textContent.startsWith("Knife edge"));
  await toEnd(page);
  assert.notEqual(await canvasDigest(page), before);
  assertPlotsDrawn(await drawnInk(page));
  assert.ok(page.url().endsWith("#gallery=knife-edge-incline"));
  assert.deepEqual(problems, []);
  await ctx.close();
});

test("a JSON scenario typed in the editor plays, and its problems point into the JSON", async () => {
  // The runner's module reads JSON as it reads TOML (the JSON is read into TOML's tree),
  // with the same checks and places.
  const { page, problems, ctx } = await open(browser, server.url);
  const scenario = { format: "nhlab/1", title: "Oscillator in JSON", coordinates: ["x"], kinetic: "m*x'^2/2", potential: "k*x^2/2",
    parameters: { m: 1, k: 4 }, initial: { q: { x: 1 }, v: { x: 0 } }, run: { t_end: 3, methods: ["lagrange"] } };
  const json = JSON.stringify(scenario, null, 2);
  await page.fill("#editor-view .cm-content", json);
  await page.waitForFunction(() => document.querySelector("h1").textContent === "Oscillator in JSON");
  await toEnd(page);
  assert.equal(await page.evaluate(() => window.nhlabTest.runnerKind()), "runner");
  // x = cos(2t): the run's end against the closed form.
  const [run] = await page.evaluate(() => window.nhlabTest.runs());
  assert.ok(Math.abs(run.q[0] - Math.cos(2 * run.t)) < 1e-5, `x(${run.t}) = ${run.q[0]}, cos(2t) = ${Math.cos(2 * run.t)}`);
  // The parameters' sliders in the author's order (k after m), as for TOML.
  assert.deepEqual(await page.evaluate(() => window.nhlabTest.info().parameters.map((p) => p.name)), ["m", "k"]);
  // A mistake: marked at its line and column in the JSON text.
  const broken = json.replace('"k*x^2/2"', '"k*w^2/2"');
  await page.fill("#editor-view .cm-content", broken);
  await page.waitForSelector(".editor-status.error");
  const line = broken.split("\n").findIndex((l) => l.includes("k*w^2")) + 1;
  assert.match(await page.textContent("#editor-status"), new RegExp(`line ${line}, column \\d+: potential: .*w`));
  assert.deepEqual(problems, []);
  await ctx.close();
});

test("a typed error shows its line and column while the last run keeps playing", async () => {
  const { page, problems, ctx } = await open(browser, server.url);
  const text = await page.inputValue("#editor");
  const broken = text.replace("expr = \"-x'*sin(phi) + y'*cos(phi)\"", "expr = \"-x'*sin(phi) + w'*cos(phi)\"");
  assert.notEqual(broken, text);
  await page.fill("#editor-view .cm-content", broken);
  await page.waitForSelector(".editor-status.error");
  const status = await page.textContent("#editor-status");
  const line = broken.split("\n").findIndex((l) => l.includes("w'*cos")) + 1;
  assert.match(status, new RegExp(`line ${line}, column \\d+: constraints\\[0\\]\\.expr: .*w`), status);
  // The editor marks the place itself (the unknown name), with the message, and its line in the gutter.
  await revealEditorLine(page, line);
  await page.waitForSelector("#editor-view .cm-lintRange-error");
  const marked = await page.evaluate(() => [...document.querySelectorAll("#editor-view .cm-lintRange-error")].map((e) => ({ text: e.textContent, line: e.closest(".cm-line").textContent })));
  assert.deepEqual(marked, [{ text: "w'", line: broken.split("\n")[line - 1] }]);
  assert.equal(await page.locator("#editor-view .cm-lint-marker-error").count(), 1);
  await page.hover("#editor-view .cm-lintRange-error");
  await page.waitForSelector("#editor-view .cm-tooltip .cm-diagnostic-error");
  assert.match(await page.textContent("#editor-view .cm-diagnostic-error"), /constraints\[0\]\.expr: .*w/);
  // The previous run goes on; the text is untouched.
  const t0 = await clockOf(page);
  await waitClockPast(page, t0 + 0.2);
  assertPlotsDrawn(await drawnInk(page));
  assert.equal(await page.inputValue("#editor"), broken);
  assert.equal(await page.textContent("h1"), "Chaplygin sleigh");
  await page.screenshot({ path: path.join(SHOTS, "error.png") });
  // Fixing it restarts.
  await page.fill("#editor-view .cm-content", text);
  await page.waitForSelector(".editor-status.ok");
  assert.equal(await page.locator("#editor-view .cm-lintRange-error").count(), 0);
  assert.equal(await page.locator("#editor-view .cm-lint-marker-error").count(), 0);
  assert.deepEqual(problems, []);
  await ctx.close();
});

test("a scenario built from bodies plays, edits, slides and shares like any other", async () => {
  const { page, problems, ctx } = await open(browser, `${server.url}#gallery=rolling-disk`);
  await waitClockPast(page, 0.5);
  assert.equal(await page.textContent("h1"), "Rolling disk (coin)");
  assertPlotsDrawn(await drawnInk(page));
  // The generated rolling constraints have their names in the CSV's columns.
  const csv = await downloadText(page, "#export-csv");
  assert.ok(csv.text.includes("res_disk rolls on ground: x"), csv.text.slice(0, 300));
  // The typeset equations include the generated constraints.
  await page.waitForFunction(() => document.querySelectorAll("#eq-body math").length > 5);
  // A slider rewrites the body's parameter and restarts.
  await page.fill(".param input[aria-label='r']", "0.35");
  await page.press(".param input[aria-label='r']", "Enter");
  await page.waitForFunction(() => document.getElementById("editor").value.includes("r = 0.35"));
  await waitClockPast(page, 0.3);
  // A mistyped frame is reported at its line in the editor; the run goes on.
  const text = await page.inputValue("#editor");
  const broken = text.replace('parent = "heading"', 'parent = "headng"');
  assert.notEqual(broken, text);
  await page.fill("#editor-view .cm-content", broken);
  await page.waitForSelector(".editor-status.error");
  const status = await page.textContent("#editor-status");
  const line = broken.split("\n").findIndex((l) => l.includes("headng")) + 1;
  assert.match(status, new RegExp(`line ${line}, column \\d+: frames\\.lean\\.parent: .*did you mean .heading.`), status);
  await page.fill("#editor-view .cm-content", text);
  await page.waitForSelector(".editor-status.ok");
  // The share link carries the bodies: the other page computes the same numbers.
  await page.click("#share");
  const link = await page.inputValue("#share-link");
  await page.click("#close-share");
  const original = await downloadText(page, "#export-csv");
  const other = await open(browser, link);
  assert.equal(await other.page.textContent("h1"), "Rolling disk (coin)");
  const copy = await downloadText(other.page, "#export-csv");
  assert.equal(copy.text, original.text);
  await page.screenshot({ path: path.join(SHOTS, "rolling-disk.png"), fullPage: true });
  assert.deepEqual(problems, []);
  assert.deepEqual(other.problems, []);
  await ctx.close();
  await other.ctx.close();
});

test("a coin that starts to slip: its contact forces are plotted, μ drawn, and the slipping span shaded in every plot", async () => {
  const { page, problems, ctx } = await open(browser, `${server.url}#gallery=coin-slipping`);
  await toEnd(page);
  const ids = (await inkPerCanvas(page)).map((c) => c.id);
  for (const id of ["plot-contact-normal", "plot-contact-friction"]) assert.ok(ids.includes(id), `${id} in ${ids}`);
  assertPlotsDrawn(await drawnInk(page));
  const titles = await page.$$eval(".plots h3, .plots .panel-title, .plots figcaption", (e) => e.map((x) => x.textContent));
  assert.ok(titles.some((t) => t.includes("friction needed")), JSON.stringify(titles));
  // The span where it slips (t = 0.685 to 1.129, and from 2.500) is shaded behind the
  // lines of every plot against t, not in the trajectory.
  const shade = "#fae2e2";
  for (const id of ["plot-series-0", "plot-energy", "plot-contact-normal", "plot-contact-friction"]) {
    const [n] = await colourPixels(page, id, [shade]);
    assert.ok(n > 500, `${id}: shaded (${n} pixels)`);
  }
  const [inTrajectory] = await colourPixels(page, "plot-trajectory", [shade]);
  assert.ok(inTrajectory < 50, `the trajectory is not shaded (${inTrajectory})`);
  // Under the contact panel, each span in words with its located instants.
  const events = await page.$$eval("#contact-events li", (e) => e.map((x) => x.textContent));
  assert.equal(events.length, 2, JSON.stringify(events));
  assert.match(events[0], /^lagrange: `disk rolls on ground` \(rolling\[0\]\) slips \(\|F_t\| > μ N\) from t = 0\.6853\d{5} until t = 1\.129\d{4,5}:/, events[0]);
  assert.match(events[1], /from t = 2\.49\d+ (on|to the run's end|until t = [\d.]+):/, events[1]);
  // The scene draws the contact force as an arrow; the switch hides it.
  const scene = () => page.evaluate(() => document.getElementById("plot-scene").toDataURL());
  const withForces = await scene();
  await page.uncheck("#scene-forces");
  await page.waitForFunction((before) => document.getElementById("plot-scene").toDataURL() !== before, withForces);
  await page.check("#scene-forces");
  await page.waitForFunction((before) => document.getElementById("plot-scene").toDataURL() === before, withForces);
  // The CSV export holds the contact's columns, as the command line writes them.
  const csv = await downloadText(page, "#export-csv");
  const header = csv.text.split("\n")[0];
  assert.ok(header.includes("N_disk rolls on ground") && header.includes("mu_needed_disk rolls on ground"), header);
  await page.screenshot({ path: path.join(SHOTS, "coin-slipping.png"), fullPage: true });
  assert.deepEqual(problems, []);
  await ctx.close();
});

test("integrators overlay like methods: the contact oscillator under RATTLE and RK4, each named in the legend", async () => {
  const { page, problems, ctx } = await open(browser, `${server.url}#gallery=contact-oscillator`);
  await toEnd(page);
  assertPlotsDrawn(await drawnInk(page));
  const legend = await page.$$eval("#legend li", (e) => e.map((x) => x.textContent));
  assert.equal(legend.length, 2, JSON.stringify(legend));
  assert.ok(legend[0].includes("lagrange") && legend[0].includes("· rattle"), legend[0]);
  assert.ok(legend[1].includes("lagrange") && legend[1].includes("· rk4"), legend[1]);
  // The fixed step is the field to edit; choosing one integrator ends the overlay.
  assert.equal(await page.isDisabled("#dt"), false);
  await page.selectOption("#integrator", "rattle4");
  await page.waitForFunction(() => document.querySelectorAll("#legend li").length === 1);
  const text = await page.inputValue("#editor");
  assert.match(text, /integrator = "rattle4"/);
  assert.doesNotMatch(text, /integrators = /);
  // The overlay menu adds one back: rattle4 and Dormand–Prince, tolerances enabled.
  await page.waitForFunction(() => document.querySelector("#integrator-overlay option[value='rattle4']").disabled);
  await page.selectOption("#integrator-overlay", "dopri5");
  await page.waitForFunction(() => document.querySelectorAll("#legend li").length === 2);
  assert.match(await page.inputValue("#editor"), /integrators = \["rattle4", "dopri5"\]/);
  assert.equal(await page.isDisabled("#rtol"), false);
  assert.equal(await page.isDisabled("#dt"), false);
  await toEnd(page);
  await page.screenshot({ path: path.join(SHOTS, "contact-oscillator.png"), fullPage: true });
  assert.deepEqual(problems, []);
  await ctx.close();
});

test("a long run plots each integrator's energy error on log scales, in its own worker, and can be cancelled", async () => {
  const { page, problems, ctx } = await open(browser, `${server.url}#gallery=contact-oscillator`);
  await page.click("#long-run summary");
  await page.fill("#long-run-t", "2000");
  await page.click("#long-run-start");
  await page.waitForFunction(() => document.getElementById("long-run-text").textContent.startsWith("Done"), null, { timeout: 60000 });
  const text = await page.textContent("#long-run-text");
  assert.match(text, /lagrange · rattle: largest \|ΔE\| [\d.]+e-3 by t = 200, [\d.]+e-3 by t = 2000/, text);
  assert.match(text, /lagrange · rk4: largest \|ΔE\| /, text);
  // Drawn once its canvas has a size (it was hidden until the first data came).
  await page.waitForFunction(() => {
    const c = document.getElementById("long-run-canvas");
    if (!c.width || !c.height) return false;
    const d = c.getContext("2d").getImageData(0, 0, c.width, c.height).data;
    let n = 0;
    for (let i = 0; i < d.length; i += 4) if (Math.max(d[i], d[i + 1], d[i + 2]) - Math.min(d[i], d[i + 1], d[i + 2]) > 60) n++;
    return n > 2000;
  }, null, { timeout: 10000 });
  assert.equal(await page.isDisabled("#long-run-cancel"), true);
  await page.screenshot({ path: path.join(SHOTS, "long-run.png"), fullPage: true });
  // A much longer one: the playback goes on meanwhile, and Cancel stops it.
  await page.fill("#long-run-t", "1000000");
  await page.click("#long-run-start");
  await page.waitForFunction(() => document.getElementById("long-run-progress").value > 0, null, { timeout: 30000 });
  const clock = await page.textContent("#clock");
  await page.waitForFunction((before) => document.getElementById("clock").textContent !== before, clock, { timeout: 5000 });
  await page.click("#long-run-cancel");
  await page.waitForFunction(() => document.getElementById("long-run-text").textContent.startsWith("Cancelled"));
  assert.equal(await page.isDisabled("#long-run-start"), false);
  assert.deepEqual(problems, []);
  await ctx.close();
});

test("the Whipple bicycle from bodies plays; a broken vector expression is blamed once, at its place", async () => {
  const { page, problems, ctx } = await open(browser, `${server.url}#gallery=whipple-bicycle`);
  await waitClockPast(page, 0.5);
  assert.match(await page.textContent("h1"), /^Whipple bicycle/);
  assertPlotsDrawn(await drawnInk(page));
  // The equations are typeset, large parts named (`w₁ = …`) and listed a page at a time.
  await page.waitForFunction(() => document.querySelectorAll("#eq-body math").length > 20);
  assert.match(await page.textContent("#eq-body"), /Matrix form/);
  // Typed text loads under the page's budget (1.5 s), which the bicycle's derivation
  // in wasm kept with room on an idle machine but once overran on a busy one: this
  // test is about the message and the reload, so its loads get room.
  await page.evaluate(() => { window.NHLAB_BUDGET_MS = { load: 20000 }; });
  const text = await page.inputValue("#editor");
  const broken = text.replace("rF*unit(N.z", "rF*unti(N.z");
  assert.notEqual(broken, text);
  await page.fill("#editor-view .cm-content", broken);
  await page.waitForSelector(".editor-status.error");
  const status = await page.textContent("#editor-status");
  const line = broken.split("\n").findIndex((l) => l.includes("unti(")) + 1;
  assert.match(status, new RegExp(`line ${line}, column \\d+: points\\.front_contact\\.position: unknown function .unti.; did you mean .unit.`), status);
  assert.doesNotMatch(status, /front_contact_z/, "the constraint naming the broken point is not blamed too");
  await page.fill("#editor-view .cm-content", text);
  await page.waitForSelector(".editor-status.ok");
  await waitClockPast(page, 0.2);
  await page.screenshot({ path: path.join(SHOTS, "whipple-bicycle.png"), fullPage: true });
  assert.deepEqual(problems, []);
  await ctx.close();
});

test("free velocities are named, and a holonomic constraint shows both residuals", async () => {
  const { page, problems, ctx } = await open(browser, `${server.url}#gallery=knife-edge-incline`);
  // The spec's own example: only φ' given, so x' is taken as 0 and the page says so.
  const text = await page.inputValue("#editor");
  const omitted = text.replace(/^v = \{ x = 0, phi = 2 \}.*$/m, "v = { phi = 2 }");
  assert.notEqual(omitted, text);
  await page.fill("#editor-view .cm-content", omitted);
  await page.waitForSelector(".editor-status.warning");
  const status = await page.textContent("#editor-status");
  assert.match(status, /initial\.v: x' is not fixed by the constraints; took the minimum-norm value x' = 0/, status);
  // The Cartesian pendulum: the residual panel plots |φ| solid and |φ̇| dashed.
  await page.selectOption("#gallery", "pendulum-cartesian");
  await page.waitForFunction(() => document.querySelector("h1").textContent.startsWith("Pendulum"));
  const note = await page.textContent("#plot-residual-fig .note");
  assert.match(note, /\|φ\| for holonomic constraints/, note);
  assert.match(note, /dashed: largest \|φ̇/, note);
  await toEnd(page);
  assertPlotsDrawn(await drawnInk(page));
  assert.deepEqual(problems, []);
  await ctx.close();
});

test("a share link reproduces the run number for number", async () => {
  const { page, problems, ctx } = await open(browser, server.url);
  // Change a parameter and a method through the controls first.
  await page.fill(".param input[aria-label='a']", "0.35");
  await page.press(".param input[aria-label='a']", "Enter");
  await page.waitForFunction(() => /a = \{ value = 0\.35,/.test(document.getElementById("editor").value));
  await page.check("#methods input[value='voronets']");
  await page.waitForFunction(() => document.getElementById("editor").value.includes("voronets"));
  await page.click("#share");
  const link = await page.inputValue("#share-link");
  assert.match(link, /#s=2\./);
  assert.ok(link.length < 2000, `link length ${link.length}`);
  await page.click("#close-share");
  const original = await downloadText(page, "#export-csv");
  const written = await page.inputValue("#editor");

  const other = await open(browser, link);
  assert.equal(await other.page.textContent("h1"), "Chaplygin sleigh");
  // The author's text arrives as written: comments, order, spelling.
  assert.match(written, /^#/m, "the sleigh's text has comments");
  assert.equal(await other.page.inputValue("#editor"), written);
  const copy = await downloadText(other.page, "#export-csv");
  assert.equal(copy.text, original.text);
  assert.ok(original.text.split("\n").length > 20);
  assert.ok(original.text.includes("voronets,"));
  assert.deepEqual(problems, []);
  assert.deepEqual(other.problems, []);
  await ctx.close();
  await other.ctx.close();
});

// The page runs Lagrange's right-hand side as a WebAssembly kernel compiled for the
// scenario, and `nhlab run` as machine code (Cranelift): the same bits.
test("the CSV export is what the command line writes", async () => {
  const cli = process.env.NHLAB_CLI ?? path.join(ROOT, "target", "release", "nhlab");
  const names = fs.readdirSync(path.join(ROOT, "scenarios")).filter((f) => f.endsWith(".toml")).map((f) => f.replace(/\.toml$/, ""));
  assert.ok(names.length >= 16);
  for (const name of names) {
    const { page, ctx } = await open(browser, `${server.url}#gallery=${name}`);
    const { text, name: file } = await downloadText(page, "#export-csv");
    assert.equal(file, `${name}.csv`);
    let expected;
    try {
      expected = execFileSync(cli, ["run", path.join(ROOT, "scenarios", `${name}.toml`), "--out", "-"], { encoding: "utf8", maxBuffer: 64 << 20, stdio: ["ignore", "pipe", "ignore"] });
    } catch (e) {
      expected = e.stdout; // status 1: a method stopped early; the samples before it are written
    }
    assert.ok(expected.length > 100, `${name}: the CLI wrote samples`);
    assert.equal(text, expected, `${name}: page CSV = CLI CSV`);
    await ctx.close();
  }
});

test("Lagrange's right-hand side runs as a WebAssembly kernel compiled in the runner", async () => {
  for (const name of ["chaplygin-sleigh", "whipple-bicycle"]) {
    const { page, problems, ctx } = await open(browser, `${server.url}#gallery=${name}`);
    await page.waitForFunction(() => window.nhlabTest.info()?.rhs_code);
    assert.equal(await page.evaluate(() => window.nhlabTest.info().rhs_code), "compiled", name);
    if (name === "chaplygin-sleigh") await toEnd(page);
    assert.deepEqual(problems, [], name);
    await ctx.close();
  }
  // The kernel is called wasm to wasm through a slot of the module's function table;
  // a dropped lab gives its slots back, so that edits do not grow the table (or keep
  // old kernels alive), and a new lab's kernel computes what the first did.
  const { page, problems, ctx } = await open(browser, server.url);
  const slots = await page.evaluate(async () => {
    const helper = await window.nhlabTest.module("helper");
    const text = window.wasmBindings.gallery_text("rattleback");
    const sums = [];
    const lengths = [helper.nhlab_kernel_table_length()];
    for (let k = 0; k < 30; k++) {
      const lab = new helper.WebLab(text);
      sums.push(lab.bench_rhs("lagrange", 10));
      lab.free();
      lengths.push(helper.nhlab_kernel_table_length());
    }
    const lab = new helper.WebLab(text);
    lab.interpret_rhs();
    const interpreted = lab.bench_rhs("lagrange", 10);
    lab.free();
    return { sums, lengths, interpreted };
  });
  assert.ok(slots.lengths[1] > slots.lengths[0], `the first lab's kernels took slots: ${slots.lengths}`);
  assert.equal(Math.max(...slots.lengths), slots.lengths[1], `later labs reuse them: ${slots.lengths}`);
  assert.ok(Number.isFinite(slots.sums[0]) && slots.sums.every((s) => s === slots.sums[0]), `${slots.sums}`);
  assert.equal(slots.interpreted, slots.sums[0], "the kernel computes the interpreter's bits");
  assert.deepEqual(problems, []);
  await ctx.close();
});

test("long equations are broken into lines at their sums, to the box's width, and again when it changes", async () => {
  const { page, problems, ctx } = await open(browser, `${server.url}#gallery=rolling-disk`, { viewport: { width: 1400, height: 1000 } });
  await page.waitForFunction(() => document.querySelectorAll("#eq-body math").length > 10);
  await page.selectOption("#eq-method", "lagrange");
  await page.waitForFunction(() => [...document.querySelectorAll("#eq-body .eq-label")].some((l) => l.textContent === "equation of phi"));
  const measure = () => page.evaluate(() => {
    const rows = [...document.querySelectorAll("#eq-body .eq")].map((row) => {
      const box = row.querySelector(".eq-math");
      return {
        label: row.querySelector(".eq-label").textContent,
        lines: box.querySelectorAll("mtable.eq-lines > mtr").length,
        matrix: !!box.querySelector("mtable:not(.eq-lines)"),
        overflow: box.scrollWidth - box.clientWidth,
        text: box.textContent,
      };
    });
    return rows;
  });
  const wide = await measure();
  const eqX = wide.find((r) => r.label === "equation of x");
  assert.ok(eqX.lines >= 2, JSON.stringify(eqX));
  // The lines hold the same symbols in the same order as the one-line equation.
  const oneLine = await page.evaluate(async () => {
    const helper = await window.nhlabTest.module("helper");
    const lab = new helper.WebLab(window.wasmBindings.gallery_text("rolling-disk"));
    const d = lab.derive("lagrange");
    lab.free();
    const e = d.equations.find((e) => e.label === "equation of x");
    return new DOMParser().parseFromString(e.mathml, "application/xml").documentElement.textContent;
  });
  assert.equal(eqX.text, oneLine);
  // Everything but the 5×5 mass matrix and one indivisible piece fits its box.
  const over = wide.filter((r) => r.overflow > 1 && !(r.matrix && r.label === "M"));
  assert.ok(over.length <= 1, JSON.stringify(over.map((r) => [r.label, r.overflow])));
  assert.ok(wide.filter((r) => r.lines >= 2).length >= 4, `several equations are broken: ${JSON.stringify(wide.map((r) => [r.label, r.lines]))}`);
  await page.locator("#eq-body").screenshot({ path: path.join(SHOTS, "equations-broken-lines.png") });
  // A narrower window: the same equation takes more lines.
  await page.setViewportSize({ width: 700, height: 1000 });
  await page.waitForFunction((before) => {
    const row = [...document.querySelectorAll("#eq-body .eq")].find((r) => r.querySelector(".eq-label").textContent === "equation of x");
    return row.querySelectorAll("mtable.eq-lines > mtr").length > before;
  }, eqX.lines);
  const narrow = (await measure()).find((r) => r.label === "equation of x");
  assert.ok(narrow.overflow <= 1, JSON.stringify(narrow));
  assert.equal(narrow.text, oneLine);
  assert.deepEqual(problems, []);
  await ctx.close();
});

test("Hamel's embedding ending at a singular split reads as information, not as a failure", async () => {
  const { page, problems, ctx } = await open(browser, `${server.url}#gallery=chaplygin-sleigh`);
  await toEnd(page);
  const hamel = page.locator("#legend li", { hasText: "hamel" });
  assert.equal(await hamel.getAttribute("class"), "ended");
  assert.match(await hamel.textContent(), /Hamel's embedding ends at t = 1\.14\d*: its split \(dependent y\) is singular there/);
  const colours = await page.evaluate(() => {
    const why = document.querySelector("#legend li.ended .why");
    const root = getComputedStyle(document.documentElement);
    return { why: getComputedStyle(why).color, muted: root.getPropertyValue("--muted").trim() };
  });
  assert.equal(colours.why, "rgb(91, 100, 117)", `muted (${colours.muted}), not the error red`);
  assert.deepEqual(problems, []);
  await ctx.close();
});

test("a run stopped at the sample limit: the clock shows where it stopped, not t_end", async () => {
  const { page, problems, ctx } = await open(browser, server.url);
  // rk4 at dt = 0.01 to t = 2000 is 200,001 samples; the page keeps 100,000 a run.
  const text = [
    'format = "nhlab/1"', 'title = "Long drift"', 'coordinates = ["x"]', 'kinetic = "x\'^2/2"',
    "[initial]", "q = { x = 0 }", "v = { x = 1 }",
    "[run]", "t_end = 2000", 'methods = ["lagrange"]', 'integrator = "rk4"', "dt = 0.01",
  ].join("\n");
  await page.fill("#editor-view .cm-content", text);
  await page.waitForFunction(() => document.querySelector("h1").textContent === "Long drift");
  await page.click("#to-end");
  await page.waitForSelector("body[data-finished='1']", { timeout: 30000 });
  await page.waitForFunction(() => /^t = 999\.990 \/ 2000/.test(document.getElementById("clock").textContent), null, { timeout: 10000 });
  assert.match(await page.textContent("#legend"), /lagrange — stopped at t = 999\.99: 100000 samples, the page's limit per run/);
  assert.deepEqual(problems, []);
  await ctx.close();
});

test("embed mode shows the scene, one plot and playback", async () => {
  const { page, problems, ctx } = await open(browser, `${server.url}#gallery=ball-on-turntable&embed`, { viewport: { width: 720, height: 560 } });
  await waitClockPast(page, 0.3);
  await toEnd(page);
  assert.equal(await page.isVisible("#editor"), false);
  assert.equal(await page.isVisible("#eq-body"), false);
  assert.equal(await page.isVisible("#play"), true);
  const full = await page.getAttribute("#open-full", "href");
  assert.ok(await page.isVisible("#open-full"));
  assert.ok(full.includes("#gallery=ball-on-turntable") && !full.includes("embed"), full);
  // The scene and, beside it, the first plot: both drawn.
  const drawn = await drawnInk(page);
  assert.deepEqual(drawn.map((c) => c.id), ["plot-scene", "plot-trajectory"]);
  for (const c of drawn) assert.ok(c.ink > 30, `${c.id} has drawn data (${JSON.stringify(c)})`);
  await page.screenshot({ path: path.join(SHOTS, "embed.png") });
  assert.deepEqual(problems, []);
  await ctx.close();
  // The query form too.
  const q = await open(browser, `${server.url}?embed#gallery=chaplygin-sleigh`, { viewport: { width: 600, height: 500 } });
  assert.equal(await q.page.isVisible("#editor"), false);
  assert.equal(await q.page.getAttribute("#open-full", "href"), `${server.url}#gallery=chaplygin-sleigh`);
  await q.ctx.close();
});

test("hostile, malformed and truncated fragments show a message and run no script", async () => {
  // A valid payload whose text fields carry markup, made by the page itself.
  const { page, ctx } = await open(browser, server.url);
  const text = await page.inputValue("#editor");
  const hostile = text
    .replace('title = "Chaplygin sleigh"', 'title = "<img src=x onerror=\\"window.__pwned=1\\">Sleigh"')
    .replace(/description = "[^"]*"/, 'description = "<script>window.__pwned=2</script>"');
  await page.fill("#editor-view .cm-content", hostile);
  await page.waitForFunction(() => document.querySelector("h1").textContent.includes("Sleigh"));
  await page.click("#share");
  const hostileLink = await page.inputValue("#share-link");
  const valid = new URL(hostileLink).hash;
  await ctx.close();

  const cases = [
    ["#s=!!!not-base64", /share link is not valid/],
    [valid.slice(0, Math.floor(valid.length / 2)), /share link is not valid/],
    ["#s=2.AAAA", /share link is not valid/],
    ['#gallery=<img src=x onerror="window.__pwned=3">', /no gallery item/],
    ["#gallery=javascript:window.__pwned=4", /no gallery item/],
  ];
  for (const [fragment, message] of cases) {
    const { page, problems, ctx } = await open(browser, server.url + fragment);
    const notice = await page.textContent("#notice");
    assert.match(notice, message, `${fragment}: ${notice}`);
    assert.equal(await page.textContent("h1"), "Chaplygin sleigh", "the default system is shown instead");
    await waitClockPast(page, 0.2);
    assertPlotsDrawn(await drawnInk(page));
    assert.equal(await page.evaluate(() => window.__pwned), undefined);
    assert.equal(await page.locator("img").count(), 0);
    assert.deepEqual(problems, [], fragment);
    await ctx.close();
  }
  const h = await open(browser, hostileLink);
  await h.page.waitForTimeout(300);
  assert.equal(await h.page.textContent("h1"), '<img src=x onerror="window.__pwned=1">Sleigh');
  assert.equal(await h.page.textContent("#description"), "<script>window.__pwned=2</script>");
  assert.equal(await h.page.evaluate(() => window.__pwned), undefined);
  assert.equal(await h.page.locator("img, main script").count(), 0);
  assert.deepEqual(h.problems, []);
  await h.ctx.close();
});

test("keyboard alone: play, pause, step, reset", async () => {
  const { page, problems, ctx } = await open(browser, server.url);
  await page.focus("body");
  await page.keyboard.press("Space");
  assert.equal(await page.textContent("#play"), "Play");
  const t = await clockOf(page);
  await page.keyboard.press("ArrowRight");
  await page.waitForFunction((t) => Number(/t = ([0-9.]+)/.exec(document.getElementById("clock").textContent)[1]) > t, t);
  await page.keyboard.press("r");
  await page.waitForFunction(() => document.getElementById("clock").textContent.startsWith("t = 0.000"));
  // Every control is reachable with Tab.
  const tabbable = await page.evaluate(() => [...document.querySelectorAll("button, select, input, textarea")]
    .filter((e) => e.offsetParent !== null && e.tabIndex >= 0).length);
  assert.ok(tabbable > 20);
  assert.deepEqual(problems, []);
  await ctx.close();
});

test("a phone-sized screen has no horizontal scrolling", async () => {
  const { page, problems, ctx } = await open(browser, server.url, { viewport: { width: 390, height: 844 } });
  await waitClockPast(page, 0.3);
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  assert.ok(overflow <= 0, `page is ${overflow}px wider than the screen`);
  assertPlotsDrawn(await drawnInk(page));
  await page.screenshot({ path: path.join(SHOTS, "phone.png"), fullPage: false });
  assert.deepEqual(problems, []);
  await ctx.close();
});

test("once loaded it works without any network", async () => {
  const { page, problems, ctx } = await open(browser, server.url);
  await ctx.setOffline(true);
  await page.selectOption("#gallery", "appell-hamel");
  await page.waitForFunction(() => document.querySelector("h1").textContent.startsWith("Appell"));
  await waitClockPast(page, 0.3);
  assertPlotsDrawn(await drawnInk(page));
  assert.deepEqual(problems, []);
  await ctx.close();
});

// ---- Issue 9: nothing a link holds can freeze or poison the page ----

/** A share payload (`#s=`) for a scenario object, as the page wrote them before
 *  version 2 (the JSON of version 1): such links must keep opening. */
const payloadOf = (scenario) => "1." + zlib.deflateRawSync(Buffer.from(JSON.stringify(scenario)), { level: 9 }).toString("base64url");

/** A model within the size limits that takes seconds to derive. */
function slowScenario(n) {
  const coordinates = Array.from({ length: n }, (_, i) => `q${i}`);
  const kinetic = coordinates.map((q, i) => `(${q}' + 0.5*q${(i + 1) % n}')^2`).join(" + ");
  const constraints = Array.from({ length: n / 4 }, (_, k) => ({ expr: `q${2 * k}' - sin(q${2 * k + 1})*q${2 * k + 2}'` }));
  const q = Object.fromEntries(coordinates.map((c, i) => [c, 0.1 * (i % 7)]));
  return { format: "nhlab/1", title: "Too slow", coordinates, kinetic, potential: coordinates.map((c) => `cos(${c})`).join(" + "), constraints, initial: { q } };
}

/** A scenario object as TOML (the editor's language), for the models above. */
function toml(scenario) {
  const value = (v) => (Array.isArray(v) ? `[${v.map(value).join(", ")}]` : typeof v === "string" ? JSON.stringify(v) : String(v));
  const lines = [];
  for (const [k, v] of Object.entries(scenario)) {
    if (k !== "constraints" && k !== "initial") lines.push(`${k} = ${value(v)}`);
  }
  for (const c of scenario.constraints ?? []) lines.push("[[constraints]]", `expr = ${value(c.expr)}`);
  lines.push("[initial.q]", ...Object.entries(scenario.initial.q).map(([k, v]) => `${k} = ${v}`));
  return lines.join("\n") + "\n";
}

/** How long a click on Play may take to be answered: a backstop for a frozen page
 *  (the defects these tests guard against held it for seconds or for ever), 10 × and
 *  more the 30–150 ms it takes on these machines, so that a machine busy with
 *  installs cannot fail it (issue 56). */
const ANSWER_BACKSTOP = 3000;

/** Milliseconds the page takes to answer a click. */
async function answerTime(page) {
  // Any change of the button counts, seen by a MutationObserver: a run that restarts
  // and stalls again at once turns Pause back into Play within one frame, which a
  // poll of the text can miss.
  await page.evaluate(() => {
    window.__playChanged = false;
    const observer = new MutationObserver(() => { window.__playChanged = true; observer.disconnect(); });
    observer.observe(document.getElementById("play"), { childList: true, characterData: true, subtree: true });
  });
  const started = Date.now();
  await page.click("#play");
  await page.waitForFunction(() => window.__playChanged);
  return Date.now() - started;
}

test("a link too slow to load is stopped, and the page answers input at once", async () => {
  const context = await browser.newContext({ viewport: { width: 1400, height: 1000 } });
  await context.addInitScript(() => { window.NHLAB_BUDGET_MS = 500; });
  const { page, problems, ctx } = await open(browser, `${server.url}#s=${payloadOf(slowScenario(200))}`, { context });
  await page.waitForSelector(".editor-status.error");
  assert.match(await page.textContent("#editor-status"), /This scenario \(200 coordinates, 50 constraints\) took more than 0.5 s to load and was stopped while deriving and compiling its equations of motion/);
  assert.match(await page.textContent("#notice"), /took too long to load and was stopped/);
  assert.equal(await page.textContent("h1"), "Chaplygin sleigh", "the default system plays");
  assert.match(await page.inputValue("#editor"), /title = "Too slow"/, "the link's scenario is in the editor");
  await waitClockPast(page, 0.2);
  assert.ok(await answerTime(page) < ANSWER_BACKSTOP);
  // Typing it again is stopped the same way, and the run goes on.
  const t = await clockOf(page);
  await page.click("#play");
  await page.fill("#editor-view .cm-content", (await page.inputValue("#editor")) + "\n# again\n");
  await page.waitForFunction(() => /took more than/.test(document.getElementById("editor-status").textContent));
  await waitClockPast(page, t + 0.2);
  assert.ok(await answerTime(page) < ANSWER_BACKSTOP);
  assert.deepEqual(problems, []);
  await ctx.close();
});

/** Thirty balls rolling with friction down one incline under seven methods and
 *  four parameter sets (issue 57): read and derived in a fraction of a second, its
 *  28 runs' starts (each finds its contacts' forces) are most of its load. */
function thirtyBalls() {
  const n = 30;
  const ball = (k) => [`s${k}`, `y${k}`, `ax${k}`, `ay${k}`, `az${k}`];
  const coordinates = Array.from({ length: n }, (_, k) => ball(k)).flat();
  const zero = `{ ${coordinates.map((c) => `${c} = 0`).join(", ")} }`;
  return [
    'format = "nhlab/1"', 'title = "Thirty balls"',
    `coordinates = [${coordinates.map((c) => `"${c}"`).join(", ")}]`,
    "[parameters]", "m = { value = 1.0, min = 0.1, max = 5 }", "R = 0.1", "g = 9.81", "alpha = 0.5", "mu = 0.2",
    "[vectors]", 'down = "[cos(alpha), 0, -sin(alpha)]"', 'across = "[0, 1, 0]"', 'up = "[sin(alpha), 0, cos(alpha)]"',
    ...Array.from({ length: n }, (_, k) => [
      `[points.P${k}]`, `position = "s${k}*down + (y${k} + ${0.3 * k})*across"`, `[points.G${k}]`, `position = "P${k} + R*up"`,
      `[frames.b${k}]`, `angular_velocity = ["ax${k}'", "ay${k}'", "az${k}'"]`]).flat(),
    ...Array.from({ length: n }, (_, k) => [
      "[[bodies]]", `name = "ball ${k}"`, `frame = "b${k}"`, 'mass = "m"', `centre = "G${k}"`,
      'inertia = { xx = "2*m*R^2/5", yy = "2*m*R^2/5", zz = "2*m*R^2/5" }']).flat(),
    "[gravity]", 'magnitude = "g"',
    ...Array.from({ length: n }, (_, k) => [
      "[[rolling]]", `name = "ball ${k} rolls"`, `body = "ball ${k}"`, `contact = "P${k}"`, 'tangents = ["down", "across"]', 'friction = "mu"']).flat(),
    "[initial]", `q = ${zero}`, `v = ${zero}`,
    "[compare.a]", "m = 2", "[compare.b]", "m = 3", "[compare.c]", "m = 4",
    "[run]", "t_end = 2", 'methods = ["lagrange", "udwadia-kalaba", "gauss", "euler", "hamel", "voronets", "vakonomic"]',
  ].join("\n") + "\n";
}

test("a load out of time blames the part that was slow, with its sizes, from the editor and from a link", async () => {
  const text = thirtyBalls();
  // The parts' times on this machine, now: the budget is set inside the runs' start.
  const { page, problems, ctx } = await open(browser, server.url);
  await page.evaluate(() => { window.NHLAB_BUDGET_MS = { load: 120000 }; });
  assert.equal(await page.evaluate((t) => window.nhlabTest.load(t), text), true);
  const phases = await page.evaluate(() => window.nhlabPerf.loadPhases);
  const total = await page.evaluate(() => window.nhlabPerf.loads.at(-1));
  const starting = phases.find((p) => p.phase === "starting")?.ms;
  assert.deepEqual(phases.map((p) => p.phase), ["reading", "deriving", "starting"]);
  console.log(`thirty balls: deriving from ${phases[1].ms.toFixed(0)} ms, starting from ${starting.toFixed(0)} ms, loaded at ${total.toFixed(0)} ms`);
  assert.ok(starting < 0.5 * total, `the runs' start is most of the load: ${starting} of ${total} ms`);
  const budgetMs = Math.round(starting + 0.6 * (total - starting));
  await page.evaluate((ms) => { window.NHLAB_BUDGET_MS = { load: ms }; }, budgetMs);
  assert.equal(await page.evaluate((t) => window.nhlabTest.load(t + "# again\n"), text), false);
  const said = await page.textContent("#editor-status");
  const blame = /^This scenario \(150 coordinates, 60 constraints, 30 contacts\) took more than [\d.]+ s to load and was stopped while starting its 28 runs \(7 methods × 4 parameter sets\)/;
  assert.match(said, blame);
  assert.match(said, /`nhlab run` gives it 600 s, more with `--max-seconds`/);
  assert.deepEqual(problems, []);
  await ctx.close();
  // A link: the first runner opens it before the page asks (www/early.js), by a
  // margin the page does not know, and says its parts as it goes; the page's load,
  // waiting for it, blames the part it was in (it said "reading" whatever the part).
  // Its budget ends past the reading, well before the end.
  const context = await browser.newContext({ viewport: { width: 1400, height: 1000 } });
  await context.addInitScript((ms) => { window.NHLAB_BUDGET_MS = { load: ms }; }, Math.round(Math.max(2 * phases[1].ms, 400)));
  const link = "2." + zlib.deflateRawSync(Buffer.from(text), { level: 9 }).toString("base64url");
  const linked = await open(browser, `${server.url}#s=${link}`, { context });
  await linked.page.waitForSelector(".editor-status.error");
  const linkSaid = await linked.page.textContent("#editor-status");
  assert.match(linkSaid, /^This scenario \(150 coordinates, 60 constraints, 30 contacts\) took more than [\d.]+ s to load and was stopped while (deriving and compiling its equations of motion|starting its 28 runs)/, linkSaid);
  assert.deepEqual(linked.problems, []);
  await context.close();
});

/** Clicks an inert spot of the page (the title) every few milliseconds until `stop`
 *  is called, and returns the longest input delay of those clicks as the browser
 *  measured it (Event Timing: from the click to the start of its handling), in ms. */
async function inputDelayProbe(page) {
  await page.evaluate(() => {
    window.__delays = [];
    window.__clicks = 0;
    document.querySelector("h1").addEventListener("click", () => { window.__clicks += 1; });
    // Only events of 16 ms or more are reported (the API's floor); quicker ones waited less.
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) if (e.name === "pointerdown" || e.name === "click") window.__delays.push(e.processingStart - e.startTime);
    }).observe({ type: "event", durationThreshold: 16, buffered: false });
  });
  const box = await page.locator("h1").boundingBox();
  let running = true;
  const clicking = (async () => {
    while (running) {
      await page.mouse.click(box.x + 2, box.y + 2);
      await page.waitForTimeout(10);
    }
  })();
  return {
    stop: async () => {
      running = false;
      await clicking;
      await page.waitForTimeout(100); // the observer's last entries
      return page.evaluate(() => ({
        clicks: window.__clicks,
        longest: Math.max(0, ...window.__delays),
        slow: window.__delays.filter((d) => d > 100).length,
      }));
    },
  };
}

test("a model that takes a second to derive loads and plays without blocking the page", async () => {
  const context = await browser.newContext({ viewport: { width: 1400, height: 1000 } });
  await context.addInitScript(() => { window.NHLAB_BUDGET_MS = 20000; });
  const { page, problems, ctx } = await open(browser, server.url, { context });
  await waitClockPast(page, 0.2);
  const probe = await inputDelayProbe(page);
  const started = Date.now();
  // As a paste would: one change of the text and one input event (playwright's fill
  // types through the protocol, which itself holds the page's thread for 100+ ms).
  await page.evaluate((text) => {
    const editor = document.getElementById("editor");
    editor.value = text;
    editor.dispatchEvent(new Event("input"));
  }, toml(slowScenario(120)));
  await page.waitForFunction(() => document.querySelector("h1").textContent === "Too slow", null, { timeout: 20000 });
  const loading = Date.now() - started;
  // A DOM click: the probe keeps the mouse busy on the title meanwhile.
  await page.$eval("#to-end", (b) => b.click());
  await page.waitForSelector("body[data-finished='1']", { timeout: 20000 });
  await page.waitForSelector(".eq-list .eq", { timeout: 20000 });
  const { clicks, longest, slow } = await probe.stop();
  console.log(`# 120 coordinates: edit to running ${loading} ms; ${clicks} clicks meanwhile, ${slow} waited over 100 ms, the longest ${longest.toFixed(0)} ms`);
  assert.ok(loading > 300, `a model slow enough to matter (${loading} ms)`);
  assert.ok(clicks > 20, `clicks were made throughout (${clicks})`);
  // Deriving on the page's thread would hold a click for the whole load: measured
  // against the load itself, in the same run, so a busy machine slows both. Laying
  // out the new model's form and equations is the page's own work: frames of
  // 50–120 ms on these machines (software rendering), twice that on a loaded 2-core
  // CI machine. How many clicks waited over 100 ms is a figure (printed above), not
  // a test: it counts the machine's load as much as the page's work (issue 56).
  assert.ok(longest < loading / 2, `no click waited half the load (${longest.toFixed(0)} ms of ${loading} ms): the derive is off the page's thread`);
  assertPlotsDrawn(await drawnInk(page));
  assert.deepEqual(problems, []);
  await ctx.close();
});

/** The knife edge with every method and three `[compare]` sets (28 runs), 32 series
 *  and, with `trails`, 64 trailed points instead of its scene. */
function crowdedScenario({ trails = false } = {}) {
  let text = fs.readFileSync(path.join(ROOT, "scenarios", "knife-edge-incline.toml"), "utf8")
    .replace('methods = ["lagrange", "udwadia-kalaba", "gauss"]', 'methods = ["lagrange", "udwadia-kalaba", "gauss", "hamel", "voronets", "euler", "vakonomic"]')
    .replace('series = ["phi", "speed"]', `series = [${[...Array.from({ length: 30 }, (_, k) => `"sin(${k + 1}*phi) + x/${k + 1}"`), '"phi"', '"speed"'].join(", ")}]`)
    .replace("t_end = 10", "t_end = 100")
    .replace("[hamel]", "[compare.a]\nalpha = 0.2\n[compare.b]\nalpha = 0.4\n[compare.c]\nk = 0.7\n\n[hamel]");
  if (trails) {
    text = text.slice(0, text.indexOf("# The sleigh on the incline")) + Array.from({ length: 64 }, (_, j) =>
      `[[scene.shapes]]\nname = "p${j}"\nkind = "point"\nat = ["x + ${(j % 8) / 10}", "y + ${Math.floor(j / 8) / 10}"]\ntrail = true\n`).join("");
  }
  return text;
}

test("28 runs in 36 panels, or 64 trails each, answer clicks while they catch up", async () => {
  // Issue 35.11: every panel was drawn whole each frame, so tasks of 0.5–2 s ran back
  // to back after "To end" and a click waited over a second; 64 trails × 28 runs made
  // every frame 0.3–0.9 s. Drawing now has a time budget per frame (the panels left
  // over are drawn in the next frames), a panel a bound on its points and the scene
  // on its trails' points.
  for (const trails of [false, true]) {
    const { page, problems, ctx } = await open(browser, server.url);
    assert.equal(await page.evaluate((text) => window.nhlabTest.load(text), crowdedScenario({ trails })), true);
    const layout = await page.evaluate(() => window.nhlabTest.info().layout);
    assert.equal(layout.methods.length, 28);
    assert.ok(layout.panels.length >= 36, `${layout.panels.length} panels`);
    await page.click("#to-end");
    await page.waitForTimeout(1500); // samples pile up: the old frames grew with them
    const probe = await inputDelayProbe(page);
    await page.waitForTimeout(4000);
    const { clicks, longest, slow } = await probe.stop();
    console.log(`# ${trails ? "64 trails" : "32 series"} × 28 runs: ${clicks} clicks, ${slow} waited over 100 ms, the longest ${longest.toFixed(0)} ms`);
    assert.ok(clicks > 40, `clicks were answered throughout (${clicks})`);
    // The frames' work is bounded by their time budget and each panel's bound on its
    // points; the clicks' waits are figures (printed above: the longest 60–250 ms on
    // these machines, against 0.5–2 s before the budget). The clock is a backstop
    // for the old behaviour only, 10 × the normal figure, so that a busy machine
    // cannot fail it (issue 56).
    assert.ok(longest < 2500, `no click waited 2.5 s (the longest ${longest.toFixed(0)} ms)`);
    assert.ok(slow <= clicks / 2, `most clicks answered within 100 ms (${slow} of ${clicks} waited longer)`);
    // Stopped where they are, every panel is drawn in the following frames.
    await page.click("#play");
    assertPlotsDrawn(await drawnInk(page));
    assert.deepEqual(problems, []);
    await ctx.close();
  }
});

/** The knife edge's 28 runs with a scene at its documented limits: 64 trailed
 *  outlines of 256 points each. */
function crowdedBigScene() {
  const points = (s) => Array.from({ length: 256 }, (_, k) => `["cos(${k}*x)/${s + 1}", "sin(${k}*y) + ${k}/256"]`).join(", ");
  const text = crowdedScenario().replace(/series = \[[^\n]*\]/, 'series = ["phi", "speed"]');
  return text.slice(0, text.indexOf("# The sleigh on the incline")) + Array.from({ length: 64 }, (_, s) =>
    `[[scene.shapes]]\nname = "s${s}"\nkind = "polyline"\nat = ["x", "y"]\ntrail = true\npoints = [${points(s)}]\n`).join("");
}

test("28 runs of a scene at its limits draw a bounded number of points a frame and answer clicks", async () => {
  // Issue 57.5: every frame drew every run's outlines whole (28 × 64 × 256 = 458,752
  // points) and the browser rasterised them after the frame's script, out of sight
  // of its time budget: tasks of 0.5–0.7 s, Play answered after 5 s. The ghosts'
  // outlines now share a budget, the trails fade in fewer strokes when crowded, and
  // a frame stops drawing plots past 40,000 points.
  const { page, problems, ctx } = await open(browser, server.url);
  await page.evaluate(() => { window.NHLAB_BUDGET_MS = { load: 60000 }; });
  assert.equal(await page.evaluate((text) => window.nhlabTest.load(text), crowdedBigScene()), true);
  assert.equal((await page.evaluate(() => window.nhlabTest.info().layout)).methods.length, 28);
  await page.evaluate(() => {
    window.__long = [];
    new PerformanceObserver((list) => { for (const e of list.getEntries()) window.__long.push(Math.round(e.duration)); }).observe({ type: "longtask" });
  });
  for (const control of ["#play", "#to-end"]) {
    await page.evaluate(() => { window.nhlabPerf.drawnPoints.length = 0; window.__long.length = 0; });
    await page.click(control);
    const probe = await inputDelayProbe(page);
    await page.waitForTimeout(3000);
    const { clicks, longest, slow } = await probe.stop();
    const drawn = await page.evaluate(() => window.nhlabPerf.drawnPoints);
    const tasks = await page.evaluate(() => window.__long);
    const most = Math.max(...drawn);
    console.log(`# big scene × 28 runs after ${control}: ${drawn.length} frames of at most ${most} points; ${clicks} clicks, ${slow} waited over 100 ms, the longest ${longest.toFixed(0)} ms; the longest task ${Math.max(0, ...tasks)} ms`);
    assert.ok(drawn.length > 5, `frames were drawn (${drawn.length})`);
    // The work, bounded: outlines 24,000, trails 24,000 (16 a trail at least:
    // 28,672 here), a plot 20,000, the frame's plots stopping past 40,000.
    assert.ok(most <= 120000, `each frame drew at most 120,000 points (${most}; 458,752 and more before)`);
    // Times are figures (printed above; on these machines, with the ghosts and
    // trails drawn as one-pixel lines, tasks of 90–170 ms and clicks waiting 70–100 ms,
    // against 110–170 ms with wide lines and 0.5–0.7 s and 5 s before the budgets);
    // the width is held by plots' unit test; the clock is a backstop.
    assert.ok(longest < 2500, `no click waited 2.5 s (the longest ${longest.toFixed(0)} ms)`);
  }
  assert.deepEqual(problems, []);
  await ctx.close();
});

test("a step slower than its budget stops playback with a message; Reset and new scenarios work", async () => {
  const context = await browser.newContext({ viewport: { width: 1400, height: 1000 } });
  // Below the runner's 10 ms slice: the first request to step overruns.
  await context.addInitScript(() => { window.NHLAB_BUDGET_MS = { step: 5 }; });
  const page = await context.newPage();
  const problems = [];
  page.on("pageerror", (e) => problems.push(e.message));
  await page.goto(`${server.url}#gallery=knife-edge-incline`);
  await page.waitForSelector("body[data-ready='1']");
  // rk4 with dt = 1e-5: the run to its end is tens of thousands of steps, far more
  // than 5 ms of stepping whatever the machine.
  await page.evaluate(() => {
    const api = window.wasmBindings;
    const text = api.edit_number(api.edit_text(api.gallery_text("knife-edge-incline"), "run.integrator", "rk4"), "run.dt", 1e-5);
    return window.nhlabTest.load(text);
  });
  await page.click("#to-end");
  // (A runner's first request has three budgets: 0.015 s.)
  await page.waitForFunction(() => /took more than 0.0(05|15) s, so playback stopped at t = /.test(document.getElementById("notice").textContent));
  assert.equal(await page.textContent("#play"), "Play");
  assert.ok(await answerTime(page) < ANSWER_BACKSTOP, "Play answers (and restarts the runs)");
  await page.click("#to-end");
  await page.waitForFunction(() => document.getElementById("play").textContent === "Play"); // stopped again
  // Another scenario loads in a fresh runner (its plots drawn at t0 at least).
  await page.selectOption("#gallery", "chaplygin-sleigh");
  await page.waitForFunction(() => document.querySelector("h1").textContent === "Chaplygin sleigh");
  assert.deepEqual(problems, []);
  await context.close();
});

/** 200 coordinates coupled in a ring, two constraints, stepped by Udwadia–Kalaba
 *  alone: a few milliseconds a step, a fraction of a second to derive. */
function heavyStepScenario() {
  const n = 200;
  const q = Array.from({ length: n }, (_, i) => `q${i}`);
  return [
    'format = "nhlab/1"', 'title = "Heavy steps"', `coordinates = [${q.map((c) => `"${c}"`).join(", ")}]`,
    `kinetic = "${q.map((c, i) => `(${c}' + 0.5*q${(i + 1) % n}')^2`).join(" + ")}"`,
    `potential = "${q.map((c) => `cos(${c})`).join(" + ")}"`,
    "[[constraints]]", `expr = "q0' - sin(q1)*q2'"`, "[[constraints]]", `expr = "q4' - sin(q5)*q6'"`,
    "[run]", 'methods = ["udwadia-kalaba"]', "t_end = 2",
    "[initial.q]", ...q.map((c, i) => `${c} = ${0.1 * (i % 7)}`),
    "[initial.v]", ...q.filter((c) => c !== "q0" && c !== "q4").map((c) => `${c} = 0`),
  ].join("\n") + "\n";
}

test("the runner times one step before asking for more; what is slow is what is blamed", async () => {
  // Issue 35.12: the runner's first request asked for 1,000 steps on a guess of
  // 0.01 ms each, so a model stepping in a few ms was stopped as "took more than 2 s".
  const { page, problems, ctx } = await open(browser, server.url);
  assert.equal(await page.evaluate((text) => window.nhlabTest.load(text), heavyStepScenario()), true);
  await page.click("#to-end");
  // Any progress will do (a step of this model takes seconds on a loaded 2-core
  // machine): what is tested is that the first request is not stopped as too slow.
  await waitClockPast(page, 0, { timeout: 120_000 });
  assert.doesNotMatch(await page.textContent("#notice"), /took more than/);
  // 10,000 unknown keys: read and warned about within the load budget (each warning
  // re-read the text from its start for its line, and the known names for its hint).
  const unknown = ['format = "nhlab/1"', 'title = "Unknown keys"', 'coordinates = ["x"]', "kinetic = \"x'^2/2\"", 'potential = "x^2/2"',
    ...Array.from({ length: 10000 }, (_, i) => `key${i} = ${i}`), "[initial.q]", "x = 1", "[initial.v]", "x = 0"].join("\n");
  assert.equal(await page.evaluate((text) => window.nhlabTest.load(text), unknown), true);
  const warned = await page.textContent("#editor-status");
  assert.match(warned, /^loaded, with warnings/);
  assert.match(warned, /line 10005, column 1: key9999: unknown field `key9999` \(ignored\)/);
  // A scene at its limits, 64 shapes of 256 points, loads and plays.
  const points = (s) => Array.from({ length: 256 }, (_, k) => `["cos(${k}*x)/${s + 1}", "sin(${k}*y) + ${k}/256"]`).join(", ");
  const scene = ['format = "nhlab/1"', 'title = "Big scene"', 'coordinates = ["x", "y"]', "kinetic = \"(x'^2 + y'^2)/2\"", 'potential = "(x^2 + y^2)/2"',
    "[initial.q]", "x = 1", "y = 0", "[initial.v]", "x = 0", "y = 1", "[scene]", 'projection = "plane"',
    ...Array.from({ length: 64 }, (_, s) => ["[[scene.shapes]]", `name = "s${s}"`, 'kind = "polyline"', 'at = ["x", "y"]', 'trail = true', `points = [${points(s)}]`]).flat()].join("\n");
  assert.equal(await page.evaluate((text) => window.nhlabTest.load(text), scene), true);
  await toEnd(page);
  assert.equal(await page.textContent("h1"), "Big scene");
  assert.doesNotMatch(await page.textContent("#notice"), /took more than/);
  assert.deepEqual(problems, []);
  await ctx.close();
  // Out of time while reading: the text is blamed, not the model's size.
  const context = await browser.newContext({ viewport: { width: 1400, height: 1000 } });
  await context.addInitScript(() => { window.NHLAB_BUDGET_MS = { load: 60 }; });
  const tight = await open(browser, server.url, { context });
  assert.equal(await tight.page.evaluate((text) => window.nhlabTest.load(text), unknown), false);
  const status = await tight.page.textContent("#editor-status");
  assert.match(status, /^This scenario \(14\d,\d{3} characters\) took more than 0.06 s to load and was stopped while its text was being read and checked/, status);
  assert.doesNotMatch(status, /Models of this size/);
  assert.deepEqual(tight.problems, []);
  await context.close();
});

test("a valid link whose scenario has problems shows them in the editor", async () => {
  const broken = { format: "nhlab/1", title: "Broken", coordinates: ["x"], kinetic: "x'^2/2 + w", initial: { q: { x: 0 } } };
  const { page, problems, ctx } = await open(browser, `${server.url}#s=${payloadOf(broken)}`);
  await page.waitForFunction(() => /has problems/.test(document.getElementById("notice").textContent));
  assert.match(await page.inputValue("#editor"), /kinetic = "x'\^2\/2 \+ w"/);
  const status = await page.textContent("#editor-status");
  assert.match(status, /line \d+, column \d+: kinetic: unknown name `w`/, status);
  assert.equal(await page.locator("#editor-view .cm-lint-marker-error").count(), 1);
  assert.equal(await page.textContent("h1"), "Chaplygin sleigh");
  await waitClockPast(page, 0.2);
  assert.deepEqual(problems, []);
  await ctx.close();
});

test("a trap in the worker or on the page never poisons the page", async () => {
  const { page, problems, ctx } = await open(browser, server.url);
  const answer = await page.evaluate(() => window.nhlabTest.trapWorker());
  assert.equal(answer.ok, false);
  // The worker was replaced: loading goes on working.
  await page.selectOption("#gallery", "knife-edge-incline");
  await page.waitForFunction(() => document.querySelector("h1").textContent.startsWith("Knife edge"));
  await toEnd(page);
  assertPlotsDrawn(await drawnInk(page));
  // A trap on the page: a fresh instance, the last scenario back.
  await page.evaluate(() => window.nhlabTest.trapPage());
  await page.waitForFunction(() => /restarted with the last scenario/.test(document.getElementById("notice").textContent));
  assert.ok((await page.textContent("h1")).startsWith("Knife edge"));
  // Reset is answered by the runner: the clock shows the old run's end until then,
  // and the run that had finished stays paused at its start.
  await page.click("#reset");
  await page.waitForFunction(() => Number(/t = ([0-9.]+)/.exec(document.getElementById("clock").textContent)[1]) < 0.2);
  if ((await page.textContent("#play")) === "Play") await page.click("#play");
  await waitClockPast(page, 0.2);
  assertPlotsDrawn(await drawnInk(page));
  await page.selectOption("#gallery", "chaplygin-sleigh");
  await page.waitForFunction(() => document.querySelector("h1").textContent === "Chaplygin sleigh");
  await page.waitForSelector(".eq-list .eq");
  const unexpected = problems.filter((p) => !/self-test trap|unreachable|RuntimeError/.test(p));
  assert.deepEqual(unexpected, []);
  await ctx.close();
});

test("a link too long to open is never made", async () => {
  const { page, problems, ctx } = await open(browser, server.url);
  const text = await page.inputValue("#editor");
  let seed = 1;
  const letters = Array.from({ length: 100000 }, () => String.fromCharCode(97 + ((seed = (seed * 48271) % 2147483647) % 26))).join("");
  await page.fill("#editor-view .cm-content", text.replace(/description = "[^"]*"/, `description = "${letters}"`));
  await page.waitForFunction(() => document.getElementById("description").textContent.length > 1000);
  await page.click("#share");
  assert.match(await page.textContent("#notice"), /too large to share as a link \(\d+ characters; the limit is 65536\)/);
  assert.equal(await page.evaluate(() => document.getElementById("share-dialog").open), false);
  assert.deepEqual(problems, []);
  await ctx.close();
});

/** Records the page's long tasks (50 ms or more) as `window.__long`, from its start. */
const recordLongTasks = () => {
  window.__long = [];
  new PerformanceObserver((list) => { for (const e of list.getEntries()) window.__long.push(Math.round(e.duration)); })
    .observe({ type: "longtask", buffered: true });
};

test("a megabyte on one line (a 2 KB link) neither freezes the page nor slows typing", async () => {
  // Issue 35.10: the editor's name marks re-read the line's start for every name on
  // it, so this link held the page for seconds (32 s on the reporter's machine) and
  // each key typed on a 100 KB line cost a second.
  const long = Array.from({ length: 260000 }, () => "x").join(" + ");
  const scenario = { format: "nhlab/1", title: "Long line", coordinates: ["x"], kinetic: "x'^2/2", potential: long, initial: { q: { x: 0.1 } } };
  const link = `${server.url}#s=${payloadOf(scenario)}`;
  assert.ok(link.length < 2100 && long.length > 1e6, `${link.length} characters of link for ${long.length} of text`);
  const context = await browser.newContext({ viewport: { width: 1400, height: 1000 } });
  await context.addInitScript(recordLongTasks);
  const { page, problems, ctx } = await open(browser, link, { context });
  await page.waitForFunction(() => /has problems/.test(document.getElementById("notice").textContent));
  assert.match(await page.textContent("#editor-status"), /potential: the expression is too long \(1039997 bytes; the limit is 65536\)/);
  const loading = await page.evaluate(() => window.__long);
  // The page's start and the link's steps (reading it, the editor's text, its problems)
  // are tasks of their own, each under 200 ms on these machines (up to twice that on a
  // loaded CI machine); together they were 0.3–0.45 s, and the marks alone 2.4 s more.
  // A backstop at 10 × that (issue 56: a busy machine must not fail it), far
  // below the seconds the marks took.
  console.log(`# a megabyte line: the longest task while the link opened ${Math.max(...loading)} ms`);
  assert.ok(Math.max(...loading) < 2500, `the longest task while the link opened: ${Math.max(...loading)} ms (${loading})`);
  // Only the visible part of the line is marked (the names of the last good load).
  const shown = () => page.evaluate(() => {
    const line = document.querySelectorAll("#editor-view .cm-line")[4];
    return { chars: line.textContent.length, marked: line.querySelectorAll(".cm-name-coordinate").length };
  });
  const start = await shown();
  assert.ok(start.marked > 10 && start.chars < 20000, JSON.stringify(start));
  // Typing at the far end of the line: every key answered within 200 ms.
  await page.click("#editor-view .cm-content");
  await page.keyboard.press("Control+Home");
  for (let i = 0; i < 4; i++) await page.keyboard.press("ArrowDown");
  await page.keyboard.press("End");
  await page.keyboard.press("ArrowLeft"); // inside the closing quote
  await page.evaluate(() => { window.__long = []; });
  await page.keyboard.type(" + x + x", { delay: 60 });
  // A long text's draft is kept once typing pauses, and at once when the page is left.
  const kept = () => page.evaluate(() => JSON.parse(sessionStorage.getItem("nhlab:draft") ?? "{}").text ?? "");
  assert.doesNotMatch(await kept(), /x \+ x \+ x \+ x"\n/, "not at every key");
  await page.evaluate(() => window.dispatchEvent(new Event("pagehide")));
  assert.match(await kept(), /x \+ x \+ x \+ x"\n/, "kept when the page is left");
  await page.waitForTimeout(1500); // the debounced load of what was typed
  const typing = await page.evaluate(() => window.__long);
  // Each key cost a second before; a key's task is tens of ms now, and the bound a
  // backstop between the two (issue 56).
  console.log(`# a megabyte line: tasks while typing ${typing} ms`);
  assert.ok(typing.every((d) => d < 800), `tasks while typing at the end of the line: ${typing} ms`);
  const end = await shown();
  assert.ok(end.marked > 10 && end.chars < 20000, JSON.stringify(end));
  assert.match(await page.inputValue("#editor"), /x \+ x \+ x \+ x"\n/);
  assert.ok(await answerTime(page) < ANSWER_BACKSTOP);
  assert.deepEqual(problems, []);
  await ctx.close();
});

test("every link issue 9 observed leaves the page answering input within a second", async () => {
  const chain = (n) => ({
    format: "nhlab/1", title: `chain of ${n}`, coordinates: ["x"], kinetic: `(1 + d${n}^2)*x'^2/2`,
    definitions: Object.fromEntries([["d1", "x"], ...Array.from({ length: n - 1 }, (_, k) => [`d${k + 2}`, `d${k + 1}*d${k + 1} + sin(d${k + 1})`])]),
    initial: { q: { x: 0.01 }, v: { x: 1 } },
  });
  const many = (n, constraints) => {
    const coordinates = Array.from({ length: n }, (_, i) => `q${i}`);
    return {
      format: "nhlab/1", title: `${n} coordinates`, coordinates, kinetic: coordinates.map((q) => `${q}'^2`).join(" + "),
      constraints: Array.from({ length: constraints }, (_, k) => ({ expr: `q${2 * k}' - cos(q${2 * k + 1})*q${(2 * k + 2) % n}'` })),
      initial: { q: Object.fromEntries(coordinates.map((q, i) => [q, 0.01 * i])) },
    };
  };
  const sines = { ...many(1, 0), title: "3000 sines", potential: Array.from({ length: 3000 }, (_, k) => `sin(${k + 1}*q0)`).join(" + "), initial: { q: { q0: 0.1 }, v: { q0: 1 } } };
  const cases = [
    ["14 chained definitions", chain(14), /chain of 14/],
    ["28 coordinates, 14 constraints", many(28, 14), /28 coordinates/],
    ["5,000 coordinates", { ...many(5000, 0), kinetic: "q0'^2", initial: { q: { q0: 0 } } }, /5000 coordinates; the lab supports at most 200/],
    ["a potential of 3,000 sines", sines, /3000 sines|took more than/],
    ["150 coordinates", many(150, 0), /150 coordinates|took more than/],
  ];
  for (const [what, scenario, expected] of cases) {
    const { page, problems, ctx } = await open(browser, `${server.url}#s=${payloadOf(scenario)}`);
    await page.waitForFunction((source) => new RegExp(source).test(
      `${document.querySelector("h1").textContent} ${document.getElementById("editor-status").textContent}`), expected.source);
    const shown = `${await page.textContent("h1")} ${await page.textContent("#editor-status")}`;
    assert.match(shown, expected, `${what}: ${shown}`);
    await page.click("#to-end"); // runs catch up within a time budget per frame
    assert.ok(await answerTime(page) < ANSWER_BACKSTOP, what);
    assert.ok(await answerTime(page) < ANSWER_BACKSTOP, what);
    if (scenario === sines && /3000 sines/.test(shown)) {
      // Its 3,000-term sum waits for a click to be typeset (51,000 MathML symbols,
      // a second of layout); the short equations around it are typeset.
      const long = page.locator("#eq-body .eq-long");
      await long.waitFor();
      assert.match(await long.textContent(), /Too long to typeset at once \(5\d,\d{3} symbols\)/);
      assert.ok(await page.locator("#eq-body .eq-math math").count() >= 3, "the other equations are typeset");
      await long.locator("button", { hasText: "Typeset it" }).click();
      await page.waitForFunction(() => document.querySelector("#eq-body .eq-long math")?.getElementsByTagName("mi").length > 3000);
      assert.ok(await page.evaluate(() => /3000\W*cos\W*3000\W*q\W*0\W*$/.test(document.querySelector("#eq-body .eq-long").textContent)), "its last term");
    }
    assert.deepEqual(problems, [], what);
    await ctx.close();
  }
});

// ---- Issue 14: never lose work ----

test("an edited scenario survives a reload: the address bar links to it, the gallery says it is edited", async () => {
  const { page, problems, ctx } = await open(browser, `${server.url}#gallery=chaplygin-sleigh`);
  const original = await page.inputValue("#editor");
  const edited = `# my own sleigh, with a comment the link must keep\n${original.replace(/^a = .*$/m, "a = 0.31  # longer")}`;
  assert.notEqual(edited, original);
  await page.fill("#editor-view .cm-content", edited);
  await page.waitForFunction(() => location.hash.startsWith("#s=2."));
  assert.equal(await page.isVisible("#edited-mark"), true);
  assert.match(await page.evaluate(() => document.querySelector("#gallery option:checked").textContent), /\(edited\)$/);
  await page.reload();
  await page.waitForSelector("body[data-ready='1']");
  assert.equal(page.leaveWarnings, 1, "leaving with unshared edits asked first");
  assert.equal(await page.inputValue("#editor"), edited, "the text as typed, comments included");
  assert.equal(await page.isVisible("#restore"), false, "nothing to offer: the address bar held it");
  // Back to the gallery item: the mark goes, the address is the gallery's again.
  await page.selectOption("#gallery", "rolling-disk");
  await page.waitForFunction(() => location.hash === "#gallery=rolling-disk");
  assert.equal(await page.isVisible("#edited-mark"), false);
  assert.deepEqual(problems, []);
  await ctx.close();
});

test("text with problems is kept in the tab: a reload offers it back", async () => {
  const { page, problems, ctx } = await open(browser, `${server.url}#gallery=chaplygin-sleigh`);
  const broken = `${await page.inputValue("#editor")}\n[initial.q\nhalf typed = `;
  await page.fill("#editor-view .cm-content", broken);
  await page.waitForSelector(".editor-status.error");
  await page.reload();
  await page.waitForSelector("body[data-ready='1']");
  await page.waitForSelector("#restore:not([hidden])");
  assert.match(await page.textContent("#restore-text"), /This tab was editing “Chaplygin sleigh”/);
  await page.click("#restore-draft");
  assert.equal(await page.inputValue("#editor"), broken);
  await page.waitForSelector(".editor-status.error");
  assert.equal(await page.textContent("h1"), "Chaplygin sleigh", "the last good run plays meanwhile");
  assert.deepEqual(problems, []);
  await ctx.close();
});

test("printing gives the title, scene, plots, equations and the whole text, not the controls", async () => {
  const { page, problems, ctx } = await open(browser, `${server.url}#gallery=chaplygin-sleigh`);
  await page.waitForSelector(".eq-list .eq", { timeout: 20000 });
  await page.evaluate(() => window.dispatchEvent(new Event("beforeprint")));
  await page.emulateMedia({ media: "print" });
  for (const hidden of [".transport", "#editor", "#parameters", "header.top", ".fig-head button", "footer"]) {
    assert.equal(await page.locator(hidden).first().isVisible(), false, `${hidden} is not printed`);
  }
  for (const shown of ["#title", "#description", "#plot-scene", "#plot-trajectory", ".eq-list .eq", "#print-text"]) {
    assert.equal(await page.locator(shown).first().isVisible(), true, `${shown} is printed`);
  }
  assert.equal(await page.textContent("#print-text"), await page.inputValue("#editor"), "the whole text, as written");
  await page.screenshot({ path: path.join(SHOTS, "print.png"), fullPage: true });
  assert.deepEqual(problems, []);
  await ctx.close();
});

test("sliders keep their range; a scenario's min, max, step and units show; axes carry units", async () => {
  const { page, problems, ctx } = await open(browser, `${server.url}#gallery=pendulum-cartesian`);
  await waitClockPast(page, 0.2);
  const slider = (name) => page.evaluate((n) => {
    const s = document.querySelector(`.param input[aria-label='${n} slider']`);
    return { min: Number(s.min), max: Number(s.max), step: Number(s.step), value: Number(s.value) };
  }, name);
  // g = { value = 9.81, min = 0, max = 20, step = 0.01, unit = "m/s^2" }
  assert.deepEqual(await slider("g"), { min: 0, max: 20, step: 0.01, value: 9.81 });
  const unitOf = (n) => page.evaluate((n) => document.querySelector(`.param input[aria-label='${n}']`).closest(".param").querySelector(".unit")?.textContent ?? null, n);
  assert.equal(await unitOf("g"), "m/s²");
  // L has a unit but no range: its range is picked once, and kept across two releases.
  const before = await slider("L");
  assert.deepEqual([before.min, before.max], [0, 2]);
  for (const v of ["1.5", "1.8"]) {
    await page.evaluate((v) => {
      const s = document.querySelector(".param input[aria-label='L slider']");
      s.value = v;
      s.dispatchEvent(new Event("input"));
      s.dispatchEvent(new Event("change"));
    }, v);
    await page.waitForFunction((v) => document.getElementById("editor").value.includes(`L = { value = ${v}, unit = "m" }`), v);
    const now = await slider("L");
    assert.deepEqual([now.min, now.max, now.value], [0, 2, Number(v)], `after releasing at ${v}`);
  }
  // A value typed outside the scenario's range is refused with a message; the text keeps its value.
  const text = await page.inputValue("#editor");
  await page.fill(".param input[aria-label='g']", "25");
  await page.press(".param input[aria-label='g']", "Enter");
  await page.waitForSelector(".editor-status.error");
  assert.match(await page.textContent("#editor-status"), /parameters\.g: 25 is outside the range the scenario gives \(0 … 20\)/);
  assert.equal(await page.inputValue("#editor"), text);
  assert.equal(await page.inputValue(".param input[aria-label='g']"), "9.81");
  // Initial-state fields and axes carry the units of [units].
  await page.waitForFunction(() => document.querySelectorAll("#initial label").length >= 4);
  const labels = await page.evaluate(() => [...document.querySelectorAll("#initial label")].map((l) => l.textContent));
  assert.ok(labels.includes("x [m]") && labels.some((l) => l.startsWith("y′ [m/s]")), JSON.stringify(labels));
  await page.locator("#plot-trajectory").scrollIntoViewIfNeeded();
  await page.screenshot({ path: path.join(SHOTS, "units.png") });
  assert.deepEqual(problems, []);
  await ctx.close();
});

test("embedded in a real iframe: fits 720×560 and a phone's width, shows the controls chosen in the Embed dialog", async () => {
  // The author ticks two controls in the Embed dialog: the snippet carries them.
  const author = await open(browser, `${server.url}#gallery=pendulum-cartesian`);
  await author.page.click("#embed-open");
  await author.page.check("#embed-controls input[value='parameters']");
  await author.page.check("#embed-controls input[value='methods']");
  const snippet = await author.page.inputValue("#embed-snippet");
  assert.match(snippet, /&embed&controls=parameters,methods&panel=trajectory"/);
  assert.match(snippet, /width:100%;max-width:720px;aspect-ratio:720\/560/);
  await author.page.click("#close-share");
  await author.ctx.close();
  const src = /src="([^"]+)"/.exec(snippet)[1];
  const measure = (frame) => frame.evaluate(() => {
    const d = document.documentElement;
    const visible = (sel) => { const e = document.querySelector(sel); const r = e?.getBoundingClientRect(); return !!r && r.width > 0 && r.height > 0 && r.top < innerHeight && r.bottom > 0; };
    return { sw: d.scrollWidth, cw: d.clientWidth, sh: d.scrollHeight, ch: d.clientHeight, sliders: visible(".param input[type='range']"), methods: visible(".methods-card"), editor: visible("#editor"), scene: visible("#plot-scene"), play: visible("#play") };
  });
  const cases = [
    // [page width, the notes' iframe: fixed 720×560, or the responsive snippet on a phone]
    { page: 900, iframe: `<iframe src="${src.replace("&controls=parameters,methods", "")}" width="720" height="560" style="border:1px solid #ccc"></iframe>`, controls: false },
    { page: 900, iframe: snippet, controls: true },
    { page: 390, iframe: snippet, controls: true },
    { page: 390, iframe: snippet.replace("&controls=parameters,methods", ""), controls: false },
  ];
  for (const c of cases) {
    const ctx = await browser.newContext({ viewport: { width: c.page, height: 800 } });
    const page = await ctx.newPage();
    const problems = [];
    page.on("pageerror", (e) => problems.push(e.message));
    page.on("console", (m) => { if (m.type() === "error") problems.push(m.text()); });
    await page.setContent(`<!doctype html><meta name="viewport" content="width=device-width"><body style="margin:0 8px"><p>Course notes</p>${c.iframe}<p>more notes</p></body>`);
    const frame = await (await page.waitForSelector("iframe")).contentFrame();
    await frame.waitForSelector("body[data-ready='1']", { timeout: 30000 });
    await frame.waitForFunction(() => Number(/t = ([0-9.]+)/.exec(document.getElementById("clock").textContent)[1]) > 0.3);
    const m = await measure(frame);
    const what = `${c.page} px page, ${c.controls ? "with" : "without"} controls: ${JSON.stringify(m)}`;
    assert.ok(m.sw <= m.cw, `no horizontal overflow (${what})`);
    assert.ok(m.scene && m.play && !m.editor, `scene and playback in view, no editor (${what})`);
    // A wide frame's height is used, no scrolling; in a narrow one the parts follow
    // each other, the scene first (the host may size the frame to the reported height).
    if (c.page >= 600) assert.ok(m.sh <= m.ch, `the page fits the frame's height (${what})`);
    if (c.controls && c.page >= 600) assert.ok(m.sliders && m.methods, `the chosen controls are in view (${what})`);
    if (c.controls) {
      // A reader's slider change re-runs the embedded scenario.
      await frame.evaluate(() => {
        const s = document.querySelector(".param input[aria-label='g slider']");
        s.value = "5";
        s.dispatchEvent(new Event("input"));
        s.dispatchEvent(new Event("change"));
      });
      await frame.waitForFunction(() => /g = \{ value = 5(\.0)?,/.test(document.getElementById("editor").value));
    } else {
      assert.equal(await frame.isVisible(".param"), false);
    }
    await page.screenshot({ path: path.join(SHOTS, `embed-iframe-${c.page}${c.controls ? "-controls" : ""}.png`), fullPage: true });
    assert.deepEqual(problems, [], what);
    await ctx.close();
  }
});

test("Keep for comparison overlays a parameter set in its own colour; its CSV is the command line's", async () => {
  const { page, problems, ctx } = await open(browser, `${server.url}#gallery=chaplygin-sleigh`);
  await waitClockPast(page, 0.2);
  await page.click("#keep-parameters");
  await page.waitForFunction(() => document.getElementById("editor").value.includes('[compare."set 1"]'));
  // The author's text is kept; the set holds every parameter's value at the click.
  const text = await page.inputValue("#editor");
  assert.match(text, /\[compare\."set 1"\]\nm = 1\.0\na = 0\.5\nI = 0\.2\n/);
  assert.match(text, /^format = "nhlab\/1"/);
  // A slider moves the scenario's own values; the set's run stays.
  await page.evaluate(() => {
    const s = document.querySelector(".param input[aria-label='a slider']");
    s.value = "-0.5";
    s.dispatchEvent(new Event("input"));
    s.dispatchEvent(new Event("change"));
  });
  // (Six lines are there from the click on: wait for the slider's run, whose set differs.)
  await page.waitForFunction(() => [...document.querySelectorAll("#legend li")].some((i) => i.textContent.startsWith("●lagrange · set 1: a = 0.5")));
  const legend = await page.$$eval("#legend li", (items) => items.map((i) => i.textContent));
  assert.equal(legend.length, 6, JSON.stringify(legend));
  assert.match(await page.textContent("#parameters .compare"), /compared: set 1: a = 0\.5/);
  await page.locator("#parameters").screenshot({ path: path.join(SHOTS, "compare-controls.png") });
  await page.locator("#legend").screenshot({ path: path.join(SHOTS, "compare-legend.png") });
  assert.match(await page.textContent("#legend-note"), /each parameter set of \[compare\] in a colour of its own/);
  // The set's colour (pink) is drawn beside the methods' own in the plots.
  const colours = await page.evaluate(() => {
    const lagrange = window.wasmBindings.methods().find((m) => m.id === "lagrange").colour;
    return [lagrange, "#e377c2"];
  });
  // (Read in one evaluation: the legend is rebuilt as the runs advance.)
  const swatches = await page.evaluate(() => [...document.querySelectorAll("#legend .swatch")].map((e) => getComputedStyle(e).backgroundColor));
  assert.ok(swatches.includes("rgb(227, 119, 194)"), JSON.stringify(swatches));
  await waitClockPast(page, 2);
  for (const id of ["plot-trajectory", "plot-series-1"]) {
    const counts = await colourPixels(page, id, colours);
    counts.forEach((n, k) => assert.ok(n > 20, `${id}: colour ${colours[k]} drawn (${n} pixels)`));
  }
  await page.locator("#plot-trajectory").scrollIntoViewIfNeeded();
  await page.screenshot({ path: path.join(SHOTS, "compare.png") });
  // The CSV names each row's set and equals `nhlab run` on the same text.
  const edited = await page.inputValue("#editor");
  const { text: csv } = await downloadText(page, "#export-csv");
  const cli = process.env.NHLAB_CLI ?? path.join(ROOT, "target", "release", "nhlab");
  let expected;
  try {
    expected = execFileSync(cli, ["run", "-", "--out", "-"], { input: edited, encoding: "utf8", maxBuffer: 64 << 20, stdio: ["pipe", "pipe", "ignore"] });
  } catch (e) {
    expected = e.stdout; // Hamel's run ends early (status 1); its samples are written
  }
  assert.ok(csv.split("\n")[0].endsWith(",set"));
  assert.ok(csv.includes(",set 1\n"));
  assert.equal(csv, expected, "page CSV = CLI CSV with a parameter set");
  // Clear comparisons removes [compare]: back to one run per method.
  await page.click("#clear-comparisons");
  await page.waitForFunction(() => document.querySelectorAll("#legend li").length === 3);
  assert.ok(!(await page.inputValue("#editor")).includes("[compare"));
  assert.deepEqual(problems, []);
  await ctx.close();
});

test("the editor highlights TOML, marks the scenario's names, completes them, and falls back to a plain text box", async () => {
  const { page, problems, ctx } = await open(browser, `${server.url}#gallery=chaplygin-sleigh`);
  await page.waitForSelector("#editor-view .cm-content");
  assert.equal(await page.isVisible("#editor"), false, "the textarea gave its place to the editor");
  // TOML tokens and the scenario's names in its expressions, each kind in its class.
  const marks = await page.evaluate(() => {
    const of = (cls) => [...new Set([...document.querySelectorAll(`#editor-view .${cls}`)].map((e) => e.textContent))].sort();
    return { coordinates: of("cm-name-coordinate"), parameters: of("cm-name-parameter"), definitions: of("cm-name-definition"), functions: of("cm-name-function") };
  });
  assert.ok(["phi", "x", "x'", "y'"].every((n) => marks.coordinates.includes(n)), JSON.stringify(marks));
  assert.ok(["I", "a", "m"].every((n) => marks.parameters.includes(n)), JSON.stringify(marks));
  assert.deepEqual(marks.definitions, ["u"]);
  assert.ok(marks.functions.includes("sin") && marks.functions.includes("cos"), JSON.stringify(marks));
  const tokenColours = await page.evaluate(() => new Set([...document.querySelectorAll("#editor-view .cm-line span")].map((e) => getComputedStyle(e).color)).size);
  assert.ok(tokenColours >= 5, `${tokenColours} colours of tokens`);
  // Completion: the scenario's names and the functions, from the word before the caret.
  await page.locator("#editor-view .cm-content").focus();
  await page.keyboard.press("Control+End");
  await page.keyboard.type('\n[view]\nseries = ["ph');
  await page.waitForSelector("#editor-view .cm-tooltip-autocomplete");
  const offered = await page.$$eval("#editor-view .cm-tooltip-autocomplete li", (e) => e.map((x) => x.textContent));
  assert.ok(offered.some((o) => o.startsWith("phi") && o.includes("coordinate")), JSON.stringify(offered));
  assert.ok(offered.some((o) => o.startsWith("phi'") && o.includes("velocity")), JSON.stringify(offered));
  await page.keyboard.press("Escape");
  await page.keyboard.type("i*s");
  await page.keyboard.press("Control+Space");
  await page.waitForSelector("#editor-view .cm-tooltip-autocomplete");
  const functions = await page.$$eval("#editor-view .cm-tooltip-autocomplete li", (e) => e.map((x) => x.textContent));
  assert.ok(functions.some((o) => o.startsWith("sin")) && functions.some((o) => o.startsWith("sqrt")), JSON.stringify(functions));
  await page.keyboard.type("q");
  await page.waitForTimeout(150); // the list takes keys after a short delay (misclicks)
  await page.keyboard.press("Enter");
  assert.match(await page.inputValue("#editor"), /series = \["phi\*sqrt\("\]/);
  // Typing is an edit like any other: the debounced load reports the unfinished line.
  await page.waitForSelector(".editor-status.error");
  await page.screenshot({ path: path.join(SHOTS, "editor.png") });
  assert.deepEqual(problems, []);
  await ctx.close();
  // Without its bundle (a blocked script, an old cache) the page keeps the plain text box.
  const bare = await browser.newContext({ viewport: { width: 1400, height: 1000 } });
  await bare.route("**/editor.js", (route) => route.fulfill({ status: 404, body: "" }));
  const plain = await open(browser, `${server.url}#gallery=chaplygin-sleigh`, { context: bare });
  assert.equal(await plain.page.isVisible("#editor"), true);
  assert.equal(await plain.page.locator("#editor-view").count(), 0);
  const text = await plain.page.inputValue("#editor");
  await plain.page.fill("#editor", text.replace('title = "Chaplygin sleigh"', 'title = "Plain sleigh"'));
  await plain.page.waitForFunction(() => document.querySelector("h1").textContent === "Plain sleigh");
  assert.deepEqual(plain.problems.filter((p) => !/editor\.js|404/.test(p)), []);
  await bare.close();
});

test("dark mode follows the system setting; methods are told apart by their marks too", async () => {
  const ctx = await browser.newContext({ viewport: { width: 1400, height: 1000 }, colorScheme: "dark" });
  const { page, problems } = await open(browser, server.url, { context: ctx });
  await waitClockPast(page, 0.3);
  const look = await page.evaluate(() => {
    const luminance = (c) => { const [r, g, b] = c.match(/\d+/g).map(Number); return (0.2126 * r + 0.7152 * g + 0.0722 * b) / 255; };
    return {
      page: luminance(getComputedStyle(document.body).backgroundColor),
      ink: luminance(getComputedStyle(document.getElementById("title")).color),
      editor: luminance(getComputedStyle(document.querySelector(".editor-box")).backgroundColor),
      marks: [...document.querySelectorAll("#legend .mark")].map((m) => m.textContent),
    };
  });
  assert.ok(look.page < 0.15 && look.editor < 0.15 && look.ink > 0.8, JSON.stringify(look));
  // Each overlaid method has its own mark, drawn along its lines and shown in the legend.
  assert.equal(look.marks.length, 3);
  assert.equal(new Set(look.marks).size, 3, JSON.stringify(look.marks));
  // The figures stay on white paper, drawn.
  assertPlotsDrawn(await drawnInk(page));
  await page.screenshot({ path: path.join(SHOTS, "dark.png") });
  // Printing is on white whatever the screen's scheme.
  await page.emulateMedia({ media: "print" });
  const printed = await page.evaluate(() => getComputedStyle(document.getElementById("title")).color);
  assert.equal(printed, "rgb(29, 35, 48)");
  assert.deepEqual(problems, []);
  await ctx.close();
});

test("the guided example's last step overlays a compared incline, named in the legend", async () => {
  const { page, problems, ctx } = await open(browser, server.url);
  await page.click("#help-open");
  await page.waitForSelector("#help-dialog[open] #help-body h1");
  await page.locator("#help-body .open-example").nth(5).click();
  await page.waitForFunction(() => document.getElementById("title").textContent === "My knife edge");
  await page.waitForFunction(() => /steep: alpha = 0\.8/.test(document.getElementById("legend").textContent));
  const legend = await page.textContent("#legend");
  for (const m of ["lagrange", "gauss"]) assert.ok(legend.includes(`${m} · steep: alpha = 0.8`), legend);
  await waitClockPast(page, 0.5);
  assertPlotsDrawn(await drawnInk(page));
  assert.deepEqual(problems, []);
  await ctx.close();
});

/** Waits until the Help's heading `id` is at the top of the Help's box. */
const scrolledTo = (page, id) => page.waitForFunction((id) => {
  const h = document.getElementById(id);
  const box = document.getElementById("help-body").getBoundingClientRect();
  const r = h?.getBoundingClientRect();
  return r && r.top >= box.top - 2 && r.top < box.top + 80;
}, id);

test("help opens from the header: the guided example loads into the editor, the reference's links stay inside", async () => {
  const { page, problems, ctx } = await open(browser, server.url);
  await page.click("#help-open");
  await page.waitForSelector("#help-dialog[open] #help-body h1");
  assert.equal(await page.textContent("#help-body h1"), "Write your first system");
  await page.screenshot({ path: path.join(SHOTS, "help.png") });
  // Step 3 of the walk-through opens in the editor and plays.
  const buttons = await page.$$("#help-body .open-example");
  assert.equal(buttons.length, 6);
  await buttons[2].click();
  assert.equal(await page.isVisible("#help-dialog"), false);
  await page.waitForFunction(() => document.getElementById("title").textContent === "My knife edge");
  assert.match(await page.inputValue("#editor"), /name = "blade"/);
  await waitClockPast(page, 0.2);
  // The reference tab; one of its own links scrolls within it, the address bar is untouched.
  await page.keyboard.press("?");
  await page.click("#help-tab-reference");
  await page.waitForFunction(() => document.getElementById("help-body").dataset.page === "reference");
  const address = page.url();
  await page.click("#help-body a[href='#parameter-ranges-and-units-nhlab-addition']");
  await scrolledTo(page, "parameter-ranges-and-units-nhlab-addition");
  assert.equal(page.url(), address);
  assert.equal(await page.title(), "My knife edge — nhlab");
  // The lab's guide: its links to the reference open the reference there; the
  // repository's other documents are named, not linked to addresses the page lacks.
  await page.click("#help-tab-lab");
  await page.waitForFunction(() => document.getElementById("help-body").dataset.page === "lab");
  assert.equal(await page.textContent("#help-body h1"), "The lab: the page and the command line");
  assert.equal(await page.locator("#help-body a[href*='benchmarks.md'], #help-body a[href*='architecture.md']").count(), 0);
  assert.ok(await page.locator("#help-body .doc-name").count() >= 2);
  await page.click("#help-body a[href='reference.md#limits']");
  await page.waitForFunction(() => document.getElementById("help-body").dataset.page === "reference");
  await scrolledTo(page, "limits");
  assert.equal(page.url(), address);
  await page.click("#close-help");
  assert.deepEqual(problems, []);
  await ctx.close();
});

test("the differential-drive robot's redundant rows: the legend says how Hamel's split is built, and E is plotted", async () => {
  const { page, problems, ctx } = await open(browser, `${server.url}#gallery=differential-drive`);
  await waitClockPast(page, 0.5);
  assert.match(await page.textContent("#legend-note"), /Hamel's split: dependent x, y, psi; built on A₁ᵀA, the dependent columns' combinations of every row \(rank 3 of 4 constraints; `right wheel rolls on ground: y` is a combination of the others\)/);
  const canvases = await drawnInk(page);
  assert.ok(canvases.some((c) => c.id === "plot-e"), JSON.stringify(canvases.map((c) => c.id)));
  assertPlotsDrawn(canvases);
  assert.deepEqual(problems, []);
  await ctx.close();
});

test("each of the three WebAssembly modules is at most 500 KiB brotli (the helper's, 505 for now)", () => {
  // Issue 39's goal, held by every module: an embed fetches the page's and the
  // runner's, and the helper's once it shows equations or stability. The size is the
  // build's, not a timing: the same sources and pinned tools give the same bytes.
  // The helper's (which no embed's first frame waits for) is held to 505 KiB until
  // issue 57's exporter hardening (2.5 KiB: escaping by construction, the reserved
  // names of four languages) and issue 56's additions are won back elsewhere: it
  // measured 494.5 before them and 502.0 after.
  const goal = { page: 500, runner: 500, helper: 505 };
  for (const kind of ["page", "runner", "helper"]) {
    const file = fs.readdirSync(DIST).find((f) => f.startsWith(`nhlab-${kind}-`) && f.endsWith(".wasm"));
    assert.ok(file, `dist/ holds the ${kind}'s module`);
    const bytes = fs.readFileSync(path.join(DIST, file));
    const brotli = zlib.brotliCompressSync(bytes, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11 } }).length;
    assert.ok(brotli <= goal[kind] * 1024, `the ${kind}'s module is ${(brotli / 1024).toFixed(1)} KiB brotli (goal <= ${goal[kind]})`);
  }
});

test("the energy panel says which energy it plots: h = T₂ − T₀ + V where T is not quadratic, in both languages", async () => {
  // Issue 56: the non-reversible oscillator's gauge term made T + V move by 1.25 along
  // the exact motion while the panel called it conserved; the lab now records the
  // energy function h there, and says so.
  for (const [lang, conserved, function_] of [
    ["en", /the true motion conserves T \+ V here/, /\|h − h\(0\)\| \(log scale\), h = T₂ − T₀ \+ V the energy function .* the true motion conserves h here/],
    ["zh", /这里真实运动守恒 T \+ V/, /h = T₂ − T₀ \+ V 为能量函数.*这里真实运动守恒 h/],
  ]) {
    const { page, problems, ctx } = await open(browser, `${server.url}#gallery=contact-oscillator-nonreversible&lang=${lang}`);
    await page.waitForSelector("#plot-energy-fig .note .note-text");
    assert.match(await page.textContent("#plot-energy-fig .note .note-text"), function_);
    await page.selectOption("#gallery", "chaplygin-sleigh");
    await page.waitForFunction(() => /Chaplygin|恰普雷金|雪橇/.test(document.querySelector("h1").textContent));
    await page.waitForFunction((source) => new RegExp(source).test(document.querySelector("#plot-energy-fig .note .note-text").textContent), conserved.source);
    assert.deepEqual(problems, []);
    await ctx.close();
  }
});
