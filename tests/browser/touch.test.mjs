// The page on a phone, by touch (issue 60.9): every control a finger can hit — WCAG
// 2.2's enhanced target size, 44 px, and 24 px for checkboxes, whose 44 px labels take
// the tap too — and a header that folds its actions behind one button instead of
// taking a fifth of the first screen.
// Run: node --test tests/browser/   (scripts/test.sh builds dist/ first)
import { test } from "node:test";
import assert from "node:assert/strict";
import path from "node:path";
import { ROOT, open, servedBrowser } from "./harness.mjs";

let server, browser;
const SHOTS = process.env.NHLAB_SCREENSHOTS ?? path.join(ROOT, "target", "screenshots");
servedBrowser((s, b) => { server = s; browser = b; });

const PHONE = { viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true, deviceScaleFactor: 2 };

/** Every control shown (and not inside a closed dialog) smaller than a finger:
 *  checkboxes under 24 × 24 px, anything else under 44 px tall (buttons, also wide). */
function smallTargets(page) {
  return page.evaluate(() => {
    const small = [];
    const controls = document.querySelectorAll("button, input, select, summary, a[href], .cm-content");
    for (const e of controls) {
      if (!e.getClientRects().length || e.closest("[hidden], dialog:not([open])") || e.matches(".skip:not(:focus)")) continue;
      const { width, height } = e.getBoundingClientRect();
      const tooSmall = e.type === "checkbox" ? width < 24 || height < 24 : height < 44 || (e.tagName === "BUTTON" && width < 44);
      const name = e.getAttribute("aria-label") || e.textContent.trim().slice(0, 24) || e.id || e.type;
      if (tooSmall) small.push(`${e.tagName.toLowerCase()} "${name}" ${Math.round(width)}×${Math.round(height)}`);
    }
    return small;
  });
}

for (const { name, url } of [
  { name: "the bicycle", url: "#gallery=whipple-bicycle" },
  { name: "the sleigh in 简体中文", url: "#gallery=chaplygin-sleigh&lang=zh" },
]) {
  test(`on a phone, ${name}: every control is a finger's size and the header's actions fold behind one button`, async () => {
    const context = await browser.newContext(PHONE);
    const { page, problems } = await open(browser, `${server.url}${url}`, { context });
    await page.waitForSelector("#plot-scene");
    assert.equal(await page.evaluate(() => matchMedia("(pointer: coarse)").matches), true, "a touch screen");
    // The header: the brand and one button, the scene's top on the first screen.
    const header = await page.evaluate(() => document.querySelector(".top").getBoundingClientRect().height);
    assert.ok(header <= 64, `the header is ${header} px tall`);
    assert.equal(await page.isVisible("#share"), false, "the actions are folded");
    assert.equal(await page.isVisible("#language"), true, "the language menu stays in sight");
    assert.deepEqual(await smallTargets(page), [], "targets under the size");
    // The bicycle's input sliders, which its hint says to try, are 44 px tall too.
    if (url.includes("bicycle")) {
      const heights = await page.$$eval(".inputs input[type=range]", (s) => s.map((x) => x.getBoundingClientRect().height));
      assert.ok(heights.length === 2 && heights.every((h) => h >= 44), JSON.stringify(heights));
    }
    // Unfolded: every action shown, finger-sized; Escape folds them, the focus back on the button.
    await page.tap("#actions-toggle");
    assert.equal(await page.getAttribute("#actions-toggle", "aria-expanded"), "true");
    for (const id of ["#share", "#embed-open", "#export-toml", "#export-csv", "#export-code > summary", "#help-open"]) {
      assert.equal(await page.isVisible(id), true, `${id} shown`);
    }
    assert.deepEqual(await smallTargets(page), [], "targets under the size, actions unfolded");
    await page.screenshot({ path: path.join(SHOTS, `phone-actions-${url.includes("zh") ? "zh" : "en"}.png`) });
    await page.keyboard.press("Escape");
    assert.equal(await page.isVisible("#share"), false, "Escape folds them");
    assert.equal(await page.evaluate(() => document.activeElement.id), "actions-toggle");
    // A tap elsewhere folds them too; a tap on an action does its work.
    await page.tap("#actions-toggle");
    await page.tap("h1");
    assert.equal(await page.getAttribute("#actions-toggle", "aria-expanded"), "false");
    await page.tap("#actions-toggle");
    await page.tap("#help-open");
    await page.waitForSelector("#help-dialog[open]");
    assert.deepEqual(await smallTargets(page), [], "targets under the size in the help");
    // The skip link, when a keyboard reaches it, is finger-sized as well.
    await page.click("#close-help");
    await page.focus(".skip");
    assert.ok(await page.evaluate(() => document.querySelector(".skip").getBoundingClientRect().height >= 44));
    assert.deepEqual(problems, []);
    await context.close();
  });
}

test("by mouse nothing changes: a desktop's header shows its actions in one row and no fold button", async () => {
  const { page, problems, ctx } = await open(browser, `${server.url}#gallery=chaplygin-sleigh`);
  await page.waitForSelector("#plot-scene");
  assert.equal(await page.isVisible("#actions-toggle"), false);
  assert.equal(await page.isVisible("#share"), true);
  const heights = await page.$$eval("#play, .param input[type=number]", (e) => e.map((x) => Math.round(x.getBoundingClientRect().height)));
  assert.ok(heights.every((h) => h < 44), `desktop controls keep their size: ${heights}`);
  assert.deepEqual(problems, []);
  await ctx.close();
});
