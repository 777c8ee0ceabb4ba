import { serve, launch, open } from "./harness.mjs";
const server = await serve(); const browser = await launch();
for (const [name, q] of [["a", "controls=parameters&panel=stability"], ["b", "controls=parameters,initial,methods,equations&panel=stability"], ["c", "controls=parameters&panel=trajectory"]]) {
  const { page, ctx } = await open(browser, `${server.url}#gallery=rolling-disk&embed&${q}&lang=zh`, { viewport: { width: 720, height: 560 } });
  await page.waitForSelector("#plot-scene");
  await page.waitForTimeout(1500);
  const r = await page.evaluate(() => {
    const b = (s) => { const e = document.querySelector(s); if (!e || !e.getClientRects().length) return null; const r = e.getBoundingClientRect(); return [Math.round(r.top + scrollY), Math.round(r.bottom + scrollY)]; };
    return { stage: b(".stage"), eq: b(".equations"), side: b(".side"), doc: document.documentElement.scrollHeight };
  });
  console.log(name, JSON.stringify(r));
  await page.screenshot({ path: `/tmp/diag/embed-${name}.png`, fullPage: true });
  await ctx.close();
}
await browser.close(); await server.close(); process.exit(0);
