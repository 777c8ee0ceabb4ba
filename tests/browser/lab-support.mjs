// What the web lab's end-to-end tests share: waiting for the clock and the plots,
// timing the answers to clicks, and the scenarios at the documented limits.
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import zlib from "node:zlib";
import { ROOT, inkPerCanvas } from "./harness.mjs";

export const SHOTS = process.env.NHLAB_SCREENSHOTS ?? path.join(ROOT, "target", "screenshots");
fs.mkdirSync(SHOTS, { recursive: true });

/** Types the editor's text with `from` replaced by `to` (which must change it) and
 * waits for the error: the text before, the text typed, the status shown, and the
 * line (from 1) of the first line holding `mark`. */
export async function typeMistake(page, from, to, mark) {
  const text = await page.inputValue("#editor");
  const broken = text.replace(from, to);
  assert.notEqual(broken, text);
  await page.fill("#editor-view .cm-content", broken);
  await page.waitForSelector(".editor-status.error");
  const status = await page.textContent("#editor-status");
  const line = broken.split("\n").findIndex((l) => l.includes(mark)) + 1;
  return { text, broken, status, line };
}

/** Clicks "To end" and waits until every run has caught up (a few frames at most). */
export async function toEnd(page) {
  await page.click("#to-end");
  await page.waitForSelector("body[data-finished='1']");
  await page.waitForTimeout(50); // the frame that draws it
  await page.waitForSelector("body[data-drawn='1']"); // and the frames after it, if its time ran out
}

export const clockOf = (page) => page.evaluate(() => Number(/t = ([0-9.]+)/.exec(document.getElementById("clock").textContent)[1]));

export const waitClockPast = (page, t, options = {}) => page.waitForFunction((t) => Number(/t = ([0-9.]+)/.exec(document.getElementById("clock").textContent)[1]) > t, t, options);

/** Every plot's ink, once each has drawn data or 3 s have passed: while playing, plots
 *  scrolled out of view are refreshed one per frame, in turn. */
export async function drawnInk(page, min = 30) {
  const deadline = Date.now() + 3000;
  for (;;) {
    const canvases = await inkPerCanvas(page);
    if (canvases.every((c) => c.ink > min) || Date.now() > deadline) return canvases;
    await page.waitForTimeout(50);
  }
}

export function assertPlotsDrawn(canvases, min = 30) {
  assert.ok(canvases.length >= 4, `at least four plots, found ${canvases.length}`);
  for (const c of canvases) assert.ok(c.ink > min, `${c.id} has drawn data (${c.ink} coloured pixels; ${JSON.stringify(c)})`);
}

/** A share payload (`#s=`) for a scenario object, as the page wrote them before
 *  version 2 (the JSON of version 1): such links must keep opening. */
export const payloadOf = (scenario) => "1." + zlib.deflateRawSync(Buffer.from(JSON.stringify(scenario)), { level: 9 }).toString("base64url");

/** A model within the size limits that takes seconds to derive. */
export function slowScenario(n) {
  const coordinates = Array.from({ length: n }, (_, i) => `q${i}`);
  const kinetic = coordinates.map((q, i) => `(${q}' + 0.5*q${(i + 1) % n}')^2`).join(" + ");
  const constraints = Array.from({ length: n / 4 }, (_, k) => ({ expr: `q${2 * k}' - sin(q${2 * k + 1})*q${2 * k + 2}'` }));
  const q = Object.fromEntries(coordinates.map((c, i) => [c, 0.1 * (i % 7)]));
  return { format: "nhlab/1", title: "Too slow", coordinates, kinetic, potential: coordinates.map((c) => `cos(${c})`).join(" + "), constraints, initial: { q } };
}

/** A scenario object as TOML (the editor's language), for the models above. */
export function toml(scenario) {
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
export const ANSWER_BACKSTOP = 3000;

/** Milliseconds the page takes to answer a click. */
export async function answerTime(page) {
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

/** Thirty balls rolling with friction down one incline under seven methods and
 *  four parameter sets (issue 57): read and derived in a fraction of a second, its
 *  28 runs' starts (each finds its contacts' forces) are most of its load. */
export function thirtyBalls() {
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

/** Clicks an inert spot of the page (the title) every few milliseconds until `stop`
 *  is called, and returns the longest input delay of those clicks as the browser
 *  measured it (Event Timing: from the click to the start of its handling), in ms. */
export async function inputDelayProbe(page) {
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

/** The knife edge with every method and three `[compare]` sets (28 runs), 32 series
 *  and, with `trails`, 64 trailed points instead of its scene. */
export function crowdedScenario({ trails = false } = {}) {
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

/** The knife edge's 28 runs with a scene at its documented limits: 64 trailed
 *  outlines of 256 points each. */
export function crowdedBigScene() {
  const points = (s) => Array.from({ length: 256 }, (_, k) => `["cos(${k}*x)/${s + 1}", "sin(${k}*y) + ${k}/256"]`).join(", ");
  const text = crowdedScenario().replace(/series = \[[^\n]*\]/, 'series = ["phi", "speed"]');
  return text.slice(0, text.indexOf("# The sleigh on the incline")) + Array.from({ length: 64 }, (_, s) =>
    `[[scene.shapes]]\nname = "s${s}"\nkind = "polyline"\nat = ["x", "y"]\ntrail = true\npoints = [${points(s)}]\n`).join("");
}

/** 200 coordinates coupled in a ring, two constraints, stepped by Udwadia–Kalaba
 *  alone: a few milliseconds a step, a fraction of a second to derive. */
export function heavyStepScenario() {
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

/** Records the page's long tasks (50 ms or more) as `window.__long`, from its start. */
export const recordLongTasks = () => {
  window.__long = [];
  new PerformanceObserver((list) => { for (const e of list.getEntries()) window.__long.push(Math.round(e.duration)); })
    .observe({ type: "longtask", buffered: true });
};

/** Waits until the Help's heading `id` is at the top of the Help's box. */
export const scrolledTo = (page, id) => page.waitForFunction((id) => {
  const h = document.getElementById(id);
  const box = document.getElementById("help-body").getBoundingClientRect();
  const r = h?.getBoundingClientRect();
  return r && r.top >= box.top - 2 && r.top < box.top + 80;
}, id);

/** Waits until the first canvas of `frame` (a lab's scene) has drawn more than `min`
 *  coloured pixels: a lab inside a frame (the notebook widget's) has drawn. */
export const waitSceneDrawn = (frame, min = 50) => frame.waitForFunction((min) => {
  const c = document.querySelector("canvas");
  if (!c || !c.width) return false;
  const d = c.getContext("2d").getImageData(0, 0, c.width, c.height).data;
  let ink = 0;
  for (let i = 0; i < d.length; i += 4) if (d[i + 3] > 0 && Math.max(d[i], d[i + 1], d[i + 2]) - Math.min(d[i], d[i + 1], d[i + 2]) > 40) ink++;
  return ink > min;
}, min, { timeout: 30000 });
