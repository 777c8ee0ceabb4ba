// How long a reader waits for the first plot over a slow link (issue 60.13): dist/
// served as a host would — brotli, gzip or uncompressed — to Chromium with its network
// throttled by the DevTools protocol (10 and 4 Mbit/s down, 40 ms round trip, no
// cache), the default page opened three times each; the median time from navigation to
// the first drawn plot, the bytes on the wire by then, and whether the helper's module
// (equations, exports) was among them.
// Run: node tests/browser/load-times.mjs   (after `trunk build --release --offline`)
import http from "node:http";
import fs from "node:fs";
import path from "node:path";
import zlib from "node:zlib";
import { DIST, launch } from "./harness.mjs";

const TYPES = { ".html": "text/html", ".js": "text/javascript", ".wasm": "application/wasm", ".css": "text/css", ".json": "application/json", ".toml": "text/plain" };
const LINKS = [{ name: "10 Mbit/s", bits: 10e6 }, { name: "4 Mbit/s", bits: 4e6 }];
const ENCODINGS = ["br", "gzip", "identity"];
const RUNS = 3;

/** A static server for dist/ that compresses as told (compressed files kept in memory). */
function host(encoding) {
  const cache = new Map();
  const body = (file) => {
    if (!cache.has(file)) {
      const raw = fs.readFileSync(file);
      cache.set(file, encoding === "br" ? zlib.brotliCompressSync(raw, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11 } })
        : encoding === "gzip" ? zlib.gzipSync(raw, { level: 9 }) : raw);
    }
    return cache.get(file);
  };
  const server = http.createServer((req, res) => {
    const name = decodeURIComponent(new URL(req.url, "http://x").pathname);
    const file = path.join(DIST, name === "/" ? "index.html" : name);
    if (!file.startsWith(DIST) || !fs.existsSync(file) || fs.statSync(file).isDirectory()) { res.writeHead(404).end(); return; }
    const headers = { "content-type": TYPES[path.extname(file)] ?? "application/octet-stream" };
    if (encoding !== "identity") headers["content-encoding"] = encoding;
    res.writeHead(200, headers).end(body(file));
  });
  return new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve({ url: `http://127.0.0.1:${server.address().port}/`, server })));
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const browser = await launch();
for (const encoding of ENCODINGS) {
  const { url, server } = await host(encoding);
  for (const link of LINKS) {
    const firsts = [], bytes = [], helper = [];
    for (let k = 0; k < RUNS; k++) {
      const ctx = await browser.newContext({ viewport: { width: 1400, height: 1000 } });
      const page = await ctx.newPage();
      const cdp = await ctx.newCDPSession(page);
      await cdp.send("Network.enable");
      await cdp.send("Network.setCacheDisabled", { cacheDisabled: true });
      await cdp.send("Network.emulateNetworkConditions", { offline: false, latency: 40, downloadThroughput: link.bits / 8, uploadThroughput: link.bits / 8 });
      const wire = new Map(), urls = new Map();
      cdp.on("Network.requestWillBeSent", (e) => urls.set(e.requestId, e.request.url));
      cdp.on("Network.loadingFinished", (e) => wire.set(e.requestId, e.encodedDataLength));
      await page.goto(url);
      await page.waitForFunction(() => window.nhlabPerf?.firstPlotMs !== undefined, null, { timeout: 120000 });
      firsts.push(await page.evaluate(() => window.nhlabPerf.firstPlotMs));
      bytes.push([...wire.values()].reduce((a, b) => a + b, 0));
      helper.push([...wire.keys()].some((id) => /nhlab-helper/.test(urls.get(id) ?? "")));
      await ctx.close();
    }
    console.log(`${encoding.padEnd(8)} ${link.name.padEnd(10)}: first plot ${(median(firsts) / 1000).toFixed(2)} s (median of ${RUNS}), ${(median(bytes) / 1024).toFixed(0)} KiB on the wire by then, helper module among them: ${helper.some(Boolean) ? "yes" : "no"}`);
  }
  server.close();
}
await browser.close();
process.exit(0);
