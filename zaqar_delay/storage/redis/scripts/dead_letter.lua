--[[
dead_letter: move one claimed message to its dead letter queue.

KEYS[1..6]   index keys of the source queue (see index.lua)
KEYS[7]      <project>.<dead letter queue>.messages     zset rank -> id
KEYS[8]      <project>.<dead letter queue>.delay.ready  (its ready chunks
             are named from it, see index.lua)
KEYS[9]      <project>.<dead letter queue>.rank_counter
KEYS[10]     the message hash key (its id)
KEYS[11]     <project>.<queue>.claims    zset claim expiry -> claim id
KEYS[12]     <claim id>                  hash: id, t, e, n
KEYS[13]     messages.<claim id>         list of claimed message ids
KEYS[14]     the source queue's history stream (see history.lua)
KEYS[15]     zaqar_delay.metrics   hash: the store's counters (metrics.lua)

ARGV[1] now     ARGV[2] claim id     ARGV[3] new ttl ('' keeps the ttl)
ARGV[4] the dead letter queue's name (for the history)

The message leaves every set of the source queue and its claim, and
becomes ready in the dead letter queue with the next rank there; it
is recorded as dead_lettered in the source queue's history when the
message keeps one, and counted ('dead_lettered') in the metrics hash.
Returns 1, or 0 when the message is gone or no longer held by the claim.
--]]
--- @include "index"
--- @include "history"
local now = tonumber(ARGV[1])
local claim_id = ARGV[2]
local dlq_messages, dlq_ready, dlq_rank_counter = KEYS[7], KEYS[8], KEYS[9]
local mid = KEYS[10]
local claims, claim_hash, claim_list = KEYS[11], KEYS[12], KEYS[13]
local history, metrics = KEYS[14], KEYS[15]

local held = redis.call('HMGET', mid, 'c', 'h')
if held[1] ~= claim_id then
    return 0
end
record(history, held[2], now, mid, 'dead_lettered',
       {'claim', claim_id, 'to', ARGV[4]})
redis.call('HINCRBY', metrics, 'dead_lettered', 1)

local from_rank = redis.call('ZSCORE', messages, mid) or -1
unwait(from_rank)
unready(from_rank, mid)
for _, set in ipairs(index_sets) do
    redis.call('ZREM', set, mid)
end
local whole = math.floor(now)
redis.call('HSET', mid, 'c', '', 'c.e', whole)
redis.call('HDEL', mid, 'rb')    -- not delayed in the dead letter queue
if ARGV[3] ~= '' then
    local ttl = tonumber(ARGV[3])
    redis.call('HSET', mid, 't', ttl, 'e', whole + ttl)
    redis.call('EXPIRE', mid, ttl)
end

local rank = tonumber(redis.call('GET', dlq_rank_counter) or 1)
redis.call('ZADD', dlq_messages, rank, mid)
make_ready(rank, dlq_ready)
redis.call('SET', dlq_rank_counter, rank + 1)

redis.call('LREM', claim_list, 1, mid)
if redis.call('HINCRBY', claim_hash, 'n', -1) <= 0 then
    redis.call('DEL', claim_hash, claim_list)
    redis.call('ZREM', claims, claim_id)
end
return 1
