--[[
renew: extend a live claim and every message it still holds.

KEYS[1..6]  queue index keys (see index.lua)
KEYS[7]     <project>.<queue>.claims    zset claim expiry -> claim id
KEYS[8]     <claim id>                  hash: id, t, e, n
KEYS[9]     messages.<claim id>         list of claimed message ids

ARGV[1] now     ARGV[2] claim id     ARGV[3] claim ttl
ARGV[4] claim expiry   ARGV[5] message ttl   ARGV[6] message expiry

Returns 1, or 0 when the claim does not exist or has expired.
Work: O(claim size * log n).
--]]
--- @include "index"
local claims, claim_hash, claim_list = KEYS[7], KEYS[8], KEYS[9]
local now = tonumber(ARGV[1])
local claim_id = ARGV[2]
local claim_ttl = tonumber(ARGV[3])
local claim_expires = tonumber(ARGV[4])
local msg_ttl = tonumber(ARGV[5])
local msg_expires = tonumber(ARGV[6])

local expires = tonumber(redis.call('HGET', claim_hash, 'e'))
if not expires or expires <= now then
    return 0
end

for _, mid in ipairs(redis.call('LRANGE', claim_list, 0, -1)) do
    local held = redis.call('HMGET', mid, 'c', 'e')
    if held[1] == claim_id and redis.call('ZSCORE', claim_expiry, mid) then
        redis.call('HSET', mid, 'c.e', claim_expires)
        if tonumber(held[2]) < msg_expires then
            redis.call('HSET', mid, 't', msg_ttl, 'e', msg_expires)
            redis.call('EXPIRE', mid, msg_ttl)
        end
        redis.call('ZADD', claim_expiry, claim_expires, mid)
    end
end

redis.call('HSET', claim_hash, 't', claim_ttl, 'e', claim_expires)
redis.call('EXPIRE', claim_hash, claim_ttl)
redis.call('EXPIRE', claim_list, claim_ttl)
redis.call('ZADD', claims, claim_expires, claim_id)
return 1
