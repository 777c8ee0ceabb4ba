// End-to-end tests of the web lab in headless Chromium against the built dist/: the
// lab plays, exports, edits, shares, embeds and runs by keyboard.
// Run: node --test tests/browser/   (scripts/test.sh builds dist/ and the CLI first)
import { test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { execFileSync } from "node:child_process";
import { ROOT, open, servedBrowser, inkPerCanvas, canvasDigest, downloadText, colourPixels, revealEditorLine, showEquations } from "./harness.mjs";
import { SHOTS, toEnd, clockOf, waitClockPast, drawnInk, assertPlotsDrawn, toml, typeMistake } from "./lab-support.mjs";

let server, browser;

servedBrowser((s, b) => { server = s; browser = b; }); // lab-support makes SHOTS

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
  // Typeset equations, with LaTeX to copy, once they come into view.
  assert.match(await page.textContent("#eq-body"), /derived when this part of the page comes into view/);
  await showEquations(page);
  await page.waitForFunction(() => document.querySelectorAll("#eq-body math").length > 5);
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
  await showEquations(page);
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
  const { text, broken, status, line } = await typeMistake(
    page,
    "expr = \"-x'*sin(phi) + y'*cos(phi)\"",
    "expr = \"-x'*sin(phi) + w'*cos(phi)\"",
    "w'*cos",
  );
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
  await showEquations(page);
  await page.waitForFunction(() => document.querySelectorAll("#eq-body math").length > 5);
  // A slider rewrites the body's parameter and restarts.
  await page.fill(".param input[aria-label='r']", "0.35");
  await page.press(".param input[aria-label='r']", "Enter");
  await page.waitForFunction(() => document.getElementById("editor").value.includes("r = 0.35"));
  await waitClockPast(page, 0.3);
  // A mistyped frame is reported at its line in the editor; the run goes on.
  const { text, status, line } = await typeMistake(page, 'parent = "heading"', 'parent = "headng"', "headng");
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
  const titles = await page.$$eval(".plots h2, .plots .panel-title, .plots figcaption", (e) => e.map((x) => x.textContent));
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
  await showEquations(page);
  await page.waitForFunction(() => document.querySelectorAll("#eq-body math").length > 20);
  assert.match(await page.textContent("#eq-body"), /Matrix form/);
  // Typed text loads under the page's budget (1.5 s), which the bicycle's derivation
  // in wasm kept with room on an idle machine but once overran on a busy one: this
  // test is about the message and the reload, so its loads get room.
  await page.evaluate(() => { window.NHLAB_BUDGET_MS = { load: 20000 }; });
  const { text, status, line } = await typeMistake(page, "rF*unit(N.z", "rF*unti(N.z", "unti(");
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
  await showEquations(page);
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

test("an embed's link to the full lab opens what the embed shows, a slider moved included", async () => {
  const { page, problems, ctx } = await open(browser, `${server.url}#gallery=rolling-disk&embed&controls=parameters`, { viewport: { width: 720, height: 560 } });
  await page.waitForSelector("body[data-ready='1']");
  assert.equal(await page.getAttribute("#open-full", "href"), `${server.url}#gallery=rolling-disk`);
  const loaded = await page.getAttribute("body", "data-loaded");
  await page.fill('#parameters input[aria-label="m"]', "0.3");
  await page.press('#parameters input[aria-label="m"]', "Enter");
  await page.waitForFunction((n) => document.body.dataset.loaded !== n, loaded);
  await page.waitForFunction(() => /#s=/.test(document.getElementById("open-full").getAttribute("href")));
  const full = await page.getAttribute("#open-full", "href");
  assert.doesNotMatch(full, /embed|controls=/, full);
  const opened = await ctx.newPage();
  await opened.goto(full);
  await opened.waitForSelector("body[data-ready='1']");
  assert.equal(await opened.inputValue('#parameters input[aria-label="m"]'), "0.3");
  assert.equal(await opened.evaluate(() => document.body.classList.contains("embed")), false, "the full lab");
  assert.deepEqual(problems, []);
  await ctx.close();
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
