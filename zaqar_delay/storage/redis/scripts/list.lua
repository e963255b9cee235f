--[[
list: one page of messages after a rank marker, in rank order.

KEYS[1..6]  queue index keys (see index.lua)
KEYS[7]     the queue's history stream (see history.lua)
KEYS[8]     zaqar_delay.metrics   hash: the store's counters (metrics.lua)
KEYS[9]     upstream's set of the project's queues (queues_set)

ARGV[1] now           ARGV[2] marker rank (exclusive; 0 = from the start)
ARGV[3] limit         ARGV[4] include claimed ('1'/'0')
ARGV[5] include delayed ('1'/'0')   ARGV[6] echo ('1'/'0')
ARGV[7] client uuid   ARGV[8] batch (work bound)
ARGV[9] the queue's member in the set of the project's queues, when
        the script checks that the queue exists ('': the caller checked)

Ready messages come from the ready chunks; claimed and delayed ones,
when asked for, from the claimed set and the waiting chunks, merged by
rank (reading at most limit + 1 chunks of each, of at most 128
entries). The caller's own, when echo is off, are skipped; so are
messages whose ttl ended, which leave the ready chunks and are recorded
as expired in the history of those that keep one (as a claim does); at
most limit + batch entries are examined. Messages the promotion gives back with a backoff after
their claim expired are counted in the metrics hash.
Returns {NO_QUEUE} when the queue does not exist (nothing is read or
changed); else {next marker rank or '', listed}: listed packed (msgpack),
per message listed the values of its fields CLAIMED_FIELDS (see
fields.lua).
Work: O((batch + limit) log n).
--]]
--- @include "index"
--- @include "fields"
--- @include "history"
--- @include "metrics"
--- @include "promote"

-- The reply code (messages.py names it the same, as delete.lua does).
local NO_QUEUE = 4
local history, metrics, project_queues = KEYS[7], KEYS[8], KEYS[9]
if ARGV[9] ~= '' and not redis.call('ZSCORE', project_queues, ARGV[9]) then
    return {NO_QUEUE}
end
local now = tonumber(ARGV[1])
local marker = ARGV[2]
local limit = tonumber(ARGV[3])
local echo = ARGV[6] == '1'
local client_uuid = ARGV[7]
local batch = tonumber(ARGV[8])

local counted = {}
promote(now, batch, history, counted)
add_counts(metrics, counted)

local sources
local with_waiting, with_ready = false, false
if ARGV[4] == '1' and ARGV[5] == '1' then
    sources = {messages}
else
    sources = {}
    with_ready = true
    if ARGV[4] == '1' then sources[#sources + 1] = claimed end
    with_waiting = ARGV[5] == '1'
end

-- Adds to `found` the first `want` waiting messages after rank `after`
-- ({rank, id}), from as many chunks as needed: the first chunk read
-- may hold none after it, every later one holds at least one.
local function next_waiting(found, after, want)
    local chunks = redis.call('ZRANGEBYSCORE', waiting, chunk_of(after),
                              '+inf', 'LIMIT', 0, want + 1)
    local taken = 0
    for _, c in ipairs(chunks) do
        local ranks = {}
        for _, rank in ipairs(redis.call('ZRANGE', chunk_key(c), 0, -1)) do
            rank = tonumber(rank)
            if rank > tonumber(after) then
                ranks[#ranks + 1] = rank
            end
        end
        table.sort(ranks)
        for i = 1, math.min(#ranks, want - taken) do
            found[#found + 1] = {ranks[i], id_of(ranks[i])}
            taken = taken + 1
        end
        if taken >= want then
            return
        end
    end
end

local function next_candidates(after, want)
    local found = {}
    for _, key in ipairs(sources) do
        local page = redis.call('ZRANGEBYSCORE', key, '(' .. after, '+inf',
                                'WITHSCORES', 'LIMIT', 0, want)
        for i = 1, #page, 2 do
            found[#found + 1] = {tonumber(page[i + 1]), page[i]}
        end
    end
    if with_ready then
        ready_after(found, after, want)
    end
    if with_waiting then
        next_waiting(found, after, want)
    end
    table.sort(found, function(a, b) return a[1] < b[1] end)
    return found
end

local page = {}
local scanned = 0
local exhausted = false
while #page < limit and scanned < limit + batch do
    local want = limit - #page
    local found = next_candidates(marker, want)
    if #found == 0 then
        exhausted = true
        break
    end
    for i = 1, math.min(want, #found) do
        local rank, mid = found[i][1], found[i][2]
        scanned = scanned + 1
        marker = string.format('%d', rank)
        -- Read once: the fields a list returns, then its history's.
        local fields = mid and redis.call('HMGET', mid, unpack(READ, 1, H))
            or {}
        local expires = tonumber(fields[FIELD['e']])
        local kept = fields[H]
        if expires and expires > now then
            if echo or fields[FIELD['u']] ~= client_uuid then
                fields[H] = nil
                page[#page + 1] = fields
            end
        elseif unready(rank, mid) and mid then
            -- Its ttl ended (its hash may be gone): out of the index,
            -- and recorded as expired, as a claim that met it would.
            if not expires then
                record_gone(history, now, mid)
            elseif kept then
                record(history, kept, now, mid, 'expired',
                       {'count', fields[FIELD['c.c']] or ''})
            end
        end
    end
end

if exhausted and #page == 0 then
    marker = ''
end
return {marker, cmsgpack.pack(page)}
