-- wrk script for the catalog load test. Arguments (after --):
--   1: path template, where {id} {page} {word} are replaced per request
--   2: largest id / last page for {id} and {page}
--   3: file with one search word per line (for {word}), optional
local template, maxn, words = "/", 1, {}

function init(args)
  template = args[1] or "/"
  maxn = tonumber(args[2] or "1")
  if args[3] and args[3] ~= "" then
    for line in io.lines(args[3]) do
      if #line > 0 then words[#words + 1] = line end
    end
  end
  math.randomseed(os.time() + tonumber(tostring({}):sub(8), 16) % 1000)
end

local function urlencode(s)
  return (s:gsub("[^%w%-_%.~]", function(c) return string.format("%%%02X", string.byte(c)) end))
end

request = function()
  local path = template
  path = path:gsub("{id}", function() return tostring(math.random(1, maxn)) end)
  path = path:gsub("{page}", function() return tostring(math.random(1, maxn)) end)
  if #words > 0 then
    path = path:gsub("{word}", function() return urlencode(words[math.random(1, #words)]) end)
  end
  return wrk.format("GET", path, { ["Accept-Encoding"] = "gzip" })
end
