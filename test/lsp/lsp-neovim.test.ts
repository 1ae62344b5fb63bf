// `speky lsp` in the real Neovim (Debian's 0.7.2; .ci/run installs it): `nvim --headless` with
// an init.lua made of the README's "Neovim 0.7 to 0.9" snippet, as written, and a driver that
// opens a tagged file of a project whose node_modules holds speky-ts, as `npm install
// --save-dev` lays it out. The driver asks through Neovim's own client (vim.lsp) at once, as a
// user opening a file does, and writes what Neovim got to a JSON file that the test reads.
// HOME and the XDG folders point into the temp dir: the user's own configuration is never read.
import { spawn, spawnSync } from "node:child_process";
import { mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { copyFixture, REPO, tempDir } from "../support/process.js";

const NVIM = spawnSync("nvim", ["--version"], { encoding: "utf8" });
const VERSION = NVIM.status === 0 ? /NVIM v(\S+)/.exec(NVIM.stdout)?.[1] : undefined;
const SKIPPED = "nvim is not on PATH (.ci/run installs Debian's neovim)";

/** The README's Lua block under "Neovim 0.7 to 0.9". */
function readmeSnippet(): string {
  const readme = readFileSync(path.join(REPO, "README.md"), "utf8");
  const at = readme.indexOf("**Neovim 0.7 to 0.9**");
  const block = /```lua\n([\s\S]*?)```/.exec(readme.slice(at));
  if (at < 0 || !block) throw new Error("README.md has no Lua block under **Neovim 0.7 to 0.9**");
  return block[1];
}

const DRIVER = `
-- The test's driver: every answer as Neovim's client got it, into $SPEKY_NVIM_OUT.
local out = { progress = {} }
local function finish(err)
  out.error = err
  local f = assert(io.open(os.getenv("SPEKY_NVIM_OUT"), "w"))
  f:write(vim.fn.json_encode(out))
  f:close()
  vim.cmd("qa!")
end

vim.api.nvim_create_autocmd("User", {
  pattern = "LspProgressUpdate",
  callback = function()
    for _, m in ipairs(vim.lsp.util.get_progress_messages()) do
      table.insert(out.progress, { title = m.title, message = m.message or "", percentage = m.percentage or -1, done = m.done or false })
    end
  end,
})

-- What a hover window shows: its lines as the screen has them, concealed characters left out.
local function shown(contents)
  local lines = vim.lsp.util.trim_empty_lines(vim.lsp.util.convert_input_to_markdown_lines(contents))
  local buf, win = vim.lsp.util.open_floating_preview(lines, "markdown", {})
  local texts = {}
  vim.api.nvim_win_call(win, function()
    for lnum = 1, vim.api.nvim_buf_line_count(buf) do
      local line = vim.api.nvim_buf_get_lines(buf, lnum - 1, lnum, false)[1]
      local text = {}
      for col = 1, #line do
        local c = vim.fn.synconcealed(lnum, col)
        if c[1] == 0 then table.insert(text, line:sub(col, col)) elseif c[2] ~= "" then table.insert(text, c[2]) end
      end
      table.insert(texts, table.concat(text))
    end
  end)
  vim.api.nvim_win_close(win, true)
  return texts
end

local function request(method, params)
  local results, err = vim.lsp.buf_request_sync(0, method, params, 30000)
  if not results then error(method .. ": " .. tostring(err)) end
  for _, r in pairs(results) do
    if r.err then error(method .. ": " .. vim.inspect(r.err)) end
    return r.result
  end
end

local function at(line, character)
  return { textDocument = vim.lsp.util.make_text_document_params(), position = { line = line, character = character } }
end

local function run()
  local root = os.getenv("SPEKY_NVIM_PROJECT")
  vim.cmd("edit " .. vim.fn.fnameescape(root .. "/src/cart.ts"))
  out.filetype = vim.bo.filetype
  -- Active once initialized; then ask at once, as a user does (the load runs in the background).
  if not vim.wait(30000, function() return #vim.lsp.get_active_clients() > 0 end, 10) then
    return finish("no client started")
  end
  out.client = vim.lsp.get_active_clients()[1].name
  local hover = request("textDocument/hover", at(2, 12))
  out.hover = hover.contents.value
  out.hover_shown = shown(hover.contents)
  local definition = request("textDocument/definition", at(2, 18))
  if definition[1] then definition = definition[1] end
  out.definition = { uri = definition.uri, line = definition.range.start.line, character = definition.range.start.character }
  -- Unsaved edits: a dangling tag, then a tag being typed.
  vim.api.nvim_buf_set_lines(0, 2, 3, false, { "// speky:shop#REQ-CARTT" })
  if not vim.wait(30000, function() return #vim.diagnostic.get(0) > 0 end, 10) then
    return finish("no diagnostics")
  end
  out.diagnostics = {}
  for _, d in ipairs(vim.diagnostic.get(0)) do
    table.insert(out.diagnostics, { lnum = d.lnum, col = d.col, severity = d.severity, message = d.message })
  end
  out.modified = vim.bo.modified
  vim.api.nvim_buf_set_lines(0, -1, -1, false, { "// speky:shop#REQ-" })
  local last = vim.api.nvim_buf_line_count(0) - 1
  local completion = request("textDocument/completion", at(last, #"// speky:shop#REQ-"))
  out.completion = {}
  for _, item in ipairs(completion.items or completion) do table.insert(out.completion, item.label) end
  -- Spec text with Markdown and a URL in it, in a new buffer of the same project.
  vim.cmd("edit " .. vim.fn.fnameescape(root .. "/src/alt.ts"))
  vim.api.nvim_buf_set_lines(0, 0, -1, false, { "// speky:alt#ALT-1" })
  out.hostile_shown = shown(request("textDocument/hover", at(0, 14)).contents)
  -- The load's progress ends once the scan is done, which the hover waited for.
  vim.wait(30000, function()
    for _, p in ipairs(out.progress) do if p.done then return true end end
    return false
  end, 10)
  finish(nil)
end

vim.api.nvim_create_autocmd("VimEnter", {
  callback = function()
    vim.schedule(function()
      local ok, err = pcall(run)
      if not ok then finish(tostring(err)) end
    end)
  end,
})
`;

interface NeovimGot {
  error?: string;
  filetype: string;
  client: string;
  hover: string;
  hover_shown: string[];
  definition: { uri: string; line: number; character: number };
  diagnostics: { lnum: number; col: number; severity: number; message: string }[];
  modified: boolean | number;
  completion: string[];
  hostile_shown: string[];
  progress: { title: string; message: string; percentage: number; done: boolean }[];
}

/** A project using speky-ts as a devDependency: fixtures/lsp plus node_modules as npm lays it out. */
function project(): string {
  const dir = copyFixture("lsp");
  writeFileSync(path.join(dir, "package.json"), '{ "name": "shop", "private": true, "devDependencies": { "speky-ts": "*" } }\n');
  mkdirSync(path.join(dir, "node_modules/.bin"), { recursive: true });
  symlinkSync(REPO, path.join(dir, "node_modules/speky-ts"));
  symlinkSync("../speky-ts/bin/speky.js", path.join(dir, "node_modules/.bin/speky"));
  return dir;
}

function runNeovim(projectDir: string): Promise<{ got: NeovimGot; stderr: string }> {
  const home = tempDir("speky-nvim-home-");
  const init = path.join(home, "init.lua");
  const out = path.join(home, "out.json");
  writeFileSync(init, `${readmeSnippet()}\n${DRIVER}`);
  const env = {
    ...process.env,
    HOME: home,
    XDG_CONFIG_HOME: path.join(home, "config"),
    XDG_DATA_HOME: path.join(home, "data"),
    XDG_STATE_HOME: path.join(home, "state"),
    XDG_CACHE_HOME: path.join(home, "cache"),
    SPEKY_CACHE_DIR: path.join(home, "speky-cache"),
    SPEKY_NVIM_OUT: out,
    SPEKY_NVIM_PROJECT: projectDir,
    // The shebang of node_modules/.bin/speky finds this node.
    PATH: `${path.dirname(process.execPath)}${path.delimiter}${process.env.PATH ?? ""}`,
  };
  return new Promise((resolve, reject) => {
    const child = spawn("nvim", ["--headless", "-i", "NONE", "-u", init], { cwd: home, env, stdio: ["ignore", "ignore", "pipe"] });
    let stderr = "";
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
    child.on("error", reject);
    child.on("exit", () => {
      try {
        resolve({ got: JSON.parse(readFileSync(out, "utf8")) as NeovimGot, stderr });
      } catch (error) {
        reject(new Error(`Neovim wrote no results (${String(error)}); stderr: ${stderr}`));
      } finally {
        rmSync(home, { recursive: true, force: true });
      }
    });
  });
}

describe(`speky lsp in the real Neovim ${VERSION ?? `(skipped: ${SKIPPED})`}`, () => {
  // speky:speky-ts#TEST-LSP-NEOVIM
  it("serves the README's Neovim 0.7-0.9 setup: hover, definition, diagnostics of an unsaved buffer, completion, progress", {
    timeout: 90_000,
  }, async (context) => {
    if (VERSION === undefined) {
      console.warn(`skipped: ${SKIPPED}`);
      context.skip(SKIPPED);
    }
    const dir = project();
    const original = readFileSync(path.join(dir, "src/cart.ts"), "utf8");
    const { got, stderr } = await runNeovim(dir);
    expect({ error: got.error ?? null, stderr }).toEqual({ error: null, stderr: "" });
    expect([got.filetype, got.client]).toEqual(["typescript", "speky"]);
    // Asked as soon as the client was up: the hover waited for the load and the scan.
    expect(got.hover.split("\n")[0]).toBe("**REQ-CART** — Add items to the cart");
    expect(got.hover).toMatch(/Code references: 1$/);
    // What the hover window shows: the escapes concealed, the text as written in the spec.
    expect(got.hover_shown).toEqual([
      "REQ-CART — Add items to the cart",
      "",
      "requirement · category functional",
      "",
      "The shopper adds an item to the cart and sees the new total.",
      "",
      "Tags: cart, ui",
      "",
      "Tests: 1 test (1 automated): TST-CART (automated)",
      "",
      "Coverage: every test automated",
      "",
      "Code references: 1",
    ]);
    expect(got.definition).toEqual({ uri: `file://${path.join(dir, "specs/requirements.yaml")}`, line: 3, character: 8 });
    expect(got.diagnostics).toEqual([
      {
        lnum: 2,
        col: 3,
        severity: 1,
        message: "tag speky:shop#REQ-CARTT names an unknown ID 'REQ-CARTT'; did you mean REQ-CART?",
      },
    ]);
    expect(Boolean(got.modified)).toBe(true);
    expect(readFileSync(path.join(dir, "src/cart.ts"), "utf8")).toBe(original);
    expect(got.completion).toEqual(["REQ-CART", "REQ-PAY", "REQ-SHIP"]);
    // Markup and a URL in spec text: shown as the text it is (Neovim 0.7 links nothing; the
    // escapes that keep other clients from rendering or linking it are concealed).
    expect(got.hostile_shown[4]).toBe(
      "Loaded only when alt.yaml is a top-level manifest. ![pixel](https://example.invalid/p.png) <img src=x onerror=alert(1)> [link](command:x)",
    );
    const done = got.progress.filter((p) => p.done);
    expect(done.at(-1)).toEqual({ title: "speky", message: "5 requirements, 2 tests, 3 code references", percentage: 100, done: true });
  });
});
