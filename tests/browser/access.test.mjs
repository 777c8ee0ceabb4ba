// Accessibility of the page (issue 39, in progress): every PNG button named for its
// panel; no autoplay where the system asks for reduced motion.
// Run: node --test tests/browser/   (scripts/test.sh builds dist/ first)
import { test } from "node:test";
import assert from "node:assert/strict";
import { open, servedBrowser } from "./harness.mjs";

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
