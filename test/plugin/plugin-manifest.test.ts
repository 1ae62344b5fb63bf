// The plugin's manifests agree with the package: the version of package.json, the launcher they
// name, and a language server covering every extension the scanner reads (grammars/languages.json)
// and the spec files'. No process: the real CLI's checks are in plugin-claude.test.ts.
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { REPO } from "../support/process.js";

const json = (rel: string) => JSON.parse(readFileSync(path.join(REPO, rel), "utf8"));
const plugin = json(".claude-plugin/plugin.json");
const marketplace = json(".claude-plugin/marketplace.json");
const languages = json("grammars/languages.json").languages as Record<string, { extensions: string[] }>;

// speky:speky-ts#TPLUGIN-MANIFEST
describe("the plugin's manifests", () => {
  it("carry the package's name, version and licence, and list the plugin from the repository's root", () => {
    const pkg = json("package.json");
    expect(plugin).toMatchObject({ name: pkg.name, version: pkg.version, license: pkg.license });
    expect(marketplace.name).toBe(pkg.name);
    expect(marketplace.plugins).toEqual([expect.objectContaining({ name: plugin.name, source: "./" })]);
  });

  it("start both servers and the session hook through the launcher, which exists", () => {
    const launcher = ["$", "{CLAUDE_PLUGIN_ROOT}/plugin/launch.mjs"].join("");
    expect(plugin.mcpServers).toEqual({ speky: { command: "node", args: [launcher, "mcp"] } });
    expect(plugin.lspServers.speky).toMatchObject({ command: "node", args: [launcher, "lsp"] });
    expect(plugin.hooks).toEqual({
      SessionStart: [{ hooks: [{ type: "command", command: `node "${launcher}" session-start`, timeout: 30 }] }],
    });
    expect(existsSync(path.join(REPO, "plugin/launch.mjs"))).toBe(true);
  });

  it("give the language server every extension the scanner reads, and the spec files'", () => {
    const expected = [".yaml", ".yml", ".toml", ...Object.values(languages).flatMap((l) => l.extensions)].sort();
    expect(Object.keys(plugin.lspServers.speky.extensionToLanguage).sort()).toEqual(expected);
  });
});
