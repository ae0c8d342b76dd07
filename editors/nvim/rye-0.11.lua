-- The Rye language server (rye-build lsp) for Neovim 0.11 and later, through vim.lsp.config and
-- vim.lsp.enable. Copy this file to ~/.config/nvim/plugin/rye.lua (for 0.7 to 0.10: rye.lua).
--
-- It runs only the project's own install (node_modules/.bin/rye-build, in the project folder or a
-- folder above it), never `npx rye`: with no local install, npx fetches and runs whatever npm
-- package is called `rye`. Without an install it says how to make one, and starts nothing.

-- The project's rye-build, in the project folder or the nearest folder above holding one, or nil.
local function server_of(root)
  local dir = root
  while dir do
    local bin = dir .. "/node_modules/.bin/rye-build"
    if vim.fn.executable(bin) == 1 then return bin end
    local parent = vim.fs.dirname(dir)
    dir = parent ~= dir and parent or nil
  end
end

local warned = {}

vim.lsp.config("rye", {
  -- A function, so the command is the one of the buffer's own project.
  cmd = function(dispatchers, config)
    -- 0.11.0 and 0.11.1 pass no config; the buffer being attached is the current one then.
    local root = config and config.root_dir or vim.fs.root(0, ".ai")
    return vim.lsp.rpc.start({ server_of(root), "lsp", "--stdio" }, dispatchers, { cwd = root })
  end,
  filetypes = { "markdown", "yaml" },
  root_dir = function(bufnr, on_dir)
    local file = vim.api.nvim_buf_get_name(bufnr)
    -- Directives, knowledge and tool YAMLs live under .ai/; other markdown and YAML are not ours.
    if not file:find("/%.ai/") then return end
    local root = vim.fs.root(bufnr, ".ai")
    if not root then return end
    if server_of(root) then return on_dir(root) end
    if not warned[root] then
      warned[root] = true
      vim.notify("rye: no rye-build in " .. root .. "/node_modules. Install it in the project: "
        .. "npm install --save-dev rye-build (or from a tarball or git URL)", vim.log.levels.WARN)
    end
  end,
})
vim.lsp.enable("rye")
