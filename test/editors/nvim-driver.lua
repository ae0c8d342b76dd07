-- Loaded by `nvim --headless -u nvim-driver.lua <file>` in the Neovim tests: loads the editor
-- config under test (RYE_NVIM_CONFIG), waits until diagnostics arrive or RYE_WAIT_MS pass, writes
-- what Neovim saw to RYE_NVIM_OUT as JSON, and quits.
local notes = {}
vim.notify = function(msg) table.insert(notes, msg) end
dofile(os.getenv("RYE_NVIM_CONFIG"))

local function finish(status)
  local diagnostics = {}
  for _, d in ipairs(vim.diagnostic.get()) do
    local lsp = d.user_data and d.user_data.lsp or {}
    table.insert(diagnostics, { code = d.code or lsp.code, message = d.message, source = d.source })
  end
  local clients = {}
  for _, c in pairs(vim.lsp.get_active_clients()) do
    table.insert(clients, { name = c.name, cmd = c.config.cmd, root = c.config.root_dir,
      attached = vim.lsp.buf_is_attached(0, c.id) })
  end
  local f = io.open(os.getenv("RYE_NVIM_OUT"), "w")
  f:write(vim.fn.json_encode({ status = status, diagnostics = diagnostics, clients = clients, notes = notes,
    filetype = vim.bo.filetype }))
  f:close()
  vim.cmd("qa!")
end

local started = vim.loop.now()
local timer = vim.loop.new_timer()
timer:start(100, 100, vim.schedule_wrap(function()
  if #vim.diagnostic.get() > 0 then
    timer:stop()
    finish("diagnostics")
  elseif vim.loop.now() - started > tonumber(os.getenv("RYE_WAIT_MS")) then
    timer:stop()
    finish("timeout")
  end
end))
