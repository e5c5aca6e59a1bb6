// The CAL extension: starts `cal lsp` on stdio for .cal files.
"use strict";
const vscode = require("vscode");
const { LanguageClient } = require("vscode-languageclient/node");

let client;

function activate(context) {
  const command = vscode.workspace.getConfiguration("cal").get("server.path", "cal");
  const server = { command, args: ["lsp"] };
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
