--[[
claim: claim up to `limit` ready messages, oldest rank first.

KEYS[1..6]  queue index keys (see promote.lua)
KEYS[7]     <project>.<queue>.claims    zset claim expiry -> claim id
KEYS[8]     <claim id>                  hash: id, t, e, n
KEYS[9]     messages.<claim id>         list of claimed message ids

ARGV[1] now          ARGV[2] limit          ARGV[3] claim id
ARGV[4] claim ttl    ARGV[5] claim expiry   ARGV[6] message ttl (grace)
ARGV[7] message expiry                      ARGV[8] batch (work bound)

Returns one HGETALL reply (a flat field/value list) per claimed message.
When the claim hash already exists the call is a retry of a claim that
already ran: its messages are returned and nothing else changes.
Work: O((batch + limit) log n).
--]]
--- @include "promote"

local now = tonumber(ARGV[1])
local limit = tonumber(ARGV[2])
local claim_id = ARGV[3]
local claim_ttl = tonumber(ARGV[4])
local claim_expires = tonumber(ARGV[5])
local msg_ttl = tonumber(ARGV[6])
local msg_expires = tonumber(ARGV[7])
local batch = tonumber(ARGV[8])

local function hashes(ids)
    local found = {}
    for _, mid in ipairs(ids) do
        local hash = redis.call('HGETALL', mid)
        if #hash > 0 then
            found[#found + 1] = hash
        end
    end
    return found
end

if redis.call('EXISTS', KEYS[8]) == 1 then
    return hashes(redis.call('LRANGE', KEYS[9], 0, -1))
end

promote(now, batch)

local claimed = {}
local scanned = 0
while #claimed < limit and scanned < batch + limit do
    local head = redis.call('ZRANGE', KEYS[2], 0, limit - #claimed - 1,
                            'WITHSCORES')
    if #head == 0 then
        break
    end
    for i = 1, #head, 2 do
        local mid, rank = head[i], head[i + 1]
        scanned = scanned + 1
        redis.call('ZREM', KEYS[2], mid)
        local expires = tonumber(redis.call('HGET', mid, 'e'))
        if expires and expires > now then
            redis.call('HSET', mid, 'c', claim_id, 'c.e', claim_expires)
            redis.call('HINCRBY', mid, 'c.c', 1)
            if expires < msg_expires then
                redis.call('HSET', mid, 't', msg_ttl, 'e', msg_expires)
                redis.call('EXPIRE', mid, msg_ttl)
            end
            redis.call('ZADD', KEYS[5], rank, mid)
            redis.call('ZADD', KEYS[6], claim_expires, mid)
            claimed[#claimed + 1] = mid
        end
    end
end

if #claimed > 0 then
    redis.call('HSET', KEYS[8], 'id', claim_id, 't', claim_ttl,
               'e', claim_expires, 'n', #claimed)
    redis.call('EXPIRE', KEYS[8], claim_ttl)
    redis.call('RPUSH', KEYS[9], unpack(claimed))
    redis.call('EXPIRE', KEYS[9], claim_ttl)
    redis.call('ZADD', KEYS[7], claim_expires, claim_id)
end
return hashes(claimed)
