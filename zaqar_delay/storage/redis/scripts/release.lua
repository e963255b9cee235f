--[[
release: delete a claim and make the messages it still holds ready.

KEYS[1..6]  queue index keys (see promote.lua)
KEYS[7]     <project>.<queue>.claims    zset claim expiry -> claim id
KEYS[8]     <claim id>                  hash: id, t, e, n
KEYS[9]     messages.<claim id>         list of claimed message ids

ARGV[1] now     ARGV[2] claim id

Returns the number of messages released. Work: O(claim size * log n).
--]]
local now = tonumber(ARGV[1])
local claim_id = ARGV[2]
local released = 0

for _, mid in ipairs(redis.call('LRANGE', KEYS[9], 0, -1)) do
    if redis.call('HGET', mid, 'c') == claim_id then
        redis.call('HSET', mid, 'c', '', 'c.e', now)
        local rank = redis.call('ZSCORE', KEYS[1], mid)
        redis.call('ZREM', KEYS[5], mid)
        redis.call('ZREM', KEYS[6], mid)
        if rank then
            redis.call('ZADD', KEYS[2], rank, mid)
            released = released + 1
        end
    end
end

redis.call('DEL', KEYS[8], KEYS[9])
redis.call('ZREM', KEYS[7], claim_id)
return released
