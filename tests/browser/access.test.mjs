// Accessibility of the page (issue 39): every PNG button named for its panel; no
// autoplay where the system asks for reduced motion; axe-core's WCAG 2.2 AA rules on
// every state the tests open, in English and in Chinese (one walkthrough); keyboard-only operation of sliders, the stability panel
// and the share dialog.
// Run: node --test tests/browser/   (scripts/test.sh builds dist/ first)
import { test } from "node:test";
import assert from "node:assert/strict";
import path from "node:path";
import { ROOT, axeViolations, open, servedBrowser, showEquations } from "./harness.mjs";

const SHOTS = process.env.NHLAB_SCREENSHOTS ?? path.join(ROOT, "target", "screenshots");
let server, browser;
servedBrowser((s, b) => { server = s; browser = b; });

test("every PNG button is named for its panel, and reduced motion means no autoplay", async () => {
  const { page, problems, ctx } = await open(browser, `${server.url}#gallery=whipple-bicycle`);
  await page.waitForSelector("#plots canvas");
  const names = await page.locator("button", { hasText: /^PNG$/ }).evaluateAll((buttons) => buttons.filter((b) => b.offsetParent).map((b) => b.getAttribute("aria-label")));
  assert.ok(names.length >= 3, names.join("; "));
  assert.equal(new Set(names).size, names.length, `unique: ${names.join("; ")}`);
  assert.ok(names.every((n) => n && n.startsWith("PNG of ")), names.join("; "));
  assert.deepEqual(problems, []);
  await ctx.close();
  const context = await browser.newContext({ viewport: { width: 1400, height: 1000 }, reducedMotion: "reduce" });
  const still = await open(browser, `${server.url}#gallery=chaplygin-sleigh`, { context });
  await still.page.waitForSelector("body[data-loaded]");
  await still.page.waitForTimeout(800);
  assert.match(await still.page.textContent("#clock"), /^t = 0\.000 /);
  assert.equal(await still.page.textContent("#play"), "Play");
  await still.page.click("#play");
  await still.page.waitForFunction(() => !/^t = 0\.000 /.test(document.getElementById("clock").textContent));
  assert.deepEqual(still.problems, []);
  await context.close();
});

/** What each language's walkthrough waits for and checks in its own words. */
const WORDS = {
  en: { swept: /Boundaries|No change/, cursor: /Enter runs at this value/, play: /Pause|Play/ },
  zh: { swept: /边界|没有变化/, cursor: /Enter 以此值运行/, play: /暂停|播放/ },
};

/** axe-core's WCAG 2.2 AA rules on every state the page shows, in `lang`: the
 *  default page, the stability panel moved by keys, each Help page, the share
 *  dialog, an error state and embeds (wide, and for English narrow too). */
async function walkWithAxe(lang) {
  const words = WORDS[lang];
  // The default page (the sleigh, with its stability panel), while playing.
  const { page, problems, ctx } = await open(browser, `${server.url}#lang=${lang}`);
  await page.waitForSelector("#plot-scene");
  await page.waitForFunction((swept) => !document.getElementById("stability").hidden && new RegExp(swept).test(document.getElementById("stability-note").textContent), words.swept.source, { timeout: 20000 });
  assert.deepEqual(await axeViolations(page), [], "the default page");
  if (lang === "zh") {
    // Drawn in the Chinese font the test command installs (Noto Sans CJK SC), as a
    // Chinese reader sees it: its taller lines are what a box must make room for.
    const cdp = await ctx.newCDPSession(page);
    await cdp.send("DOM.enable");
    await cdp.send("CSS.enable");
    const { root } = await cdp.send("DOM.getDocument");
    const { nodeId } = await cdp.send("DOM.querySelector", { nodeId: root.nodeId, selector: "#eq-head" });
    const { fonts } = await cdp.send("CSS.getPlatformFontsForNode", { nodeId });
    assert.deepEqual(fonts.map((f) => f.familyName), ["Noto Sans CJK SC"], "the heading's font");
    await cdp.detach();
  }
  // The stability panel moved by keys (its marker and what it reads out).
  await page.focus("#stability-canvas");
  await page.keyboard.press("ArrowLeft");
  assert.match(await page.textContent("#stability-cursor"), words.cursor);
  assert.deepEqual(await axeViolations(page, "#stability"), [], "the stability panel");
  // The help, on each page.
  await page.click("#help-open");
  for (const tab of ["first-system", "reference", "lab"]) {
    await page.click(`#help-tab-${tab}`);
    await page.waitForFunction((key) => document.getElementById("help-body").dataset.key === key, `${tab} ${lang}`);
    assert.deepEqual(await axeViolations(page, "#help-dialog"), [], `help: ${tab}`);
  }
  if (lang === "zh") await page.screenshot({ path: path.join(SHOTS, "zh-help.png") });
  await page.click("#close-help");
  // The share dialog.
  await page.click("#embed-open");
  assert.deepEqual(await axeViolations(page, "#share-dialog"), [], "the share dialog");
  await page.click("#close-share");
  // An error state: a scenario with a mistake, marked in the editor and under it.
  const text = await page.inputValue("#editor");
  await page.fill("#editor-view .cm-content", text.replace('kinetic = "', 'kinetic = "(('));
  await page.waitForSelector("#editor-status.error");
  assert.deepEqual(await axeViolations(page), [], "an error state");
  assert.deepEqual(problems, []);
  await ctx.close();
  // The bicycle (the widest equations: they scroll, with a Chinese font too) with the
  // Code menu open, a plot's data table open, then the share dialog over it.
  const bike = await open(browser, `${server.url}#gallery=whipple-bicycle&lang=${lang}`);
  await showEquations(bike.page);
  await bike.page.waitForSelector("#eq-body .eq-math");
  await bike.page.click("#plot-trajectory-fig details.data > summary");
  await bike.page.waitForSelector("#plot-trajectory-fig .data-table tbody tr");
  await bike.page.click("#export-code > summary"); // last: a click outside closes it
  assert.equal(await bike.page.evaluate(() => document.getElementById("export-code").open), true);
  assert.deepEqual(await axeViolations(bike.page), [], "the bicycle, Code menu and a data table open");
  await bike.page.keyboard.press("Escape");
  await bike.page.click("#share");
  await bike.page.waitForSelector("#share-dialog[open]");
  assert.deepEqual(await axeViolations(bike.page, "#share-dialog"), [], "the bicycle's share dialog");
  assert.deepEqual(bike.problems, []);
  await bike.ctx.close();
  // An embed, wide (and narrow).
  const frames = lang === "en" ? [{ width: 720, height: 560 }, { width: 360, height: 460 }] : [{ width: 720, height: 560 }];
  for (const viewport of frames) {
    const e = await open(browser, `${server.url}#gallery=rolling-disk&embed&panel=stability&lang=${lang}`, { viewport });
    await e.page.waitForSelector("#plot-scene");
    await e.page.waitForFunction(() => !document.getElementById("stability").hidden, null, { timeout: 20000 });
    assert.deepEqual(await axeViolations(e.page), [], `the embed at ${viewport.width}×${viewport.height}`);
    assert.match(await e.page.textContent("#play"), words.play);
    if (lang === "zh") await e.page.screenshot({ path: path.join(SHOTS, "zh-embed-720x560.png") });
    assert.deepEqual(e.problems, []);
    await e.ctx.close();
  }
}

test("axe-core finds no WCAG 2.2 AA violation: default page, stability panel, help, share dialog, error state, embed", () => walkWithAxe("en"));
test("in 简体中文: axe-core finds no WCAG 2.2 AA violation (page, stability panel, help, share dialog, error, embed)", () => walkWithAxe("zh"));

test("keyboard alone: a slider keeps its focus and steps, the stability panel takes arrows and Enter, the share dialog opens and closes", async () => {
  const { page, problems, ctx } = await open(browser, `${server.url}#gallery=rolling-disk`);
  await page.waitForSelector("#plot-scene");
  // A parameter slider: three presses, three steps, the focus stays on it.
  const slider = ".param input[aria-label='g slider']";
  await page.focus(slider);
  const start = Number(await page.inputValue(slider));
  const written = () => page.evaluate(() => Number(/^g = ([0-9.e+-]+)$/m.exec(document.getElementById("editor").value)?.[1]));
  let before = await written();
  for (let k = 1; k <= 3; k++) {
    await page.keyboard.press("ArrowRight");
    // Each press is an edit of the text; the rebuilt panel gives the focus back.
    await page.waitForFunction((before) => Number(/^g = ([0-9.e+-]+)$/m.exec(document.getElementById("editor").value)?.[1]) > before, before);
    await page.waitForFunction(() => document.activeElement?.getAttribute("aria-label") === "g slider");
    before = await written();
  }
  const after = Number(await page.inputValue(slider));
  assert.ok(after > start, `stepped from ${start} to ${after}`);
  assert.equal(after, await written(), "the text holds the slider's value");
  // The stability panel: Tab to it, ← moves the marker and says where, Enter runs there.
  await page.waitForFunction(() => !document.getElementById("stability").hidden && /Boundaries/.test(document.getElementById("stability-note").textContent), null, { timeout: 20000 });
  await page.focus("#stability-canvas");
  await page.keyboard.press("Home");
  assert.match(await page.textContent("#stability-cursor"), /^phi' = 0: unstable\. Enter runs at this value/);
  for (let k = 0; k < 200; k++) await page.keyboard.press("ArrowRight");
  assert.match(await page.textContent("#stability-cursor"), /^phi' = 2: unstable\./);
  await page.keyboard.press("Enter");
  await page.waitForFunction(() => /phi = 2(\.0+)?\b/.test(document.getElementById("editor").value));
  await page.waitForFunction(() => /^The run uses phi' = 2: unstable\./.test(document.getElementById("stability-note").textContent));
  assert.equal(await page.evaluate(() => document.activeElement.id), "stability-canvas");
  // The share dialog from the keyboard: Enter on its button, Escape closes it and the
  // focus returns to the button.
  await page.focus("#share");
  await page.keyboard.press("Enter");
  await page.waitForSelector("#share-dialog[open]");
  await page.keyboard.press("Tab");
  assert.ok(await page.evaluate(() => document.getElementById("share-dialog").contains(document.activeElement)), "focus inside the dialog");
  await page.keyboard.press("Escape");
  await page.waitForFunction(() => !document.getElementById("share-dialog").open);
  assert.equal(await page.evaluate(() => document.activeElement.id), "share");
  assert.deepEqual(problems, []);
  await ctx.close();
});

test("each plot is described in words and gives its data as a table; equations that scroll say so; print leaves out the mouse's instructions", async () => {
  const { page, problems, ctx } = await open(browser, `${server.url}#gallery=knife-edge-incline`);
  await page.waitForSelector("#plot-trajectory");
  await page.waitForFunction(() => Number(/t = ([0-9.]+)/.exec(document.getElementById("clock").textContent)[1]) > 1);
  await page.click("#play"); // pause, so that the words and the table agree
  await page.waitForTimeout(1200);
  // The trajectory's description: its ranges and where each method is now.
  const described = await page.evaluate(() => {
    const c = document.getElementById("plot-trajectory");
    return document.getElementById(c.getAttribute("aria-describedby")).textContent;
  });
  assert.match(described, /^trajectory: y \[?m?\]? ?against x.*lagrange: x.* from 0 to [0-9.]+, y.* from 0 to [0-9.]+; now at x.* = [0-9.]+, y.* = [0-9.]+\./, described);
  // Past t = π/2ω the path has reached its largest x, g sin α / 2ω² = 0.3624.
  const largest = Number(/lagrange: x[^,]* from 0 to ([0-9.]+)/.exec(described)[1]);
  assert.ok(Math.abs(largest - 9.81 * Math.sin(0.3) / 8) < 1e-3, `largest x ${largest}`);
  // The data table on request: rows of the methods' points, the last at the clock.
  await page.click("#plot-trajectory-fig details.data > summary");
  await page.waitForSelector("#plot-trajectory-fig .data-table tbody tr");
  const rows = await page.$$eval("#plot-trajectory-fig .data-table tbody tr", (r) => r.map((x) => [...x.children].map((c) => c.textContent)));
  assert.ok(rows.length >= 3 * 10, `rows for three methods (${rows.length})`);
  assert.deepEqual([...new Set(rows.map((r) => r[0]))], ["lagrange", "udwadia-kalaba", "gauss"]);
  // x = (g sin α / 2ω²) sin²ωt: never negative, at most g sin α / 2ω² = 0.3624 (ω = 2).
  for (const [, x] of rows) assert.ok(Number(x) >= 0 && Number(x) <= 0.3625, `x = ${x}`);
  // The scene's handling is said on screen, not on paper.
  assert.match(await page.textContent("#plot-scene-fig .handling"), /^; drag or the arrow keys move the view/);
  await page.emulateMedia({ media: "print" });
  assert.equal(await page.isVisible("#plot-scene-fig .handling"), false);
  assert.equal(await page.isVisible("#plot-scene-fig .note-text"), true);
  assert.equal(await page.isVisible("#plot-trajectory-fig details.data"), false);
  await page.emulateMedia({ media: "screen" });
  assert.deepEqual(problems, []);
  await ctx.close();
  // The bicycle's mass matrix is wider than its box: it scrolls, says so, takes the focus.
  const bike = await open(browser, `${server.url}#gallery=whipple-bicycle`);
  await showEquations(bike.page);
  await bike.page.waitForFunction(() => document.querySelector("#eq-body .eq-math.scrolls"), null, { timeout: 30000 });
  const wide = await bike.page.evaluate(() => {
    const box = document.querySelector("#eq-body .eq-math.scrolls");
    return { tab: box.tabIndex, label: box.getAttribute("aria-label"), wider: box.scrollWidth > box.clientWidth };
  });
  assert.ok(wide.tab === 0 && wide.wider && /scrolls sideways/.test(wide.label), JSON.stringify(wide));
  await bike.page.locator("#eq-body .eq-math.scrolls").first().scrollIntoViewIfNeeded();
  await bike.page.locator("#eq-body .eq-math.scrolls").first().screenshot({ path: path.join(ROOT, "target", "screenshots", "equation-scrolls.png") });
  assert.deepEqual(bike.problems, []);
  await bike.ctx.close();
});

test("the editor is no keyboard trap: Tab leaves it, Ctrl+] indents, and the controls come before it", async () => {
  // Issue 60.4: once Tab reached the editor, each Tab inserted indentation (the system
  // re-derived, was marked edited), and the parameters came after the text.
  const { page, problems, ctx } = await open(browser, `${server.url}#gallery=chaplygin-sleigh`);
  await page.waitForSelector("#editor-view .cm-content");
  const order = await page.evaluate(() => {
    const first = (sel) => document.querySelector(sel);
    const editor = first("#editor-view .cm-content");
    const before = (a, b) => !!(a.compareDocumentPosition(b) & Node.DOCUMENT_POSITION_FOLLOWING);
    return { parameters: before(first(".param input"), editor), methods: before(first("#methods input"), editor) };
  });
  assert.deepEqual(order, { parameters: true, methods: true });
  const text = await page.inputValue("#editor");
  // Near its top-left corner: the text is wider than its box, its centre off screen.
  await page.click("#editor-view .cm-content", { position: { x: 24, y: 8 } });
  await page.keyboard.press("Control+Home");
  await page.keyboard.press("Tab");
  assert.equal(await page.evaluate(() => document.activeElement.closest("#editor-view") === null), true, "Tab left the editor");
  assert.equal(await page.inputValue("#editor"), text, "and typed nothing");
  await page.keyboard.press("Shift+Tab");
  assert.equal(await page.evaluate(() => document.activeElement.closest("#editor-view") !== null), true, "Shift+Tab comes back");
  await page.keyboard.press("Control+]");
  assert.equal((await page.inputValue("#editor")).split("\n")[0], "  " + text.split("\n")[0], "Ctrl+] indents the line");
  assert.match(await page.textContent("#editor-keys"), /Tab and Shift\+Tab leave the text/);
  assert.deepEqual(problems, []);
  await ctx.close();
});
