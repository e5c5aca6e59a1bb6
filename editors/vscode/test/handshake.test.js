// The packaged extension's server command answers the LSP initialize handshake.
//
// Reads the defaults of `cal.server.path` and `cal.server.args` from the package.json inside
// the built .vsix (what an installed extension runs), starts that command with the
// workspace's freshly built `cal` first on PATH (CAL_BIN_DIR, default ../../target/debug),
// sends `initialize`, checks the answer, then `shutdown` and `exit`.
"use strict";
const test = require("node:test");
const assert = require("node:assert");
const path = require("node:path");
const { spawn, execFileSync } = require("node:child_process");

const root = path.join(__dirname, "..");
const vsix = path.join(root, "cal-language.vsix");

function packagedManifest() {
  // A .vsix is a zip; Python's zipfile reads it on every machine we build on.
  const script = "import sys, zipfile; sys.stdout.write(zipfile.ZipFile(sys.argv[1]).read('extension/package.json').decode())";
  return JSON.parse(execFileSync("python3", ["-c", script, vsix], { encoding: "utf8" }));
}

function frame(message) {
  const body = Buffer.from(JSON.stringify(message), "utf8");
  return Buffer.concat([Buffer.from(`Content-Length: ${body.length}\r\n\r\n`, "ascii"), body]);
}

/** Collects framed messages from a stream; resolves `next(id)` with the response of that id. */
function reader(stream) {
  let buffer = Buffer.alloc(0);
  const waiting = new Map();
  const received = new Map();
  stream.on("data", (chunk) => {
    buffer = Buffer.concat([buffer, chunk]);
    for (;;) {
      const end = buffer.indexOf("\r\n\r\n");
      if (end < 0) return;
      const length = Number(/Content-Length: (\d+)/i.exec(buffer.subarray(0, end).toString("ascii"))[1]);
      if (buffer.length < end + 4 + length) return;
      const message = JSON.parse(buffer.subarray(end + 4, end + 4 + length).toString("utf8"));
      buffer = buffer.subarray(end + 4 + length);
      if (message.id !== undefined && waiting.has(message.id)) {
        waiting.get(message.id)(message);
        waiting.delete(message.id);
      } else if (message.id !== undefined) {
        received.set(message.id, message);
      }
    }
  });
  return (id) =>
    received.has(id) ? Promise.resolve(received.get(id)) : new Promise((resolve) => waiting.set(id, resolve));
}

test("the packaged server command answers initialize", async () => {
  const manifest = packagedManifest();
  const props = manifest.contributes.configuration.properties;
  const command = props["cal.server.path"].default;
  const args = props["cal.server.args"].default;
  assert.strictEqual(manifest.main, "./dist/extension.js", "the package runs the bundle");
  assert.deepStrictEqual([command, ...args], ["cal", "lsp"]);

  const binDir = path.resolve(process.env.CAL_BIN_DIR || path.join(root, "..", "..", "target", "debug"));
  const env = { ...process.env, PATH: `${binDir}${path.delimiter}${process.env.PATH}` };
  const server = spawn(command, args, { env, stdio: ["pipe", "pipe", "inherit"] });
  const exited = new Promise((resolve) => server.on("exit", (code) => resolve(code)));
  const next = reader(server.stdout);

  server.stdin.write(frame({ jsonrpc: "2.0", id: 1, method: "initialize", params: { processId: process.pid, rootUri: null, capabilities: {} } }));
  const init = await next(1);
  assert.ok(init.result, JSON.stringify(init));
  const caps = init.result.capabilities;
  assert.ok(caps.textDocumentSync, "document sync");
  assert.ok(caps.completionProvider, "completion");
  assert.ok(caps.hoverProvider, "hover");
  assert.strictEqual(init.result.serverInfo.name.length > 0, true);

  server.stdin.write(frame({ jsonrpc: "2.0", method: "initialized", params: {} }));
  server.stdin.write(frame({ jsonrpc: "2.0", id: 2, method: "shutdown", params: null }));
  const down = await next(2);
  assert.strictEqual(down.result, null, JSON.stringify(down));
  server.stdin.write(frame({ jsonrpc: "2.0", method: "exit", params: null }));
  assert.strictEqual(await exited, 0);
});
