// The notebook widget's module (python/nhlab/static/lab.mjs, scripts/widget.mjs) alone,
// the way anywidget loads it: its text imported as a module from a blob: address by a
// page that serves nothing else, its `render` called with a model that has no kernel
// behind it (as a static Jupyter Book / MyST page gives it). The lab draws, follows
// `parameters` set from outside, and tells the model what it plays — and not one
// request reaches a server for it.
import { test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import { ROOT, launch } from "./harness.mjs";
import { SHOTS, waitSceneDrawn } from "./lab-support.mjs";

const MODULE = path.join(ROOT, "python/nhlab/static/lab.mjs");
const SLEIGH = fs.readFileSync(path.join(ROOT, "scenarios/chaplygin-sleigh.toml"), "utf8");

/** The host: one empty page; every other request is refused and noted. */
function host() {
  const asked = [];
  const server = http.createServer((req, res) => {
    if (req.url === "/") { res.writeHead(200, { "content-type": "text/html" }).end("<!doctype html><meta charset=utf-8><title>host</title><link rel=icon href='data:,'><div id=out style='width:900px'></div>"); return; }
    asked.push(req.url);
    res.writeHead(404).end();
  });
  return new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve({
    url: `http://127.0.0.1:${server.address().port}/`, asked, close: () => new Promise((r) => server.close(r)),
  })));
}

/** The host's page in a new tab, recording its errors (none may happen). */
async function hostPage(browser, server, height) {
  const page = await browser.newPage({ viewport: { width: 1000, height } });
  const problems = [];
  page.on("pageerror", (e) => problems.push(`page error: ${e.message}`));
  page.on("console", (m) => { if (m.type() === "error") problems.push(`console error: ${m.text()}`); });
  await page.goto(server.url);
  return { page, problems };
}

/** Puts the module on the page as anywidget does, with a model of `values`; the page
 *  keeps the model as `window.model` and what the widget saved as `window.saved`. */
async function renderWidget(page, values, { into = "out", name = "model" } = {}) {
  const text = fs.readFileSync(MODULE, "utf8");
  await page.evaluate(async ({ text, values, into, name }) => {
    window.widgetUrl ??= URL.createObjectURL(new Blob([text], { type: "text/javascript" }));
    const widget = (await import(window.widgetUrl)).default;
    // anywidget's model, without a kernel: get, set, on/off of change:<key>, save_changes.
    const data = { ...values };
    const listeners = new Map();
    const saved = [];
    const model = {
      get: (k) => data[k],
      set: (k, v) => { const old = data[k]; data[k] = v; if (JSON.stringify(old) !== JSON.stringify(v)) for (const fn of listeners.get(`change:${k}`) ?? []) fn(); },
      on: (event, fn) => { if (!listeners.has(event)) listeners.set(event, new Set()); listeners.get(event).add(fn); },
      off: (event, fn) => listeners.get(event)?.delete(fn),
      save_changes: () => saved.push(JSON.parse(JSON.stringify(data))),
    };
    window[name] = model;
    window[`${name}Saved`] = saved;
    if (name === "model") window.saved = saved;
    window.started = performance.now();
    window[`${name}Cleanup`] = await widget.render({ model, el: document.getElementById(into) });
    if (name === "model") window.cleanup = window.modelCleanup;
  }, { text, values, into, name });
}

/** The lab's frame (the page inside the widget's iframe). */
async function labFrame(page) {
  await page.waitForSelector("iframe.nhlab-lab");
  const handle = await page.$("iframe.nhlab-lab");
  return handle.contentFrame();
}

test("the widget's module alone, from a blob: address with nothing served, draws the lab and follows its model both ways", async () => {
  assert.ok(fs.existsSync(MODULE), `${MODULE} is missing: bash scripts/widget.sh builds it`);
  const server = await host();
  const browser = await launch();
  try {
    const { page, problems } = await hostPage(browser, server, 900);
    // A value given beside the text (set in Python before the lab showed, or saved with a
    // static page) wins over the text's.
    await renderWidget(page, { scenario: SLEIGH, parameters: { a: 0.25 }, inputs: {}, methods: [], t: 0, playing: true, language: "en", panel: "energy", controls: ["parameters"], height: 0, title: "", error: "", loaded: 0 });
    const frame = await labFrame(page);
    await frame.waitForSelector("body[data-loaded]", { timeout: 60000 });
    const firstFrameMs = await page.evaluate(() => new Promise((resolve) => {
      const wait = () => (window.saved.some((s) => s.title) ? resolve(performance.now() - window.started) : setTimeout(wait, 20));
      wait();
    }));
    // The scene draws, and the model hears what plays: the text, its parameters, its title.
    await waitSceneDrawn(frame);
    await page.waitForFunction(() => window.saved.at(-1)?.parameters?.a === 0.25, null, { timeout: 30000 });
    const heard = await page.evaluate(() => window.saved.at(-1));
    assert.equal(heard.title, "Chaplygin sleigh");
    assert.deepEqual(heard.parameters, { m: 1, a: 0.25, I: 0.2 });
    assert.match(heard.scenario, /a = \{ value = 0\.25,/);
    assert.deepEqual(heard.methods.length > 0, true);
    // The clock moves, and reaches the model (twice a second while it plays).
    await page.waitForFunction(() => window.saved.at(-1)?.t > 0, null, { timeout: 10000 });
    // Parameters set from outside: the lab plays the sleigh with them.
    await page.evaluate(() => window.model.set("parameters", { m: 2.5, a: 0.25, I: 0.2 }));
    await page.waitForFunction(() => window.saved.at(-1)?.parameters?.m === 2.5, null, { timeout: 30000 });
    const text = await frame.evaluate(() => window.nhlabTest.text());
    assert.match(text, /m = \{ value = 2\.5,/, "the running text has the new mass");
    assert.match(await page.evaluate(() => window.saved.at(-1).scenario), /m = \{ value = 2\.5,/, "the model's scenario follows");
    // Paused and sought from outside.
    await page.evaluate(() => { window.model.set("playing", false); window.model.set("t", 1.5); });
    await frame.waitForFunction(() => /t = 1\.50/.test(document.getElementById("clock").textContent), null, { timeout: 10000 });
    // A parameter the scenario lacks is said, and the model hears why.
    await page.evaluate(() => window.model.set("parameters", { m: 2.5, nope: 1 }));
    await page.waitForFunction(() => /nope/.test(window.saved.at(-1)?.error ?? ""), null, { timeout: 10000 });
    await page.screenshot({ path: path.join(SHOTS, "widget-blob.png") });
    console.log(`widget: first state with the scenario's title ${Math.round(firstFrameMs)} ms after render`);
    // Removed: its frame (and with it its workers) goes.
    await page.evaluate(() => window.cleanup());
    assert.equal(await page.$("iframe.nhlab-lab"), null);
    assert.deepEqual(server.asked, [], "nothing but the host page was asked of the server");
    assert.deepEqual(problems, []);
  } finally {
    await browser.close();
    await server.close();
  }
});

test("three labs on one page: those out of view pause (their runners idle) and play again when scrolled to", async () => {
  const server = await host();
  const browser = await launch();
  try {
    const { page, problems } = await hostPage(browser, server, 800);
    await page.evaluate(() => {
      document.body.innerHTML = [1, 2, 3].map((i) => `<div id="lab${i}" style="width:900px"></div><div style="height:2500px"></div>`).join("");
    });
    const values = { scenario: SLEIGH, parameters: {}, inputs: {}, methods: [], t: 0, playing: true, language: "en", panel: "", controls: [], height: 500, title: "", error: "", loaded: 0 };
    for (const i of [1, 2, 3]) await renderWidget(page, values, { into: `lab${i}`, name: `lab${i}` });
    const last = (i) => page.evaluate((i) => window[`lab${i}Saved`].at(-1) ?? null, i);
    await page.waitForFunction(() => [1, 2, 3].every((i) => window[`lab${i}Saved`].some((s) => s.title)), null, { timeout: 60000 });
    await page.waitForTimeout(1000);
    const first = await last(1);
    assert.equal(first.playing, true, "the lab in view plays");
    for (const i of [2, 3]) {
      const s = await last(i);
      assert.equal(s.playing, false, `lab ${i}, out of view, is paused`);
    }
    const held = await Promise.all([2, 3].map(last));
    await page.waitForTimeout(600);
    assert.deepEqual((await Promise.all([2, 3].map(last))).map((s) => s.t), held.map((s) => s.t), "their clocks stand still");
    // Scrolled to the third: it plays on, and the first, now out of view, pauses.
    await page.evaluate(() => document.getElementById("lab3").scrollIntoView());
    await page.waitForFunction(() => window.lab3Saved.at(-1).playing && window.lab3Saved.at(-1).t > 0.3 && !window.lab1Saved.at(-1).playing, null, { timeout: 15000 });
    // The host page's frames go on while three labs are open.
    const intervals = await page.evaluate(() => new Promise((resolve) => {
      const times = [];
      const tick = (now) => { times.push(now); if (times.length < 60) requestAnimationFrame(tick); else resolve(times.slice(1).map((t, i) => t - times[i]).sort((a, b) => a - b)); };
      requestAnimationFrame(tick);
    }));
    console.log(`widget: three labs, the host's frame intervals p50 ${intervals[30].toFixed(1)} ms, p95 ${intervals[56].toFixed(1)} ms`);
    assert.deepEqual(server.asked, []);
    assert.deepEqual(problems, []);
  } finally {
    await browser.close();
    await server.close();
  }
});
