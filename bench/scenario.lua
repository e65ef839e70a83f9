-- wrk script for the catalog load test. Arguments (after --):
--   1: path template, where {id} {page} {word} are replaced per request;
--      "POST /path" sends a POST without a body (the hit beacon)
--   2: largest id / last page for {id} and {page}
--   3: file with one search word per line (for {word}), optional
--   4: file of more terms (one- and two-character ones among them)
--      that {words} mixes in, optional
--   5: file of "word<TAB>last page" lines for {wordpage}, optional
-- {words} is one to three terms, each a word or (one time in three) a
-- term from file 4, joined by spaces: a varied search per request.
-- {wordpage} is "q=WORD&page=N": a word of file 5 and a page drawn up to
-- that word's own last page.
local template, maxn, words, short, paged = "/", 1, {}, {}, {}

function init(args)
  template = args[1] or "/"
  maxn = tonumber(args[2] or "1")
  if args[3] and args[3] ~= "" then
    for line in io.lines(args[3]) do
      if #line > 0 then words[#words + 1] = line end
    end
  end
  if args[4] and args[4] ~= "" then
    for line in io.lines(args[4]) do
      if #line > 0 then short[#short + 1] = line end
    end
  end
  if args[5] and args[5] ~= "" then
    for line in io.lines(args[5]) do
      local w, n = line:match("^(.-)\t(%d+)$")
      if w and tonumber(n) > 0 then paged[#paged + 1] = { w, tonumber(n) } end
    end
  end
  math.randomseed(os.time() + tonumber(tostring({}):sub(8), 16) % 1000)
end

local function urlencode(s)
  return (s:gsub("[^%w%-_%.~]", function(c) return string.format("%%%02X", string.byte(c)) end))
end

request = function()
  local method, path = "GET", template
  if path:sub(1, 5) == "POST " then method, path = "POST", path:sub(6) end
  path = path:gsub("{id}", function() return tostring(math.random(1, maxn)) end)
  path = path:gsub("{page}", function() return tostring(math.random(1, maxn)) end)
  if #words > 0 then
    path = path:gsub("{word}", function() return urlencode(words[math.random(1, #words)]) end)
    path = path:gsub("{words}", function()
      local terms = {}
      for i = 1, math.random(1, 3) do
        if #short > 0 and math.random(1, 3) == 1 then
          terms[i] = short[math.random(1, #short)]
        else
          terms[i] = words[math.random(1, #words)]
        end
      end
      return urlencode(table.concat(terms, " "))
    end)
  end
  if #paged > 0 then
    path = path:gsub("{wordpage}", function()
      local p = paged[math.random(1, #paged)]
      return "q=" .. urlencode(p[1]) .. "&page=" .. tostring(math.random(1, p[2]))
    end)
  end
  return wrk.format(method, path, { ["Accept-Encoding"] = "gzip" })
end
