-- Loaded by `nvim --headless -u nvim-stub-011.lua <file>` where Neovim is older than 0.11: stands in
-- for vim.lsp.config/enable, vim.fs and vim.lsp.rpc.start, loads editors/nvim/rye-0.11.lua, and
-- writes to RYE_NVIM_OUT what it would start for the opened buffer (root, command, cwd) or what it
-- said instead. The test then starts that exact command.
local out = { notes = {} }
vim.notify = function(msg) table.insert(out.notes, msg) end
local config
vim.lsp.config = function(name, c) out.name = name; config = c end
vim.lsp.enable = function(name) out.enabled = name end
vim.fs = vim.fs or {}
vim.fs.dirname = vim.fs.dirname or function(p) return vim.fn.fnamemodify(p, ":h") end
vim.fs.root = function(source, marker)
  local path = type(source) == "number" and vim.api.nvim_buf_get_name(source == 0 and vim.api.nvim_get_current_buf() or source) or source
  local dir = vim.fn.fnamemodify(path, ":p:h")
  while true do
    if vim.loop.fs_stat(dir .. "/" .. marker) then return dir end
    local parent = vim.fn.fnamemodify(dir, ":h")
    if parent == dir then return nil end
    dir = parent
  end
end
vim.lsp.rpc = vim.lsp.rpc or {}
vim.lsp.rpc.start = function(cmd, _, extra) out.cmd = cmd; out.cwd = extra and extra.cwd; return {} end

dofile(os.getenv("RYE_NVIM_CONFIG"))
out.filetypes = config.filetypes
config.root_dir(vim.api.nvim_get_current_buf(), function(root) out.root = root end)
if out.root then
  config.cmd({}, { root_dir = out.root })      -- 0.11.2 and later pass the resolved config
  out.cmd_with_config = out.cmd
  config.cmd({}, nil)                           -- 0.11.0 and 0.11.1 do not
end
local f = io.open(os.getenv("RYE_NVIM_OUT"), "w")
f:write(vim.fn.json_encode(out))
f:close()
vim.cmd("qa!")
