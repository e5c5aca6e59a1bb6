// The CAL extension: starts `cal lsp` on stdio for .cal files. Bundled with esbuild into
// dist/extension.js (`npm run bundle`, run by `vsce package`).
"use strict";
const vscode = require("vscode");
const { LanguageClient } = require("vscode-languageclient/node");

let client;

function activate(context) {
  // The defaults live in package.json (`cal.server.path`, `cal.server.args`): the packaging
  // test starts exactly that command.
  const config = vscode.workspace.getConfiguration("cal");
  const server = { command: config.get("server.path"), args: config.get("server.args") };
  client = new LanguageClient(
    "cal",
    "CAL language server",
    { run: server, debug: server },
    { documentSelector: [{ language: "cal" }] }
  );
  context.subscriptions.push(client);
  return client.start();
}

function deactivate() {
  return client ? client.stop() : undefined;
}

module.exports = { activate, deactivate };
