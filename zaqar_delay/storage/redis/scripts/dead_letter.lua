--[[
dead_letter: move one claimed message to its dead letter queue.

KEYS[1..6]   index keys of the source queue (see promote.lua)
KEYS[7..12]  index keys of the dead letter queue, same order
KEYS[13]     <project>.<dead letter queue>.rank_counter
KEYS[14]     the message hash key (its id)
KEYS[15]     <project>.<queue>.claims    zset claim expiry -> claim id
KEYS[16]     <claim id>                  hash: id, t, e, n
KEYS[17]     messages.<claim id>         list of claimed message ids

ARGV[1] now     ARGV[2] claim id     ARGV[3] new ttl ('' keeps the ttl)

The message leaves every set of the source queue and its claim, and
becomes ready in the dead letter queue with the next rank there.
Returns 1, or 0 when the message is gone or no longer held by the claim.
--]]
local now = tonumber(ARGV[1])
local claim_id = ARGV[2]
local mid = KEYS[14]

if redis.call('HGET', mid, 'c') ~= claim_id then
    return 0
end

for k = 1, 6 do
    redis.call('ZREM', KEYS[k], mid)
end
redis.call('HSET', mid, 'c', '', 'c.e', now)
if ARGV[3] ~= '' then
    local ttl = tonumber(ARGV[3])
    redis.call('HSET', mid, 't', ttl, 'e', now + ttl)
    redis.call('EXPIRE', mid, ttl)
end

local rank = tonumber(redis.call('GET', KEYS[13]) or 1)
redis.call('ZADD', KEYS[7], rank, mid)
redis.call('ZADD', KEYS[8], rank, mid)
redis.call('SET', KEYS[13], rank + 1)

redis.call('LREM', KEYS[17], 1, mid)
if redis.call('HINCRBY', KEYS[16], 'n', -1) <= 0 then
    redis.call('DEL', KEYS[16], KEYS[17])
    redis.call('ZREM', KEYS[15], claim_id)
end
return 1
