// End-to-end tests of the web lab at its limits (issue 9 and after): nothing a link
// holds can freeze or poison the page, slow loads and steps are stopped and blamed,
// and the page answers input within its budgets at every documented limit.
import { test } from "node:test";
import assert from "node:assert/strict";
import zlib from "node:zlib";
import { open, servedBrowser, showEquations } from "./harness.mjs";
import { SHOTS, toEnd, clockOf, waitClockPast, drawnInk, assertPlotsDrawn, payloadOf, slowScenario, toml, ANSWER_BACKSTOP, answerTime, thirtyBalls, inputDelayProbe, crowdedScenario, crowdedBigScene, heavyStepScenario, recordLongTasks } from "./lab-support.mjs";

let server, browser;

servedBrowser((s, b) => { server = s; browser = b; }); // lab-support makes SHOTS

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
  // A budget that ends in the runs' start. Two loads of the same text on a busy
  // machine differ by tens of percent, so a load that finished anyway (quicker this
  // time) or was stopped while deriving (slower) sets the next budget from its own
  // times: what is tested is the blame once a load is stopped in that part.
  let budgetMs = Math.round(starting + 0.6 * (total - starting));
  let said = "";
  for (let attempt = 1; ; attempt++) {
    await page.evaluate((ms) => { window.NHLAB_BUDGET_MS = { load: ms }; }, budgetMs);
    const loaded = await page.evaluate((t) => window.nhlabTest.load(t), `${text}# again ${attempt}\n`);
    said = await page.textContent("#editor-status");
    if (!loaded && / while starting /.test(said)) break;
    assert.ok(attempt < 5, `${attempt} budgets, the last ${budgetMs} ms, and none stopped the load in the runs' start: ${loaded ? "it loaded" : said}`);
    const again = await page.evaluate(() => ({ phases: window.nhlabPerf.loadPhases, total: window.nhlabPerf.loads.at(-1) }));
    const from = again.phases.find((p) => p.phase === "starting")?.ms;
    budgetMs = loaded && from !== undefined ? Math.round(from + 0.5 * (again.total - from)) : Math.round(1.5 * budgetMs);
    console.log(`thirty balls, attempt ${attempt}: ${loaded ? "loaded" : "stopped before its runs' start"}; the next budget ${budgetMs} ms`);
  }
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
  await showEquations(page);
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
  // Reset: the runs start again, and the notice of the step too slow goes with its cause.
  await page.waitForFunction(() => /took more than/.test(document.getElementById("notice").textContent));
  await page.click("#reset");
  await page.waitForFunction(() => document.getElementById("notice").hidden);
  // Another scenario loads in a fresh runner (its plots drawn at t0 at least).
  await page.selectOption("#gallery", "chaplygin-sleigh");
  await page.waitForFunction(() => document.querySelector("h1").textContent === "Chaplygin sleigh");
  assert.deepEqual(problems, []);
  await context.close();
});

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
  await showEquations(page);
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
  // Near its top-left corner: the text is wider than its box, its centre off screen.
  await page.click("#editor-view .cm-content", { position: { x: 24, y: 8 } });
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
      await showEquations(page);
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
