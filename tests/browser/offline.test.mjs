// The offline zip (scripts/offline.py, issue 60): unpacked anywhere and served by
// its own serve.py (Python 3 alone), the whole lab works — a system plays, its
// equations are derived in the helper, the Help opens — and nothing is asked of any
// other host.
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync, spawn } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { DIST, ROOT, launch, open, showEquations } from "./harness.mjs";

/** A port nothing listens on. */
const freePort = () => new Promise((resolve) => {
  const s = net.createServer().listen(0, "127.0.0.1", () => { const { port } = s.address(); s.close(() => resolve(port)); });
});

test("the offline zip, unpacked and served by its serve.py, plays, derives and helps with nothing from elsewhere", async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "nhlab-offline-"));
  const zip = path.join(dir, "nhlab-offline.zip");
  execFileSync("python3", [path.join(ROOT, "scripts", "offline.py"), DIST, zip]);
  execFileSync("python3", ["-m", "zipfile", "-e", zip, dir]);
  const folder = path.join(dir, "nhlab");
  assert.deepEqual(fs.readdirSync(folder).sort(), ["README.txt", "lab", "serve.py"]);
  assert.match(fs.readFileSync(path.join(folder, "README.txt"), "utf8"), /python3 serve\.py/);
  const port = await freePort();
  const server = spawn("python3", [path.join(folder, "serve.py"), String(port)], { stdio: ["ignore", "pipe", "pipe"] });
  const browser = await launch();
  try {
    await new Promise((resolve, reject) => {
      server.stdout.on("data", (d) => { if (String(d).includes(`http://127.0.0.1:${port}/`)) resolve(); });
      server.on("exit", (code) => reject(new Error(`serve.py exited with ${code}`)));
    });
    const origin = `http://127.0.0.1:${port}`;
    const ctx = await browser.newContext({ viewport: { width: 1400, height: 1000 } });
    const elsewhere = [];
    // Every request of the page and its workers: our server's, or refused and noted.
    await ctx.route("**/*", (route) => {
      const url = route.request().url();
      if (url.startsWith(origin) || url.startsWith("blob:") || url.startsWith("data:")) return route.continue();
      elsewhere.push(url);
      return route.abort();
    });
    const { page, problems } = await open(browser, `${origin}/#gallery=rolling-disk`, { context: ctx });
    await page.click("#to-end");
    await page.waitForSelector("body[data-finished='1']", { timeout: 30000 });
    await showEquations(page);
    await page.waitForFunction(() => document.querySelectorAll("#eq-body .eq").length > 0, null, { timeout: 30000 });
    const wasm = await page.evaluate(() => performance.getEntriesByType("resource").filter((r) => r.name.endsWith(".wasm")).map((r) => r.name));
    assert.ok(wasm.length >= 2, `the modules came from the zip's server: ${wasm}`);
    await page.click("#help-open");
    await page.waitForFunction(() => document.getElementById("help-body")?.textContent.length > 1000);
    assert.deepEqual(elsewhere, [], "requests to other hosts");
    assert.deepEqual(problems, []);
    await ctx.close();
  } finally {
    await browser.close();
    server.kill();
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
