--[[
claim: claim up to `limit` ready messages, oldest rank first.

KEYS[1..6]  queue index keys (see index.lua)
KEYS[7..9]  the claim's keys (see claim_terms.lua)
KEYS[10]    the queue's history stream (see history.lua)
KEYS[11]    zaqar_delay.metrics   hash: the store's counters (metrics.lua)
KEYS[12]    <project>.<queue>     upstream's queue hash: field 'm' is the
            queue's metadata (msgpack)

ARGV[1..6]  the claim's terms (see claim_terms.lua)
ARGV[7] limit        ARGV[8] batch (work bound)
ARGV[9] backoff initial   ARGV[10] backoff factor   ARGV[11] backoff max
        (the queue's _retry_backoff; initial 0: none)
ARGV[12] the queue's _max_claim_count with a dead-letter queue ('': none)
ARGV[13] '1': ARGV[9..12] were planned with the metadata ARGV[14]
         (packed, '' for none); when the queue's differs, nothing
         changes. '0': no check
ARGV[14] the packed metadata, with ARGV[13] '1'
ARGV[15] '1': a pop: each message taken is deleted (recorded as
         deleted, popped), but for one claimed more than ARGV[12]
         times, which stays claimed for the dead-letter queue

Returns, msgpack-packed, per claimed message the values of its fields
CLAIMED_FIELDS as the claim left them (see fields.lua); or {0, the
queue's packed metadata} (not packed) when ARGV[13] is '1' and ARGV[14]
is not it. When the claim hash already exists the
call is a retry of a claim (or pop) that already ran: its messages (a
pop's as it returned them, kept in the hash's field 'popped') are
returned and nothing else changes. Each
message taken is recorded as claimed, each found expired as expired, in
the history of messages that keep one. Each message taken that was
delayed (due a second or more after 'cr') and is not claimed more
than ARGV[12] times (it would go to the dead-letter queue) is counted
in the metrics hash: its lateness (now - 'd') in a bucket, or as an
early claim; so are the messages promotion gives back with a backoff
after their claim expired (promote.lua).
Work: O((batch + limit) log n).
--]]
--- @include "index"
--- @include "fields"
--- @include "history"
--- @include "claim_terms"
--- @include "metrics"
--- @include "promote"
--- @include "plan"

local history, metrics, queue_hash = KEYS[10], KEYS[11], KEYS[12]

local limit = tonumber(ARGV[7])
local batch = tonumber(ARGV[8])
local initial = tonumber(ARGV[9]) or 0
local factor = tonumber(ARGV[10]) or 1
local longest = tonumber(ARGV[11]) or 0
local max_claims = tonumber(ARGV[12])
local pop = ARGV[15] == '1'

-- A value as HSET stores a Lua number (as HMGET then returns it).
local function stored(value)
    return string.format('%.17g', value)
end

-- Claims the message `mid`, whose READ values are `held`, for this
-- claim, its count now `count`: one HSET (and the 'rb' of its backoff,
-- the wait when this claim gives it back, read by release and by
-- promote), `held` changed to match.
local function hold(mid, held, count)
    local set = {'c', claim_id, 'c.e', claim_expires, 'c.c', count}
    held[FIELD['c']], held[FIELD['c.e']], held[FIELD['c.c']] =
        claim_id, stored(claim_expires), stored(count)
    if initial > 0 then
        set[#set + 1], set[#set + 2] = 'rb', math.ceil(
            math.min(longest, initial * factor ^ (count - 1)))
    elseif held[RB] then
        redis.call('HDEL', mid, 'rb')
    end
    if tonumber(held[FIELD['e']]) < msg_expires then
        set[#set + 1], set[#set + 2] = 't', msg_ttl
        set[#set + 1], set[#set + 2] = 'e', msg_expires
        held[FIELD['t']], held[FIELD['e']] = stored(msg_ttl),
            stored(msg_expires)
        redis.call('EXPIRE', mid, msg_ttl)
    end
    redis.call('HSET', mid, unpack(set))
end


if redis.call('EXISTS', claim_hash) == 1 then
    local popped = redis.call('HGET', claim_hash, 'popped')
    if popped then
        return popped
    end
    return cmsgpack.pack(hashes(redis.call('LRANGE', claim_list, 0, -1)))
end

local stale = stale_plan(queue_hash, ARGV[13], ARGV[14])
if stale then
    return stale
end

local counted = {}
promote(now, batch, history, counted)

local function by_rank(a, b) return a[1] < b[1] end

local taken, reply = {}, {}
-- ZADD arguments of `claimed` and `claim_expiry` (which nothing in the
-- loop reads): written once, after it.
local ranked, expiring = {}, {}
local popping = {}  -- id -> its history ttl: messages a pop deletes
local scanned = 0
while #taken < limit and scanned < batch + limit do
    local want = limit - #taken
    local head = {}
    ready_after(head, false, want)
    if #head == 0 then
        break
    end
    table.sort(head, by_rank)
    for i = 1, math.min(want, #head) do
        local rank, mid = head[i][1], head[i][2]
        scanned = scanned + 1
        unready(rank, mid)
        -- No id: its rank left `messages` (Zaqar's garbage collection).
        local held = mid and redis.call('HMGET', mid, unpack(READ)) or {}
        local expires = tonumber(held[FIELD['e']])
        if expires and expires > now then
            local count = (tonumber(held[FIELD['c.c']]) or 0) + 1
            if not max_claims or count <= max_claims then
                count_claim(counted, now,
                            due_of(held[FIELD['d']], held[FIELD['dm']]),
                            tonumber(held[FIELD['cr']]))
            end
            hold(mid, held, count)
            record(history, held[H], now, mid, 'claimed',
                   {'claim', claim_id, 'count', count})
            if pop and (not max_claims or count <= max_claims) then
                popping[mid] = held[H] or false
            end
            ranked[#ranked + 1], ranked[#ranked + 2] = rank, mid
            expiring[#expiring + 1], expiring[#expiring + 2] =
                claim_expires, mid
            taken[#taken + 1] = mid
            reply[#reply + 1] = {unpack(held, 1, #CLAIMED_FIELDS)}
        elseif expires then
            if held[H] then
                record(history, held[H], now, mid, 'expired',
                       {'count', held[FIELD['c.c']] or ''})
            end
        elseif mid then
            record_gone(history, now, mid)
        end
    end
end

if #taken > 0 then
    redis.call('ZADD', claimed, unpack(ranked))
    redis.call('ZADD', claim_expiry, unpack(expiring))
end
reply = cmsgpack.pack(reply)
if pop and #taken > 0 then
    local held = {}
    for _, mid in ipairs(taken) do
        local kept = popping[mid]
        if kept == nil then
            held[#held + 1] = mid
        else
            record(history, kept or nil, now, mid, 'deleted',
                   {'claim', claim_id, 'popped', 1})
            redis.call('DEL', mid)
            for _, set in ipairs(index_sets) do
                redis.call('ZREM', set, mid)
            end
        end
    end
    -- Kept for a retry of this call, for as long as the claim would be.
    redis.call('HSET', claim_hash, 'id', claim_id, 'popped', reply)
    redis.call('EXPIRE', claim_hash, claim_ttl)
    taken = held
end
if #taken > 0 then
    redis.call('HSET', claim_hash, 'id', claim_id, 't', claim_ttl,
               'e', claim_expires, 'n', #taken,
               'cm', string.format('%d', ms(now)))
    redis.call('EXPIRE', claim_hash, claim_ttl)
    redis.call('RPUSH', claim_list, unpack(taken))
    redis.call('EXPIRE', claim_list, claim_ttl)
    redis.call('ZADD', claims, claim_expires, claim_id)
end
add_counts(metrics, counted)
return reply
