// nhlab.Lab in a real Jupyter server (JupyterLab 4 and Notebook 7, pinned in
// python/requirements-test.txt, in the package's virtual environment,
// target/python-venv): a notebook opened in headless Chromium runs a cell that shows a
// lab, the scene draws in the output area, a slider moved in the lab reaches Python
// (the next cell prints the new value), and a value set from Python reaches the lab.
// One server for both front ends; each opens its own copy of the notebook.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { ROOT, launch } from "../browser/harness.mjs";
import { SHOTS, waitSceneDrawn } from "../browser/lab-support.mjs";

const VENV = process.env.NHLAB_VENV ?? path.join(ROOT, "target/python-venv");

const freePort = () => new Promise((resolve) => {
  const s = net.createServer().listen(0, "127.0.0.1", () => { const { port } = s.address(); s.close(() => resolve(port)); });
});

const cell = (source) => ({ cell_type: "code", execution_count: null, metadata: {}, outputs: [], source });

/** Starts JupyterLab on a free port of 127.0.0.1 in `dir`; resolves to {url, stop}. */
async function jupyterLab(dir) {
  const port = await freePort();
  const token = crypto.randomBytes(16).toString("hex");
  const env = { ...process.env, JUPYTER_CONFIG_DIR: path.join(dir, ".config"), JUPYTER_RUNTIME_DIR: path.join(dir, ".runtime"), JUPYTERLAB_SETTINGS_DIR: path.join(dir, ".settings"), JUPYTERLAB_WORKSPACES_DIR: path.join(dir, ".workspaces") };
  const server = spawn(path.join(VENV, "bin/jupyter"), ["lab", "--no-browser", "--allow-root", "--ip=127.0.0.1", `--port=${port}`, `--IdentityProvider.token=${token}`,
    `--ServerApp.root_dir=${dir}`, "--ServerApp.port_retries=0", "--LabApp.news_url=", "--LabServerApp.extension_manager=readonly"],
  { env, stdio: ["ignore", "pipe", "pipe"] });
  let said = "";
  server.stdout.on("data", (d) => { said += d; });
  server.stderr.on("data", (d) => { said += d; });
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; ; i++) {
    if (server.exitCode !== null) throw new Error(`jupyter lab exited with ${server.exitCode}:\n${said}`);
    try { if ((await fetch(`${url}/api/status?token=${token}`)).ok) break; } catch { /* not yet */ }
    if (i > 600) throw new Error(`jupyter lab did not answer in 60 s:\n${said}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  return { url, token, log: () => said, stop: () => new Promise((resolve) => { server.once("exit", resolve); server.kill("SIGTERM"); }) };
}

/** Runs the notebook's cell `i` (click it, Shift+Enter). */
async function runCell(page, i) {
  const editor = page.locator(".jp-Notebook .jp-Cell").nth(i).locator(".jp-InputArea-editor");
  await editor.click();
  await page.keyboard.press("Shift+Enter");
}

/** The kernel of the server's one session is idle (asked of the server's API). */
async function kernelIdle(server) {
  for (let i = 0; i < 600; i++) {
    const sessions = await (await fetch(`${server.url}/api/sessions?token=${server.token}`)).json();
    if (sessions.length && sessions.every((s) => s.kernel?.execution_state === "idle")) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error("the kernel did not become idle in 60 s");
}

/** Notebook 7.6.5's own errors, thrown as it opens any notebook (a notebook of `1+1`
 *  alone shows the first; the second comes with its file browser's command): not the
 *  lab's. Any other error fails the test. */
const JUPYTERS_OWN = ["Cannot read properties of undefined (reading 'schema')", "Command 'filebrowser:open-path' not registered."];

const notebook = {
  nbformat: 4, nbformat_minor: 5,
  metadata: { kernelspec: { name: "python3", display_name: "Python 3", language: "python" } },
  cells: [
    cell('import nhlab\nlab = nhlab.Lab(nhlab.gallery("chaplygin-sleigh"), panel="energy")\nlab'),
    cell('print(f"m = {lab.parameters[\'m\']!r} | the text says", f"m = {{ value = {lab.parameters[\'m\']!r},"  in lab.scenario)'),
    cell('lab.parameters = {**lab.parameters, "a": -0.25}'),
  ],
};

let dir = null;
let server = null;
let browser = null;
before(async () => {
  assert.ok(fs.existsSync(path.join(VENV, "bin/jupyter")), `${VENV} has no JupyterLab: bash scripts/python.sh installs it`);
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "nhlab-jupyter-"));
  for (const app of ["lab", "notebook"]) fs.writeFileSync(path.join(dir, `${app}.ipynb`), JSON.stringify(notebook));
  server = await jupyterLab(dir);
  browser = await launch();
});
after(async () => {
  await browser?.close();
  await server?.stop();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

for (const [app, name, address] of [["lab", "JupyterLab 4", "lab/tree/lab.ipynb"], ["notebook", "Notebook 7", "notebooks/notebook.ipynb"]]) {
  test(`in ${name}, a cell shows a lab that draws, and a slider moved in it reaches the next cell`, { timeout: 240000 }, async () => {
    const context = await browser.newContext({ viewport: { width: 1300, height: 1000 } });
    const page = await context.newPage();
    try {
      const problems = [];
      page.on("pageerror", (e) => { if (!JUPYTERS_OWN.includes(e.message)) problems.push(`page error: ${e.message}`); });
      await page.goto(`${server.url}/${address}?token=${server.token}`);
      await page.waitForSelector(".jp-Notebook .jp-Cell .jp-InputArea-editor", { timeout: 60000 });
      await kernelIdle(server);
      const ran = Date.now();
      await runCell(page, 0);
      // The lab in the output area: its frame, its page loaded, its scene drawn.
      const handle = await page.waitForSelector(".jp-OutputArea-output iframe.nhlab-lab", { timeout: 60000 });
      const frame = await handle.contentFrame();
      await frame.waitForSelector("body[data-loaded]", { timeout: 60000 });
      await waitSceneDrawn(frame);
      const firstFrameMs = Date.now() - ran;
      // It plays what the scenario says (the lab's values from Python are the text's).
      assert.deepEqual(await frame.evaluate(() => window.nhlabTest.info().methods), ["lagrange", "hamel", "gauss"]);
      // A student moves the mass's slider (it keeps to its steps: 2.5 becomes the nearest).
      const slider = frame.locator('input[type="range"][aria-label*="m"]').first();
      const moved = await slider.evaluate((s) => {
        s.value = "2.5";
        s.dispatchEvent(new Event("input", { bubbles: true }));
        s.dispatchEvent(new Event("change", { bubbles: true }));
        return Number(s.value);
      });
      assert.ok(Math.abs(moved - 2.5) < 0.02, `the slider moved to ${moved}`);
      await frame.waitForFunction((m) => window.nhlabTest.text().includes(`m = { value = ${m},`), moved, { timeout: 30000 });
      // The next cell reads it in Python (run again while the value is on its way).
      const expected = `m = ${moved} | the text says True`;
      let said = "";
      for (let attempt = 0; attempt < 20 && !said.includes(expected); attempt++) {
        await page.waitForTimeout(250);
        await runCell(page, 1);
        await page.waitForFunction(() => document.querySelectorAll(".jp-Cell")[1].querySelector(".jp-OutputArea-output")?.textContent, null, { timeout: 30000 });
        await page.waitForTimeout(200);
        said = await page.locator(".jp-Cell").nth(1).locator(".jp-OutputArea-output").textContent();
      }
      assert.ok(said.includes(expected), `the next cell says "${said}", not "${expected}" (the server said: ${server.log().slice(-2000)})`);
      // And Python's value reaches the lab.
      await runCell(page, 2);
      await frame.waitForFunction(() => /a = \{ value = -0\.25,/.test(window.nhlabTest.text()), null, { timeout: 30000 });
      await page.screenshot({ path: path.join(SHOTS, `jupyter-${app}.png`) });
      console.log(`${name}: from running the cell to the lab's first drawn scene ${firstFrameMs} ms`);
      assert.deepEqual(problems, []);
    } catch (e) {
      await page.screenshot({ path: path.join(SHOTS, `jupyter-${app}-failed.png`) }).catch(() => {});
      throw e;
    } finally {
      await context.close();
    }
  });
}
