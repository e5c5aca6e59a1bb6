-- CAL in Neovim 0.7 and later: filetype, comments and the `cal lsp` language server.
-- Put it in ~/.config/nvim/plugin/cal.lua (or paste it into init.lua).
local function start_cal(buf)
  vim.bo[buf].commentstring = "-- %s"
  local git = vim.fn.finddir(".git", vim.fn.fnamemodify(vim.api.nvim_buf_get_name(buf), ":p:h") .. ";")
  local config = {
    name = "cal",
    cmd = { "cal", "lsp" },
    root_dir = git ~= "" and vim.fn.fnamemodify(git, ":p:h:h") or vim.fn.getcwd(),
  }
  if vim.lsp.start then -- 0.8 and later: starts the server once per root, attaches the buffer
    vim.lsp.start(config, { bufnr = buf })
  else -- 0.7 (Debian 12)
    vim.g.cal_lsp_client = vim.g.cal_lsp_client or vim.lsp.start_client(config)
    vim.lsp.buf_attach_client(buf, vim.g.cal_lsp_client)
  end
end

vim.api.nvim_create_autocmd({ "BufRead", "BufNewFile" }, {
  pattern = "*.cal",
  callback = function(args) vim.bo[args.buf].filetype = "cal" end,
})
vim.api.nvim_create_autocmd("FileType", {
  pattern = "cal",
  callback = function(args) start_cal(args.buf) end,
})
