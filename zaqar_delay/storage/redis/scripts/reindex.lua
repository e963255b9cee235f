--[[
reindex: put one batch of a queue's messages in the index set of their
state, as their hashes say; used to switch a store from ``redis``.

KEYS[1..6]  queue index keys (see index.lua)

ARGV[1] now     ARGV[2] after rank (exclusive; 0 = from the start)
ARGV[3] batch   ARGV[4] '1' to write, '0' to only count (dry run)

State of a message, from its hash: claimed when ``c`` is set and
``c.e`` > now, waiting when its due time (``dm``, else ``d``) > now,
ready otherwise; gone when the hash no longer exists (left for Zaqar's
garbage collection).
Returns {last rank or '', ready, waiting, claimed, gone}.
Work: O(batch log n).
--]]
--- @include "index"
local now = tonumber(ARGV[1])
local batch = tonumber(ARGV[3])
local write = ARGV[4] == '1'

local page = redis.call('ZRANGEBYSCORE', messages, '(' .. ARGV[2], '+inf',
                        'WITHSCORES', 'LIMIT', 0, batch)
local counts = {0, 0, 0, 0}
local last = ''

for i = 1, #page, 2 do
    local mid, rank = page[i], page[i + 1]
    last = rank
    local f = redis.call('HMGET', mid, 'c', 'c.e', 'd', 'e', 'dm')
    local due_at = due_of(f[3], f[5])
    local state, sets
    if not f[4] then
        state, sets = 4, {}
    elseif f[1] and f[1] ~= '' and tonumber(f[2]) > now then
        state, sets = 3, {{claimed, rank}, {claim_expiry, f[2]}}
    elseif due_at and due_at > now then
        state, sets = 2, {}
    else
        state, sets = 1, {}
    end
    counts[state] = counts[state] + 1
    if write then
        unindex_own(rank, mid)
        for _, entry in ipairs(sets) do
            redis.call('ZADD', entry[1], entry[2], mid)
        end
        if state == 1 then
            make_ready(rank)
        elseif state == 2 then
            wait_until(rank, due_at)
        end
    end
end

return {last, counts[1], counts[2], counts[3], counts[4]}
