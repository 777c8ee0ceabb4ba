// A lab in a MyST / Jupyter Book page, without a kernel: the page's `{anywidget}`
// directive is written by `Lab.myst` and the module put beside it by `save_module`
// (python/nhlab/widget.py); MyST (mystmd, pinned in python/requirements-test.txt) builds
// the site's content — the page's AST with its `anywidget` node, the module copied into
// the site's public files — and a page that serves those files alone renders the node as
// MyST's theme does: the module imported from its address, `render({model, el})` with a
// model of the node's values and nothing behind it. It draws, plays the values it was
// given, and asks nothing else of any server.
//
// MyST's own theme is not used: `myst build --html` downloads it from the MyST project's
// server at build time, which these machines cannot reach (docs/notebooks.md). A
// stand-in site template (a template.yml, nothing else) lets `myst build --site` build
// the content offline.
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { ROOT, launch } from "../browser/harness.mjs";
import { SHOTS, waitSceneDrawn } from "../browser/lab-support.mjs";

const VENV = process.env.NHLAB_VENV ?? path.join(ROOT, "target/python-venv");

/** The page's source: a lab of the sleigh with a heavier body, as a directive. */
const WRITE_PAGE = `
import pathlib, sys
import nhlab
from nhlab.widget import save_module
book = pathlib.Path(sys.argv[1])
lab = nhlab.Lab(nhlab.gallery("chaplygin-sleigh"), panel="energy", height=520)
lab.parameters = {"m": 2.0}
save_module(book)
(book / "index.md").write_text("# The sleigh\\n\\nA lab on a static page:\\n\\n" + lab.myst("nhlab-lab.mjs"), encoding="utf-8")
`;

/** Every node of type `kind` in a MyST AST. */
function nodes(tree, kind, found = []) {
  if (Array.isArray(tree)) for (const n of tree) nodes(n, kind, found);
  else if (tree && typeof tree === "object") {
    if (tree.type === kind) found.push(tree);
    for (const v of Object.values(tree)) nodes(v, kind, found);
  }
  return found;
}

test("a MyST page with a lab builds, and its anywidget node draws the lab with no kernel and nothing else served", { timeout: 240000 }, async () => {
  const book = fs.mkdtempSync(path.join(os.tmpdir(), "nhlab-myst-"));
  try {
    execFileSync(path.join(VENV, "bin/python"), ["-c", WRITE_PAGE, book]);
    fs.mkdirSync(path.join(book, "theme"));
    fs.writeFileSync(path.join(book, "theme/template.yml"), "myst: v1\nkind: site\ntitle: stand-in\n");
    fs.writeFileSync(path.join(book, "myst.yml"), "version: 1\nproject:\n  title: nhlab in MyST\nsite:\n  template: ./theme\n");
    execFileSync(path.join(VENV, "bin/myst"), ["build", "--site"], { cwd: book, env: { ...process.env, NO_UPDATE_NOTIFIER: "1" }, stdio: "pipe" });
    const content = JSON.parse(fs.readFileSync(path.join(book, "_build/site/content/index.json"), "utf8"));
    const [node, ...more] = nodes(content.mdast, "anywidget");
    assert.ok(node && !more.length, "the page has one anywidget node");
    assert.match(node.esm, /^\/nhlab-lab-[0-9a-f]+\.mjs$/, "MyST copied the module into the site");
    assert.equal(node.model.panel, "energy");
    assert.equal(node.model.parameters.m, 2);
    const publicDir = path.join(book, "_build/site/public");
    assert.equal(fs.readFileSync(path.join(publicDir, node.esm)).toString(), fs.readFileSync(path.join(ROOT, "python/nhlab/static/lab.mjs")).toString());

    // The site: the page and the public files; anything else asked is noted.
    const asked = [];
    const server = http.createServer((req, res) => {
      if (req.url === "/") { res.writeHead(200, { "content-type": "text/html" }).end("<!doctype html><meta charset=utf-8><title>The sleigh</title><link rel=icon href='data:,'><h1>The sleigh</h1><div id=widget style='width:900px'></div>"); return; }
      const file = path.join(publicDir, decodeURIComponent(req.url));
      if (req.url === node.esm && fs.existsSync(file)) { res.writeHead(200, { "content-type": "text/javascript" }).end(fs.readFileSync(file)); return; }
      asked.push(req.url);
      res.writeHead(404).end();
    });
    await new Promise((r) => server.listen(0, "127.0.0.1", r));
    const browser = await launch();
    try {
      const page = await browser.newPage({ viewport: { width: 1000, height: 900 } });
      const problems = [];
      page.on("pageerror", (e) => problems.push(`page error: ${e.message}`));
      await page.goto(`http://127.0.0.1:${server.address().port}/`);
      // As MyST's theme renders the node: import the module, render with the node's model.
      await page.evaluate(async (node) => {
        const values = { ...node.model };
        const model = { get: (k) => values[k], set: (k, v) => { values[k] = v; }, on() {}, off() {}, save_changes() {} };
        window.values = values;
        const widget = (await import(node.esm)).default;
        await widget.render({ model, el: document.getElementById("widget") });
      }, node);
      const frame = await (await page.waitForSelector("iframe.nhlab-lab")).contentFrame();
      await frame.waitForSelector("body[data-loaded]", { timeout: 60000 });
      await waitSceneDrawn(frame);
      assert.match(await frame.evaluate(() => window.nhlabTest.text()), /m = \{ value = 2(\.0)?,/, "it plays the page's values");
      assert.equal(await frame.evaluate(() => document.querySelector("#title")?.textContent), "Chaplygin sleigh");
      await page.screenshot({ path: path.join(SHOTS, "myst-page.png") });
      assert.deepEqual(asked, [], "nothing but the page and the module was asked of the server");
      assert.deepEqual(problems, []);
    } finally {
      await browser.close();
      await new Promise((r) => server.close(r));
    }
  } finally {
    fs.rmSync(book, { recursive: true, force: true });
  }
});
