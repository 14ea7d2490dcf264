-- wrk script for scripts/bench-http.sh: every request is a POST of one
-- file, with the headers the benchmark case asks for.
--
--   BENCH_BODY=FILE BENCH_CONTENT_TYPE=TYPE [BENCH_ACCEPT=TYPE] \
--     wrk -s scripts/bench/post.lua URL
--
-- FILE is read once, when wrk loads the script (in each of its threads).
local path = assert(os.getenv("BENCH_BODY"), "BENCH_BODY is not set")
local f = assert(io.open(path, "rb"))
wrk.method = "POST"
wrk.body = f:read("*a")
f:close()
wrk.headers["Content-Type"] = assert(os.getenv("BENCH_CONTENT_TYPE"), "BENCH_CONTENT_TYPE is not set")
local accept = os.getenv("BENCH_ACCEPT")
if accept and accept ~= "" then
	wrk.headers["Accept"] = accept
end
