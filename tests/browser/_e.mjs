import { serve, launch, open } from "./harness.mjs";
const server = await serve(); const browser = await launch();
const sizes = [{ width: 720, height: 560 }, { width: 390, height: 600 }, { width: 360, height: 460 }];
const controlsList = ["", "parameters", "parameters,initial,methods", "equations", "parameters,initial,methods,equations"];
const panels = ["stability", "", "none"];
for (const viewport of sizes) for (const controls of controlsList) for (const panel of panels) {
  const url = `${server.url}#gallery=rolling-disk&embed${controls ? `&controls=${controls}` : ""}${panel ? `&panel=${panel}` : ""}&lang=zh`;
  const { page, ctx } = await open(browser, url, { viewport });
  await page.waitForSelector("#plot-scene");
  if (panel === "stability") await page.waitForFunction(() => !document.getElementById("stability").hidden, null, { timeout: 20000 });
  await page.waitForTimeout(300);
  const r = await page.evaluate(() => {
    const box = (e) => { const b = e.getBoundingClientRect(); return { l: b.left, t: b.top + scrollY, r: b.right, b: b.bottom + scrollY, w: b.width, h: b.height }; };
    const parts = { scene: "#plot-scene", panel: "body.embed .stage .stability:not([hidden]), body.embed .plots", transport: ".transport", legend: "#legend", ends: "#legend-ends" };
    const boxes = {};
    for (const [k, s] of Object.entries(parts)) { const e = document.querySelector(s); if (e && e.getClientRects().length && getComputedStyle(e).display !== "none") boxes[k] = box(e); }
    const overlaps = [];
    const names = Object.keys(boxes);
    for (let i = 0; i < names.length; i++) for (let j = i + 1; j < names.length; j++) {
      const a = boxes[names[i]], b = boxes[names[j]];
      const ox = Math.min(a.r, b.r) - Math.max(a.l, b.l), oy = Math.min(a.b, b.b) - Math.max(a.t, b.t);
      if (ox > 1 && oy > 1) overlaps.push(`${names[i]}×${names[j]} ${Math.round(ox)}x${Math.round(oy)}`);
    }
    // Controls covered by something else.
    const covered = [];
    for (const e of document.querySelectorAll("button, input, select, summary")) {
      if (!e.getClientRects().length || e.closest("[hidden], dialog:not([open])") || getComputedStyle(e).visibility === "hidden") continue;
      e.scrollIntoView({ block: "center", inline: "center" });
      const b = e.getBoundingClientRect();
      const hit = document.elementFromPoint(b.left + b.width / 2, b.top + b.height / 2);
      if (!hit || !(hit === e || e.contains(hit) || hit.contains(e) || hit.closest("label")?.contains(e))) covered.push(`${e.id || e.getAttribute("aria-label") || e.textContent.trim().slice(0, 12)} by ${hit?.id || hit?.className || hit?.tagName}`);
    }
    scrollTo(0, 0);
    return { scene: Math.round(boxes.scene?.h ?? 0), overlaps, covered };
  });
  const bad = r.scene < 200 || r.overlaps.length || r.covered.length;
  if (bad) console.log(`${viewport.width}x${viewport.height} controls=${controls} panel=${panel}:`, JSON.stringify(r));
  await ctx.close();
}
await browser.close(); await server.close(); process.exit(0);
