// Browser benchmark of the web lab (prints figures; asserts nothing about time):
//   - frame time with the default scenario (Chaplygin sleigh, three methods overlaid),
//     and with the bicycle's 3D scene and three methods,
//     as the page's own per-frame work and as requestAnimationFrame intervals;
//   - right-hand-side evaluations per second in wasm against the native figure of the
//     same kernel measured on this machine now (cargo bench --bench rhs_rate; Lagrange's
//     compiled on both sides: Cranelift's machine code against the page's wasm kernel);
//   - time from navigation to the first drawn plot;
//   - the stability panel's sweep and map, as the helper computes them;
//   - the size of each of the three .wasm modules, raw, gzip and brotli.
// Run: node tests/browser/bench.mjs [--quick]
import fs from "node:fs";
import path from "node:path";
import zlib from "node:zlib";
import { execFileSync } from "node:child_process";
import { ROOT, serve, launch, open } from "./harness.mjs";

const quick = process.argv.includes("--quick");
const seconds = quick ? 3 : 8;
const pct = (xs, p) => { const s = [...xs].sort((a, b) => a - b); return s[Math.min(s.length - 1, Math.floor(p * s.length))]; };
const ms = (x) => `${x.toFixed(2)} ms`;

const server = await serve();
const browser = await launch();
try {
  // 1. Frame times.
  for (const speed of ["1", "10"]) {
    // At 10x the sleigh's 20 s run ends after 2 s of wall time: measure while it plays.
    const wall = speed === "10" ? 1.9 : seconds;
    const { page, ctx } = await open(browser, server.url);
    await page.selectOption("#speed", speed);
    await page.click("#reset");
    await page.evaluate(() => { for (const k of ["work", "step", "draw", "intervals"]) window.nhlabPerf[k].length = 0; });
    await page.waitForTimeout(wall * 1000);
    const { work, step, draw, intervals } = await page.evaluate(() => ({ ...window.nhlabPerf }));
    const fps = 1000 / (intervals.reduce((a, b) => a + b, 0) / intervals.length);
    const dropped = intervals.filter((x) => x > 25).length;
    console.log(`frames, sleigh with lagrange+hamel+gauss at ${speed}x: ${work.length} drawn frames in ${wall} s (${fps.toFixed(1)} fps, ${dropped} intervals > 25 ms)`);
    console.log(`  page's frame work (drawing 6 plots; stepping is in the runner worker): p50 ${ms(pct(work, 0.5))}, p95 ${ms(pct(work, 0.95))}, max ${ms(Math.max(...work))} (goal p95 < 16.7 ms)`);
    console.log(`  requestAnimationFrame interval (bounded below by the 16.7 ms vsync): p50 ${ms(pct(intervals, 0.5))}, p95 ${ms(pct(intervals, 0.95))}`);
    await ctx.close();
  }

  // 1a. The scene: the Whipple bicycle drawn in 3D with three methods overlaid, at 1x
  //     (issue 13's goal: the page's frame work p95 < 8 ms, plots included), as the
  //     page opens (the scene and the first row of plots in view; the panels below
  //     are refreshed one per frame) and in a window tall enough to show all seven.
  for (const [view, viewport] of [["as opened, 1400x1000", { width: 1400, height: 1000 }], ["every panel in view, 1400x2100", { width: 1400, height: 2100 }]]) {
    const { page, ctx } = await open(browser, `${server.url}#gallery=whipple-bicycle`, { viewport });
    await page.evaluate(() => {
      // What is measured is the frame work once it plays: a machine busy with other
      // work (CI installs beside the suite) must not stop the load at its 1.5 s budget.
      window.NHLAB_BUDGET_MS = { load: 30000 };
      const api = window.wasmBindings;
      return window.nhlabTest.load(api.edit_list(api.gallery_text("whipple-bicycle"), "run.methods", ["lagrange", "udwadia-kalaba", "gauss"]));
    });
    await page.waitForFunction(() => document.querySelectorAll("#legend li").length === 3, null, { timeout: 60000 });
    await page.click("#reset");
    await page.waitForTimeout(300);
    const inView = await page.evaluate(() => [...document.querySelectorAll(".scene-slot canvas, .plots canvas")].filter((c) => c.getClientRects().length > 0).filter((c) => !c.hasAttribute("data-offscreen")).length);
    await page.evaluate(() => { for (const k of ["work", "step", "draw", "intervals"]) window.nhlabPerf[k].length = 0; });
    await page.waitForTimeout(seconds * 1000);
    const { work, intervals } = await page.evaluate(() => ({ ...window.nhlabPerf }));
    const fps = 1000 / (intervals.reduce((a, b) => a + b, 0) / intervals.length);
    console.log(`frames, bicycle scene with lagrange+udwadia-kalaba+gauss at 1x, ${view} (${inView} of 7 panels in view): ${work.length} drawn frames in ${seconds} s (${fps.toFixed(1)} fps, ${intervals.filter((x) => x > 25).length} intervals > 25 ms)`);
    console.log(`  page's frame work (the 3D scene and the plots): p50 ${ms(pct(work, 0.5))}, p95 ${ms(pct(work, 0.95))}, max ${ms(Math.max(...work))} (goal p95 < 8 ms)`);
    await ctx.close();
  }

  // 1b. A long run: the turntable ball under rk4 with dt = 0.001 (30,000 samples per
  //     method), at 10x: many steps per frame and thousands of points to decimate.
  {
    const { page, ctx } = await open(browser, `${server.url}#gallery=ball-on-turntable`);
    await page.selectOption("#integrator", "rk4");
    await page.waitForFunction(() => document.getElementById("editor").value.includes('integrator = "rk4"'));
    await page.fill("#dt", "0.001");
    await page.press("#dt", "Enter");
    await page.waitForFunction(() => document.getElementById("editor").value.includes("dt = 0.001"));
    await page.selectOption("#speed", "10");
    await page.click("#reset");
    await page.evaluate(() => { for (const k of ["work", "step", "draw", "intervals"]) window.nhlabPerf[k].length = 0; });
    await page.waitForTimeout(2900);
    const { work, step, draw, intervals } = await page.evaluate(() => ({ ...window.nhlabPerf }));
    const dropped = intervals.filter((x) => x > 25).length;
    console.log(`frames, turntable rk4 dt=0.001 (2 methods, 30,000 samples each) at 10x: ${work.length} frames in 2.9 s, ${dropped} intervals > 25 ms`);
    console.log(`  frame time: p50 ${ms(pct(work, 0.5))}, p95 ${ms(pct(work, 0.95))}, max ${ms(Math.max(...work))} (goal p95 < 16.7 ms)`);
    console.log(`    of which drawing p50 ${ms(pct(draw, 0.5))}; the runner's stepping slices (off the page) p50 ${ms(pct(step, 0.5))}`);
    await ctx.close();
  }

  // 2. Time to first plot (cold context each time).
  const firsts = [];
  for (let k = 0; k < (quick ? 3 : 7); k++) {
    const { page, ctx } = await open(browser, server.url);
    firsts.push(await page.evaluate(() => window.nhlabPerf.firstPlotMs));
    await ctx.close();
  }
  console.log(`navigation to first drawn plot: best ${ms(Math.min(...firsts))}, median ${ms(pct(firsts, 0.5))} (goal < 1500 ms)`);
  // An embed in course notes (720×560, the scene and one plot; it loads no editor).
  const embeds = [], stages = [];
  for (let k = 0; k < (quick ? 3 : 7); k++) {
    const { page, ctx } = await open(browser, `${server.url}#gallery=chaplygin-sleigh&embed`, { viewport: { width: 720, height: 560 } });
    await page.waitForFunction(() => window.nhlabPerf.firstPlotMs !== undefined);
    const p = await page.evaluate(() => ({ boot: window.nhlabPerf.bootMs, loaded: window.nhlabPerf.firstLoadedMs, drawn: window.nhlabPerf.firstPlotMs }));
    embeds.push(p.drawn);
    stages.push(p);
    await ctx.close();
  }
  console.log(`embed (720×560): navigation to first drawn frame: best ${ms(Math.min(...embeds))}, median ${ms(pct(embeds, 0.5))} (goal < 500 ms; the full page's median ${ms(pct(firsts, 0.5))})`);
  // Where it goes: the page's module ready, the scenario open in the runner, drawn.
  console.log(`embed, medians: page module ready ${ms(pct(stages.map((s) => s.boot), 0.5))}, scenario open in the runner ${ms(pct(stages.map((s) => s.loaded), 0.5))}, first frame ${ms(pct(stages.map((s) => s.drawn), 0.5))}`);
  // The editor (CodeMirror, its own module): when it is ready, and what it costs the
  // first plot, against the same page with its bundle refused (the plain text box).
  const ready = [];
  const plain = [];
  for (let k = 0; k < (quick ? 3 : 7); k++) {
    const { page, ctx } = await open(browser, server.url);
    await page.waitForFunction(() => window.nhlabPerf.editorReadyMs !== undefined);
    ready.push(await page.evaluate(() => window.nhlabPerf.editorReadyMs));
    await ctx.close();
    const bare = await browser.newContext({ viewport: { width: 1400, height: 1000 } });
    await bare.route("**/editor.js", (route) => route.fulfill({ status: 404, body: "" }));
    const without = await open(browser, server.url, { context: bare });
    plain.push(await without.page.evaluate(() => window.nhlabPerf.firstPlotMs));
    await bare.close();
  }
  console.log(`editor ready after navigation: median ${ms(pct(ready, 0.5))}; first plot without the editor's bundle: median ${ms(pct(plain, 0.5))} (with it ${ms(pct(firsts, 0.5))})`);

  // 3. Re-deriving: what an edit costs before the lab restarts (load, validate,
  //    derive, compile, initial state) for every gallery item, in the page.
  {
    const { page, ctx } = await open(browser, server.url);
    const times = await page.evaluate(async () => {
      const api = window.wasmBindings;
      const runner = await window.nhlabTest.module("runner");
      return api.gallery_entries().map((g) => {
        const text = api.gallery_text(g.name);
        let best = Infinity;
        for (let r = 0; r < 3; r++) {
          const t0 = performance.now();
          const lab = new runner.WebLab(text);
          best = Math.min(best, performance.now() - t0);
          lab.free();
        }
        return [g.name, best];
      });
    });
    const worst = times.reduce((a, b) => (b[1] > a[1] ? b : a));
    console.log(`re-derive + restart (WebLab, as the runner does it): median ${ms(pct(times.map((t) => t[1]), 0.5))}, slowest ${worst[0]} ${ms(worst[1])}`);
    // The systems built from bodies (goal for the bicycle: < 150 ms in the page).
    const bodies = ["whipple-bicycle", "rattleback", "ball-in-cone", "cylinder-on-two-cylinders", "rolling-disk", "chaplygin-sphere"];
    console.log(`derive from bodies in the page (its methods): ${times.filter((t) => bodies.includes(t[0])).map((t) => `${t[0]} ${ms(t[1])}`).join(", ")}`);
    // The stability panel's sweep (load, derivatives, 1,001 linearisations with
    // bisected boundaries), as the helper worker computes it (goal: < 1 s).
    const helper = await page.evaluateHandle(() => window.nhlabTest.module("helper"));
    const sweeps = await page.evaluate((helper) => ["rolling-disk", "whipple-bicycle"].map((name) => {
      const text = window.wasmBindings.gallery_text(name);
      let best = Infinity, values = 0;
      for (let r = 0; r < 3; r++) {
        const t0 = performance.now();
        values = helper.stability(text).values.length;
        best = Math.min(best, performance.now() - t0);
      }
      return [name, best, values];
    }), helper);
    console.log(`stability sweep in the page (goal < 1000 ms): ${sweeps.map(([n, t, k]) => `${n} ${k} values ${ms(t)}`).join(", ")}`);
    // The stability panel's map (issue 62: 100 × 100 in ≤ 3 s, progressive): the
    // helper's WebStabilityMap in the same module, coarse pass and whole map timed
    // apart, against one linearisation of the sweep above (the baseline of this run).
    const maps = await page.evaluate((helper) => ["rolling-disk", "whipple-bicycle"].map((name) => {
      const text = window.wasmBindings.gallery_text(name);
      const t0 = performance.now();
      const map = new helper.WebStabilityMap(text);
      const d0 = map.data();
      const total = d0.total, coarse = Math.ceil(d0.x.values.length / 4) * Math.ceil(d0.y.values.length / 4);
      map.advance(coarse);
      const first = performance.now() - t0;
      while (map.advance(1000) > 0);
      const whole = performance.now() - t0;
      map.free();
      return [name, `${d0.x.values.length} × ${d0.y.values.length}`, first, whole, total];
    }), helper);
    for (const [name, grid, first, whole, total] of maps) {
      const perSweepValue = sweeps.find((s) => s[0] === name)[1] / sweeps.find((s) => s[0] === name)[2];
      console.log(`stability map in the page, ${name} ${grid}: coarse pass drawn after ${ms(first)}, whole map ${ms(whole)} (goal ≤ 3000 ms for 100 × 100; ${(whole / total * 1000).toFixed(0)} µs a point, ${(whole / total / perSweepValue).toFixed(2)}x a sweep value)`);
    }
    // The whole path of an edit: a new runner worker loads it (under its time budget)
    // and replaces the running one; the page lays out the new display.
    const whole = await page.evaluate(async () => {
      const api = window.wasmBindings;
      const out = [];
      for (const g of api.gallery_entries()) {
        const text = api.gallery_text(g.name) + "\n# edited\n";
        const t0 = performance.now();
        await window.nhlabTest.load(text);
        out.push([g.name, performance.now() - t0]);
      }
      return out;
    });
    const slowest = whole.reduce((a, b) => (b[1] > a[1] ? b : a));
    console.log(`edit to restarted run (new runner worker + page layout): median ${ms(pct(whole.map((t) => t[1]), 0.5))}, slowest ${slowest[0]} ${ms(slowest[1])}`);
    await ctx.close();
  }

  // 4. RHS rate, wasm against native.
  const out = execFileSync("cargo", ["bench", "-q", "--workspace", "--bench", "rhs_rate", "--locked"], { cwd: ROOT, encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] });
  const native = JSON.parse(out.trim().split("\n").pop());
  // The page still (reduced motion: it does not start playing), so that nothing runs
  // beside the measurement, as nothing does beside the native one.
  const still = () => browser.newContext({ viewport: { width: 1400, height: 1000 }, reducedMotion: "reduce" });
  const { page, ctx } = await open(browser, server.url, { context: await still() });
  const wasm = await page.evaluate(async () => {
    const helper = await window.nhlabTest.module("helper");
    const lab = new helper.WebLab(window.wasmBindings.gallery_text("chaplygin-sleigh"));
    const count = 50000;
    const rates = {};
    for (const m of ["lagrange", "hamel", "gauss"]) {
      // The module was instantiated just now: the engine's optimizing compiler takes
      // over its hot functions after their first calls (a cold first round ran at a
      // third of the speed), so one untimed round first.
      for (let r = 0; r < 7; r++) lab.bench_rhs(m, count);
      let best = Infinity;
      for (let r = 0; r < 7; r++) {
        const t0 = performance.now();
        lab.bench_rhs(m, count);
        best = Math.min(best, performance.now() - t0);
      }
      rates[m] = count / (best / 1000);
    }
    lab.free();
    return rates;
  });
  await ctx.close();
  for (const m of Object.keys(native)) {
    const ratio = native[m] / wasm[m];
    console.log(`rhs ${m}: wasm ${(wasm[m] / 1e6).toFixed(2)} M/s, native ${(native[m] / 1e6).toFixed(2)} M/s, native/wasm ${ratio.toFixed(2)} (goal <= 2)`);
  }

  // 4a. Lagrange's right-hand side in the worker: the compiled WebAssembly kernel the
  //     runs use, against the interpreter, per call (issue 10: the page's gains).
  {
    const { page, ctx } = await open(browser, server.url, { context: await still() });
    const names = ["chaplygin-sleigh", "ball-on-turntable", "rolling-disk", "ball-in-cone", "rattleback", "whipple-bicycle"];
    const rows = await page.evaluate(async (names) => {
      const api = window.wasmBindings;
      const out = [];
      for (const name of names) {
        const text = api.edit_list(api.gallery_text(name), "run.methods", ["lagrange"]);
        const count = 20000;
        const answer = await window.nhlabTest.benchRhs(text, count);
        if (!answer.ok) throw new Error(`${name}: ${answer.error}`);
        const r = answer.result;
        out.push([name, r.code, r.compiled * 1e6, r.interpreted * 1e6]);
      }
      return out;
    }, names);
    for (const [name, code, compiled, interpreted] of rows) {
      console.log(`rhs lagrange in the worker, ${name}: ${code} ${compiled.toFixed(0)} ns, interpreted ${interpreted.toFixed(0)} ns a call (${(interpreted / compiled).toFixed(1)}x faster)`);
    }
    await ctx.close();
  }

  // 5. Size.
  const dist = process.env.NHLAB_DIST ?? path.join(ROOT, "dist");
  const kb = (n) => `${(n / 1024).toFixed(0)} KiB`;
  // The three modules: the page's and the runner's make the first frame, the
  // helper's loads once the page has drawn (goal for the page's: <= 500 KiB brotli).
  for (const kind of ["page", "runner", "helper"]) {
    const file = fs.readdirSync(dist).find((f) => f.startsWith(`nhlab-${kind}-`) && f.endsWith(".wasm"));
    const bytes = fs.readFileSync(path.join(dist, file));
    const gz = zlib.gzipSync(bytes, { level: 9 }).length;
    const br = zlib.brotliCompressSync(bytes, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11 } }).length;
    console.log(`wasm size, the ${kind}'s module: ${kb(bytes.length)} raw, ${kb(gz)} gzip -9, ${kb(br)} brotli 11`);
  }
  const editor = fs.readFileSync(path.join(dist, "editor.js"));
  const edGz = zlib.gzipSync(editor, { level: 9 }).length;
  const edBr = zlib.brotliCompressSync(editor, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11 } }).length;
  console.log(`editor bundle (CodeMirror 6): ${kb(editor.length)} raw, ${kb(edGz)} gzip -9, ${kb(edBr)} brotli 11`);
} finally {
  await browser.close();
  await server.close();
}
