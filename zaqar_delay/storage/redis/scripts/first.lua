--[[
first: the oldest (or newest) message of a queue whose record still
exists, dropping from the index those found gone on the way.

KEYS[1..6]  queue index keys (see index.lua)
KEYS[7]     the queue's history stream (see history.lua)

ARGV[1] now     ARGV[2] '1': the oldest; '-1': the newest
ARGV[3] batch (work bound: ids examined at most)

A message whose hash is gone (its ttl ended in redis) leaves every set
of the index, its waiting entry too, and is recorded as expired while
the queue's history stream lives, as a claim that meets it does.
Returns the message id, or false when the first `batch` ids are all
gone (or there are none). Work: O(batch log n).
--]]
--- @include "index"
--- @include "history"
local history = KEYS[7]
local now = tonumber(ARGV[1])
local batch = tonumber(ARGV[3])
local found
if ARGV[2] == '1' then
    found = redis.call('ZRANGE', messages, 0, batch - 1, 'WITHSCORES')
else
    found = redis.call('ZREVRANGE', messages, 0, batch - 1, 'WITHSCORES')
end
for i = 1, #found, 2 do
    local mid, rank = found[i], found[i + 1]
    if redis.call('EXISTS', mid) == 1 then
        return mid
    end
    unwait(rank)
    unready(rank, mid)
    for _, set in ipairs(index_sets) do
        redis.call('ZREM', set, mid)
    end
    record_gone(history, now, mid)
end
return false
