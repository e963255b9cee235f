--[[
post: store messages and index them, in one atomic step.

KEYS[1..6]  queue index keys (see index.lua)
KEYS[7]     <project>.<queue>.rank_counter   string, next rank
KEYS[8]     zaqar_delay.pushes               zset due time -> push
KEYS[9..]   one message hash key (the message id) per message

ARGV[1]     now (unix seconds)
ARGV[2]     push suffix: '.<queue>.<project>' when delayed messages are
            to be pushed to subscribers when due, else ''
ARGV[3..]   five per message: ttl, delay (seconds), client uuid,
            body (msgpack), checksum ('' for none)

A message whose hash already exists is left as it is, so that a retry
of a post whose reply was lost (same ids) changes nothing.
Returns the rank of the first message.
--]]
--- @include "index"
local now = tonumber(ARGV[1])
local push_suffix = ARGV[2]

local rank_counter, pushes = KEYS[7], KEYS[8]
local rank = tonumber(redis.call('GET', rank_counter) or 1)
local first_rank = rank

for i = 9, #KEYS do
    local mid = KEYS[i]
    local base = 2 + (i - 9) * 5
    if redis.call('EXISTS', mid) == 0 then
        local ttl = tonumber(ARGV[base + 1])
        local due_at = now + tonumber(ARGV[base + 2])

        redis.call('HSET', mid,
                   'id', mid, 't', ttl, 'cr', now, 'e', now + ttl,
                   'u', ARGV[base + 3], 'c', '', 'c.e', now,
                   'c.c', 0, 'd', due_at, 'b', ARGV[base + 4])
        if ARGV[base + 5] ~= '' then
            redis.call('HSET', mid, 'cs', ARGV[base + 5])
        end
        redis.call('EXPIRE', mid, ttl)

        redis.call('ZADD', messages, rank, mid)
        if due_at > now then
            redis.call('ZADD', waiting, rank, mid)
            redis.call('ZADD', due, due_at, mid)
            if push_suffix ~= '' then
                redis.call('ZADD', pushes, due_at, mid .. push_suffix)
            end
        else
            redis.call('ZADD', ready, rank, mid)
        end
        rank = rank + 1
    end
end

redis.call('SET', rank_counter, rank)
return first_rank
