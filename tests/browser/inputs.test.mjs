// [inputs] on the page: each input a live control; moving it changes the motion from
// then on without restarting the run (the benchmark bicycle steered by a torque);
// the first two follow held keys; Reset brings the scenario's values back.
// Run: node --test tests/browser/   (scripts/test.sh builds dist/ first)
import { test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { ROOT, open, servedBrowser, downloadText } from "./harness.mjs";

const clockOf = (page) => page.evaluate(() => Number(/t = ([0-9.]+)/.exec(document.getElementById("clock").textContent)[1]));

/** The CSV's rows as objects of numbers (the method column dropped). */
function rows(text) {
  const [head, ...lines] = text.trim().split("\n");
  const names = head.split(",");
  return lines.map((line) => Object.fromEntries(line.split(",").map((x, i) => [names[i], Number(x)])));
}

let server, browser;
const SHOTS = process.env.NHLAB_SCREENSHOTS ?? path.join(ROOT, "target", "screenshots");
servedBrowser((s, b) => { server = s; browser = b; fs.mkdirSync(SHOTS, { recursive: true }); });

const waitClockPast = (page, t) => page.waitForFunction((t) => Number(/t = ([0-9.]+)/.exec(document.getElementById("clock").textContent)[1]) > t, t, { timeout: 30000 });

/** "To end", then waits until every run's update is at its end time (a flag left
 *  over from the run before a Reset would not do). */
async function toEnd(page) {
  await page.click("#to-end");
  await page.waitForFunction(() => {
    const runs = window.nhlabTest.runs();
    const end = window.nhlabTest.info()?.t_end;
    return runs?.length > 0 && runs.every((r) => r.t >= end || r.error);
  }, null, { timeout: 60000 });
}

test("the bicycle is steered by its steer-torque slider, from the moment it moves", async () => {
  const { page, problems, ctx } = await open(browser, `${server.url}#gallery=whipple-bicycle`);
  await waitClockPast(page, 0.05);
  assert.equal(await page.isHidden("#inputs"), false);
  const steer = page.locator('#inputs input[data-input="T_delta"]');
  assert.equal(await steer.getAttribute("aria-label"), "steer torque (T_delta) control");
  assert.equal(await steer.getAttribute("aria-keyshortcuts"), "A D");
  assert.equal(await page.locator('#inputs input[data-input="T_phi"]').getAttribute("aria-keyshortcuts"), "S W");
  // The parameters card no longer lists the inputs.
  assert.equal(await page.locator(".param input[aria-label='T_delta']").count(), 0);
  await page.click("#play"); // pause
  const paused = await clockOf(page);
  // 0.5 N m turns the bicycle well away within the run (2 N m from the start makes it
  // fall over and the integrator stall at t = 2.7).
  await steer.fill("0.5");
  assert.equal(await page.textContent("#inputs .input-value"), "0.5");
  await page.screenshot({ path: path.join(SHOTS, "inputs-bicycle.png") });
  await toEnd(page);
  const heading = () => page.evaluate(() => window.nhlabTest.runs().map((r) => [r.t, r.q[2]]));
  const steered = await heading();
  assert.deepEqual(await page.evaluate(() => window.nhlabTest.runs().map((r) => r.error)), [null], "the steered run reaches its end");
  // The CSV holds the run as played (the text alone cannot reproduce it).
  const played = await downloadText(page, "#export-csv");
  assert.equal(played.name, "whipple-bicycle-as-played.csv");
  assert.match(await page.textContent("#notice"), /as played to t = 5\.000, with the inputs you moved/);
  // Reset: the run starts again with the scenario's input, and so does the control.
  await page.click("#reset");
  await page.waitForFunction(() => document.querySelector('#inputs input[data-input="T_delta"]').value === "0");
  await toEnd(page);
  const free = await heading();
  const scenario = await downloadText(page, "#export-csv");
  assert.equal(scenario.name, "whipple-bicycle.csv");
  const [a, b] = [rows(played.text), rows(scenario.text)];
  const before = b.filter((r) => r.t < paused);
  assert.ok(before.length > 3, `${before.length} rows before t = ${paused}`);
  for (const r of before) {
    const s = a.find((x) => x.t === r.t);
    assert.ok(s && s.delta === r.delta, `the same step at t = ${r.t} before the torque`);
  }
  assert.ok(Math.abs(a.at(-1).psi - b.at(-1).psi) > 0.05, "the steered run turns away in the CSV too");
  assert.equal(steered[0][0], free[0][0], "both at the end");
  // The steer torque from the pause on turns the bicycle well away.
  assert.ok(Math.abs(steered[0][1] - free[0][1]) > 0.05, `heading with torque ${steered[0][1]}, without ${free[0][1]}`);
  assert.deepEqual(problems, []);
  await ctx.close();
});

test("held keys ramp the first two inputs towards their ends, the slider showing what is applied, and let go back to the slider", async () => {
  // Issue 60.5: D held for 0.7 s applied the 5 N m limit at once (the slider stayed at 0).
  const { page, problems, ctx } = await open(browser, `${server.url}#gallery=whipple-bicycle`);
  await waitClockPast(page, 0.05);
  const shown = page.locator("#inputs .input-value");
  const applied = () => page.evaluate(() => [...document.querySelectorAll("#inputs .input-value")].map((o) => Number(o.textContent)));
  const sliders = () => page.evaluate(() => [...document.querySelectorAll("#inputs input[type=range]")].map((s) => Number(s.value)));
  await page.locator("body").focus();
  const held = Date.now();
  await page.keyboard.down("d");
  await page.waitForFunction(() => Number(document.querySelector("#inputs .input-value").textContent) > 0);
  await page.waitForTimeout(400);
  const [early] = await applied();
  const heldFor = (Date.now() - held) / 1000;
  // Half the range (5 N m) in 2.5 s: at most 2 N m a second of holding, never the end at once.
  assert.ok(early > 0 && early <= 2 * heldFor + 1e-9 && early < 5, `after ${heldFor} s: ${early} N m`);
  const [slider] = await sliders();
  assert.ok(Math.abs(slider - early) <= 0.05 + 2 * 0.1, `the slider shows it: ${slider} against ${early}`);
  await page.waitForFunction(() => document.querySelector("#inputs .input-value").textContent === "5", null, { timeout: 15000 });
  assert.equal((await sliders())[0], 5);
  await page.keyboard.up("d");
  await page.waitForFunction(() => document.querySelector("#inputs .input-value").textContent === "0");
  assert.equal((await sliders())[0], 0, "let go: back to the slider's own value");
  // A, then D while A is still held: the ramp turns round; S ramps the second input.
  await page.keyboard.down("a");
  await page.waitForFunction(() => Number(document.querySelector("#inputs .input-value").textContent) < -0.3);
  await page.keyboard.down("d");
  await page.waitForFunction(() => Number(document.querySelector("#inputs .input-value").textContent) > 0);
  await page.keyboard.up("a");
  await page.keyboard.up("d");
  await page.waitForFunction(() => document.querySelector("#inputs .input-value").textContent === "0");
  await page.keyboard.down("s");
  await page.waitForFunction(() => Number(document.querySelectorAll("#inputs .input-value")[1].textContent) < 0);
  assert.ok((await applied())[1] > -50, "the second input ramps too");
  await page.keyboard.up("s");
  assert.equal(await shown.nth(1).textContent(), "0");
  // A key typed into a field is text, not a push.
  await page.focus(".param input[aria-label='w']");
  await page.keyboard.press("d");
  assert.equal(await shown.nth(0).textContent(), "0");
  // An input driven by its signal says so and has no control.
  const text = ['format = "nhlab/1"', 'title = "Driven"', 'coordinates = ["x"]', "kinetic = \"x'^2/2\"", 'potential = "x^2/2"',
    'forces = { x = "u" }', "[inputs]", 'u = { value = 0, signal = "sin(2*t)" }', "[initial]", "q = { x = 0 }", "v = { x = 0 }"].join("\n");
  assert.equal(await page.evaluate((text) => window.nhlabTest.load(text), text), true);
  assert.equal(await page.textContent("#inputs .hint"), "follows its signal: sin(2*t)");
  assert.equal(await page.locator("#inputs input").count(), 0);
  assert.deepEqual(problems, []);
  await ctx.close();
});

test("the Code menu downloads the file nhlab export writes, in each language", async () => {
  const { execFileSync } = await import("node:child_process");
  const cli = path.join(ROOT, "target", "release", "nhlab");
  const { page, problems, ctx } = await open(browser, `${server.url}#gallery=whipple-bicycle`);
  await page.waitForSelector("body[data-loaded]");
  await page.click("#export-code summary");
  await page.screenshot({ path: path.join(SHOTS, "export-code-menu.png") });
  for (const [language, ext] of [["c", "c"], ["python", "py"], ["matlab", "m"], ["rust", "rs"]]) {
    if (!(await page.locator("#export-code").evaluate((d) => d.open))) await page.click("#export-code summary");
    const [download] = await Promise.all([page.waitForEvent("download"), page.click(`#export-code button[data-language='${language}']`)]);
    assert.equal(download.suggestedFilename(), `whipple_bicycle.${ext}`);
    const text = fs.readFileSync(await download.path(), "utf8");
    const out = path.join(ROOT, "target", `export-page-${language}`, `whipple_bicycle.${ext}`);
    fs.mkdirSync(path.dirname(out), { recursive: true });
    execFileSync(cli, ["export", path.join(ROOT, "scenarios", "whipple-bicycle.toml"), "--lang", language, "--out", out], { stdio: ["ignore", "ignore", "pipe"] });
    assert.ok(text === fs.readFileSync(out, "utf8"), `${language}: the page's file equals the command line's (${text.length} and ${fs.statSync(out).size} bytes)`);
  }
  assert.deepEqual(problems, []);
  await ctx.close();
});

test("every gallery item exports from the page as from the command line", async () => {
  const { execFileSync } = await import("node:child_process");
  const cli = path.join(ROOT, "target", "release", "nhlab");
  const names = fs.readdirSync(path.join(ROOT, "scenarios")).filter((f) => f.endsWith(".toml")).map((f) => f.replace(/\.toml$/, ""));
  const { page, problems, ctx } = await open(browser, `${server.url}#gallery=chaplygin-sleigh`);
  await page.waitForSelector("body[data-loaded]");
  for (const name of names) {
    const stem = name.replace(/-/g, "_");
    const out = path.join(ROOT, "target", "export-page-gallery", `${stem}.c`);
    fs.mkdirSync(path.dirname(out), { recursive: true });
    execFileSync(cli, ["export", path.join(ROOT, "scenarios", `${name}.toml`), "--lang", "c", "--out", out], { stdio: ["ignore", "ignore", "pipe"] });
    if ((await page.inputValue("#gallery")) !== name) {
      const token = await page.evaluate(() => document.body.dataset.loaded);
      await page.selectOption("#gallery", name);
      await page.waitForFunction((token) => document.body.dataset.loaded !== token, token);
    }
    await page.click("#export-code summary");
    const [download] = await Promise.all([page.waitForEvent("download"), page.click("#export-code button[data-language='c']")]);
    assert.equal(download.suggestedFilename(), `${stem}.c`, name);
    assert.ok(fs.readFileSync(await download.path(), "utf8") === fs.readFileSync(out, "utf8"), `${name}: the page's C equals the command line's`);
  }
  assert.deepEqual(problems, []);
  await ctx.close();
});

test("once an input moves, the run goes on past t_end while it plays; untouched, it stops there; Reset brings the end back", async () => {
  // Issue 60: the cart-pole ran 10 s, too short to balance by hand.
  const { page, problems, ctx } = await open(browser, `${server.url}#gallery=cart-pole`);
  await page.waitForSelector("body[data-ready='1']");
  const short = (await page.evaluate(() => window.nhlabTest.text())).replace(/t_end = [0-9.]+/, "t_end = 1");
  await page.evaluate((text) => window.nhlabTest.load(text), short);
  await page.waitForFunction(() => window.nhlabTest.info()?.t_end === 1);
  assert.match(await page.textContent("#inputs .inputs-open"), /goes on past t_end/);
  await page.selectOption("#speed", "5");
  // Untouched: Play stops at the end.
  if ((await page.getAttribute("#play", "aria-pressed")) !== "true") await page.click("#play");
  await page.waitForFunction(() => document.getElementById("play").getAttribute("aria-pressed") === "false", null, { timeout: 30000 });
  assert.equal(await clockOf(page), 1);
  // Pushed once by its slider, then played again: past 1, 2 and 3 s, the axes and the
  // clock's end following.
  await page.click("#reset");
  await page.waitForFunction(() => window.nhlabTest.runs()?.every((r) => r.t === 0));
  await page.locator('#inputs input[data-input="F"]').fill("0.2");
  if ((await page.getAttribute("#play", "aria-pressed")) !== "true") await page.click("#play");
  await waitClockPast(page, 3.2);
  const end = await page.evaluate(() => window.nhlabTest.info().t_end);
  assert.ok(end >= 4 && Number.isInteger(end), `extended a span at a time: ${end}`);
  assert.match(await page.textContent("#clock"), new RegExp(`/ ${end}`));
  assert.equal(await page.getAttribute("#play", "aria-pressed"), "true", "still playing");
  await page.waitForFunction(() => window.nhlabTest.runs().every((r) => r.t > 3 && !r.error));
  // Reset: the scenario's end again.
  await page.click("#play");
  await page.click("#reset");
  await page.waitForFunction(() => window.nhlabTest.info().t_end === 1);
  assert.deepEqual(problems, []);
  await ctx.close();
});
