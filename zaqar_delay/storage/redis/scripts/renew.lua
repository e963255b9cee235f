--[[
renew: extend a live claim and every message it still holds.

KEYS[1..6]  queue index keys (see index.lua)
KEYS[7..9]  the claim's keys (see claim_terms.lua)

ARGV[1..6]  the claim's terms (see claim_terms.lua)

Returns 1, or 0 when the claim does not exist or has expired.
Work: O(claim size * log n).
--]]
--- @include "index"
--- @include "claim_terms"

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

redis.call('HSET', claim_hash, 't', claim_ttl, 'e', claim_expires,
           'cm', string.format('%d', ms(now)))
redis.call('EXPIRE', claim_hash, claim_ttl)
redis.call('EXPIRE', claim_list, claim_ttl)
redis.call('ZADD', claims, claim_expires, claim_id)
return 1
