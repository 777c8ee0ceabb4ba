import { serve, launch } from "./harness.mjs";
const server = await serve(); const browser = await launch();
for (const url of ["#gallery=whipple-bicycle", "#gallery=chaplygin-sleigh&lang=zh"]) {
const ctx = await browser.newContext({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true, deviceScaleFactor: 2 });
const page = await ctx.newPage();
await page.goto(`${server.url}${url}`);
await page.waitForSelector("body[data-ready='1']", { timeout: 30000 });
await page.waitForTimeout(1000);
const r = await page.evaluate(() => {
  const out = [];
  for (const e of document.querySelectorAll("button, input, select, summary, a[href], textarea, [tabindex='0'], label:has(input)")) {
    if (!e.getClientRects().length || e.closest("[hidden], dialog:not([open])")) continue;
    const b = e.getBoundingClientRect();
    if (b.width < 44 || b.height < 44) out.push(`${Math.round(b.width)}x${Math.round(b.height)} ${e.tagName}${e.id ? "#" + e.id : ""}${e.type ? "[" + e.type + "]" : ""}.${e.className} ${(e.getAttribute("aria-label") || e.textContent).trim().slice(0, 20)}`);
  }
  return out;
});
console.log(url, r.length); console.log(r.join("\n"));
await page.screenshot({ path: "/tmp/diag/phone.png", fullPage: false });
await ctx.close();
}
await browser.close(); await server.close(); process.exit(0);
