--[[
release: delete a claim and give back the messages it still holds:
ready, or waiting for their retry backoff (hash field 'rb', see claim.lua).

KEYS[1..6]  queue index keys (see index.lua)
KEYS[7]     <project>.<queue>.claims    zset claim expiry -> claim id
KEYS[8]     <claim id>                  hash: id, t, e, n
KEYS[9]     messages.<claim id>         list of claimed message ids
KEYS[10]    the queue's history stream (see history.lua)
KEYS[11]    zaqar_delay.metrics   hash: the store's counters (metrics.lua)
KEYS[12]    upstream's set of the project's queues (queues_set)

ARGV[1] now (to the millisecond)     ARGV[2] claim id
ARGV[3] the queue's member in KEYS[12], when the script checks that the
        queue exists ('' or none: the caller checked it)

Nothing changes, and 0 is returned, when the queue does not exist, the
claim is not in KEYS[7], or it has ended (it then leaves KEYS[7]; its
messages are given back by promotion, as of its end).

A message no longer in the claimed set (promotion gave it back when its
claim ended, ahead of this call) is not given back again.
Each message given back is recorded as released, with the backoff wait
applied, in the history of messages that keep one; those given back
with a backoff are counted ('released_backoff') in KEYS[11].
Returns the number of messages released. Work: O(claim size * log n).
--]]
--- @include "index"
--- @include "history"
--- @include "metrics"
local claims, claim_hash, claim_list = KEYS[7], KEYS[8], KEYS[9]
local history, metrics, project_queues = KEYS[10], KEYS[11], KEYS[12]
local now = tonumber(ARGV[1])
local claim_id = ARGV[2]
local member = ARGV[3] or ''
if member ~= '' and not redis.call('ZSCORE', project_queues, member) then
    return 0
end
local expires = tonumber(redis.call('HGET', claim_hash, 'e'))
if not redis.call('ZSCORE', claims, claim_id) or not expires then
    return 0
elseif expires <= now then
    redis.call('ZREM', claims, claim_id)
    return 0
end
local released = 0
local counted = {}

for _, mid in ipairs(redis.call('LRANGE', claim_list, 0, -1)) do
    local held = redis.call('HMGET', mid, 'c', 'h')
    if held[1] == claim_id then
        redis.call('HSET', mid, 'c', '', 'c.e', string.format('%d', now))
        local rank = redis.call('ZSCORE', messages, mid)
        -- Not in `claimed`: promotion already gave it back (its claim
        -- ended), maybe waiting for its backoff; it stays as it is.
        local held_here = redis.call('ZREM', claimed, mid) == 1
        redis.call('ZREM', claim_expiry, mid)
        if rank and held_here then
            local wait = give_back(mid, rank, now, now)
            record(history, held[2], now, mid, 'released',
                   {'claim', claim_id, 'wait', wait})
            released = released + 1
            if wait > 0 then
                count_in(counted, 'released_backoff', 1)
            end
        end
    end
end

redis.call('DEL', claim_hash, claim_list)
redis.call('ZREM', claims, claim_id)
add_counts(metrics, counted)
return released
