-- The Rye language server (rye-build lsp) for Neovim 0.7 to 0.10; it works on 0.11 too, where
-- rye-0.11.lua does the same through vim.lsp.config. Copy this file to ~/.config/nvim/plugin/rye.lua
-- (or `dofile` it from init.lua).
--
-- It runs only the project's own install (node_modules/.bin/rye-build, in the project folder or a
-- folder above it, as Node finds packages), never `npx rye`: with no local install, npx fetches and
-- runs whatever npm package is called `rye`. Without an install it says how to make one, once.

local uv = vim.loop

-- The nearest folder at or above `dir` that holds `name`, or nil.
local function upward(dir, name, want_exec)
  while dir do
    local path = dir .. "/" .. name
    if (want_exec and vim.fn.executable(path) == 1) or (not want_exec and uv.fs_stat(path)) then
      return dir, path
    end
    local parent = vim.fn.fnamemodify(dir, ":h")
    if parent == dir then return nil end
    dir = parent
  end
end

local clients = {} -- project root -> client id (0.7 has no vim.lsp.start to reuse clients)
local warned = {}

local function attach(args)
  local file = vim.api.nvim_buf_get_name(args.buf)
  -- Directives, knowledge and tool YAMLs live under .ai/; other markdown and YAML are not ours.
  if not file:find("/%.ai/") then return end
  local root = upward(vim.fn.fnamemodify(file, ":p:h"), ".ai", false)
  if not root then return end
  local _, bin = upward(root, "node_modules/.bin/rye-build", true)
  if not bin then
    if not warned[root] then
      warned[root] = true
      vim.notify("rye: no rye-build in " .. root .. "/node_modules. Install it in the project: "
        .. "npm install --save-dev rye-build (or from a tarball or git URL)", vim.log.levels.WARN)
    end
    return
  end
  local config = {
    name = "rye",
    cmd = { bin, "lsp", "--stdio" },
    cmd_cwd = root,
    root_dir = root,
    workspace_folders = { { uri = vim.uri_from_fname(root), name = root } },
  }
  if vim.lsp.start then -- 0.8 and later: reuses the client of the same name and root
    vim.lsp.start(config)
    return
  end
  local id = clients[root]
  if not id or not vim.lsp.get_client_by_id(id) then
    id = vim.lsp.start_client(config)
    clients[root] = id
  end
  if id then vim.lsp.buf_attach_client(args.buf, id) end
end

vim.api.nvim_create_autocmd("FileType", {
  pattern = { "markdown", "yaml" },
  callback = attach,
  desc = "Start rye-build lsp for .ai/ items",
})
