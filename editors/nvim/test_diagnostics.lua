-- Headless check of the config (cli/tests/editors.rs runs it): waits for the diagnostics of
-- the file opened, writes one line per diagnostic to $CAL_NVIM_OUT — code, then the range
-- as start line:col-end line:col (0-based, as the protocol counts) — and quits.
local out = assert(io.open(os.getenv("CAL_NVIM_OUT"), "w"))
local got = vim.wait(60000, function() return #vim.diagnostic.get(0) > 0 end, 100)
if not got then
  out:write("no diagnostics\n")
end
for _, d in ipairs(vim.diagnostic.get(0)) do
  local code = d.code or (d.user_data and d.user_data.lsp and d.user_data.lsp.code)
  out:write(string.format("%s %d:%d-%d:%d %s\n", tostring(code), d.lnum, d.col, d.end_lnum, d.end_col, d.message:gsub("\n", " ")))
end
out:close()
vim.cmd("qall!")
