--[[
renew: extend a live claim and every message it still holds.

KEYS[1..6]  queue index keys (see index.lua)
KEYS[7..9]  the claim's keys (see claim_terms.lua)
KEYS[10]    (not read: the queue's history stream)
KEYS[11]    upstream's set of the project's queues (queues_set)

ARGV[1..6]  the claim's terms (see claim_terms.lua)
ARGV[7]     the queue's member in KEYS[11], when the script checks that
            the queue exists ('' or none: the caller checked it)

Returns 1, or 0 when the queue or the claim does not exist or the claim
has expired (an expired claim then leaves KEYS[7]).
Work: O(claim size * log n).
--]]
--- @include "index"
--- @include "claim_terms"

local project_queues = KEYS[11]
local member = ARGV[7] or ''
if member ~= '' and not redis.call('ZSCORE', project_queues, member) then
    return 0
end
local expires = tonumber(redis.call('HGET', claim_hash, 'e'))
if not expires then
    return 0
elseif expires <= now then
    redis.call('ZREM', claims, claim_id)
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
