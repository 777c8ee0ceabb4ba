// nhlab web lab: the page's entry. The page's code is the ES modules of www/app/
// (main.js first: it says what each module does), bundled by esbuild into lab.js by
// Trunk.toml's build hook. channel.js, worker.js and lab.js are copied as they are
// (trunk hashes only this file and the wasm glue): the glue's hashed name versions
// them, so a cached copy never meets a newer module.
const VERSION = new URL(document.querySelector('link[rel="modulepreload"]')?.href ?? "x:/none").pathname.split("/").pop();
const lab = `./lab.js?v=${encodeURIComponent(VERSION)}`;
await import(lab);
