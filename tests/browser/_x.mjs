import { serve, launch, open } from "./harness.mjs";
const server = await serve(); const browser = await launch();
const { page, ctx } = await open(browser, `${server.url}#gallery=whipple-bicycle&lang=zh`);
await page.waitForSelector("#plot-scene"); await page.waitForTimeout(2500);
console.log(await page.textContent("#legend-note"));
console.log(await page.textContent("#inputs"));
console.log(await page.textContent("#plot-contact-normal-fig .note-text").catch(()=>""));
console.log((await page.evaluate(() => document.getElementById("plot-scene").getAttribute("aria-label") ?? document.querySelector("#scene-text")?.textContent))?.slice(0,400));
await browser.close(); server.close(); process.exit(0);
