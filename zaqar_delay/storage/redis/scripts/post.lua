--[[
post: store messages and index them, in one atomic step.

KEYS[1..6]  queue index keys (see index.lua)
KEYS[7]     <project>.<queue>.rank_counter   string, next rank
KEYS[8]     zaqar_delay.pushes               zset due time -> push
KEYS[9]     the queue's history stream (see history.lua)
KEYS[10]    <project>.<queue>                upstream's queue hash: field
            'm' is the queue's metadata (msgpack)
KEYS[11..]  two per message: its hash key (the message id), and its
            dedup key <project>.<queue>.dedup.<digest> (any key when the
            message has no dedup window)

ARGV[1]     now (unix seconds, to the millisecond)
ARGV[2]     push suffix: '/<queue>/<project>' when every stored message
            is to be pushed to subscribers when due (a pending push
            '<id>/<queue>/<project>', scored by the due time), else ''.
            When a pending push comes due before every one pending
            before, its due time is published on the channel ARGV[6]
            (a dispatcher sleeping towards a later one wakes)
ARGV[3]     history ttl: the queue's _history_ttl (0: none); above 0,
            each stored message keeps it (hash field 'h') and is
            recorded as posted, with its body, ttl, delay, due time and
            dedup digest
ARGV[4]     '1': the messages were planned with the metadata ARGV[5]
            (packed, '' for none); when the queue's differs, nothing
            is stored. '0': no check
ARGV[5]     the packed metadata, with ARGV[4] '1'
ARGV[6]     the dispatchers' wake channel (zaqar_delay.pushes.wake)
ARGV[7..]   six per message: ttl, delay (seconds), client uuid,
            body (msgpack), checksum ('' for none), dedup window (seconds;
            0: not deduplicated)

A message's due time is now + its delay (index.lua: 'd' and 'dm');
'cr', 'e' and 'c.e' are whole seconds, as upstream writes them.

A message whose hash already exists is left as it is, so that a retry
of a post whose reply was lost (same ids) changes nothing. A message
whose dedup key names a live message of the queue, within its window,
is not stored: that message answers for it; otherwise the key names it
('<id> <window end>') for the window.
Returns the id answering for each message, in order; or {0, the
queue's packed metadata} when ARGV[4] is '1' and ARGV[5] is not it.
--]]
--- @include "index"
--- @include "history"
--- @include "plan"
local now = tonumber(ARGV[1])
local whole = math.floor(now)
local push_suffix = ARGV[2]
local keep = tonumber(ARGV[3])
local wake_channel = ARGV[6]

local rank_counter, pushes, history = KEYS[7], KEYS[8], KEYS[9]
local queue_hash = KEYS[10]

local stale = stale_plan(queue_hash, ARGV[4], ARGV[5])
if stale then
    return stale
end

-- The index entries of this post's messages, written after its loop:
-- per kind (ready, waiting), the chunks in the order first met, each
-- with its ready offsets, or its waiting ranks with their due times, in
-- one ZADD each; the chunk lists, the counts and `due` as make_ready and
-- wait_until would leave them.
local readied = {order = {}, at = {}}
local waited = {order = {}, at = {}}

local function later(rank, due_at)
    local c = chunk_of(rank)
    local pending = due_at and waited or readied
    local entry = pending.at[c]
    if not entry then
        entry = {chunk = c, members = {}, earliest = due_at}
        pending.at[c] = entry
        pending.order[#pending.order + 1] = entry
    end
    local members = entry.members
    if due_at then
        members[#members + 1] = due_at
        members[#members + 1] = string.format('%d', rank)
        entry.earliest = math.min(entry.earliest, due_at)
    else
        local offset = offset_in(rank, c)
        members[#members + 1] = offset
        members[#members + 1] = offset
    end
end

local function index_later()
    local added = 0
    for _, entry in ipairs(readied.order) do
        local c = entry.chunk
        local n = redis.call('ZADD', chunk_key(c, ready),
                             unpack(entry.members))
        if n > 0 then
            added = added + n
            redis.call('ZADD', list_key(ready), c, c)
        end
    end
    if added > 0 then
        redis.call('INCRBY', count_key(ready), added)
    end
    added = 0
    for _, entry in ipairs(waited.order) do
        local c = entry.chunk
        added = added + redis.call('ZADD', chunk_key(c),
                                   unpack(entry.members))
        redis.call('ZADD', waiting, c, c)
        local earliest = redis.call('ZSCORE', due, c)
        if not earliest or entry.earliest < tonumber(earliest) then
            redis.call('ZADD', due, entry.earliest, c)
        end
    end
    if added > 0 then
        redis.call('INCRBY', count_key(), added)
    end
end

local rank = tonumber(redis.call('GET', rank_counter) or 1)
local first_rank = rank
-- The earliest push this post adds, to wake dispatchers when it comes
-- before every pending one.
local earliest_push

local answers = {}
for i = 11, #KEYS, 2 do
    local mid, dedup_key = KEYS[i], KEYS[i + 1]
    local base = 6 + (i - 11) / 2 * 6
    local window = tonumber(ARGV[base + 6])
    local answer = mid
    if window > 0 then
        -- '<holder id> <window end>': the end is Zaqar's clock, like every
        -- time here; the key's own expiry only cleans up.
        local mine = mid .. ' ' .. (whole + window)
        if not redis.call('SET', dedup_key, mine, 'NX', 'EX',
                          window + 60) then
            local holder, ends = string.match(
                redis.call('GET', dedup_key) or '', '^(%S+) (%d+)$')
            if holder and holder ~= mid and tonumber(ends) > whole and
                    redis.call('ZSCORE', messages, holder) and
                    redis.call('EXISTS', holder) == 1 then
                answer = holder
            else
                redis.call('SET', dedup_key, mine, 'EX', window + 60)
            end
        end
    end
    answers[#answers + 1] = answer
    if answer == mid and redis.call('EXISTS', mid) == 0 then
        local ttl = tonumber(ARGV[base + 1])
        local wait = tonumber(ARGV[base + 2])
        -- Up to the millisecond (a wait from a due time asked is a float).
        local due_at = math.ceil((now + wait) * 1000 - 0.001) / 1000

        local due_ms = string.format('%d', ms(due_at))
        local fields = {'id', mid, 't', ttl, 'cr', whole, 'e', whole + ttl,
                        'u', ARGV[base + 3], 'c', '', 'c.e', whole,
                        'c.c', 0, 'd', due_at > now and math.ceil(due_at)
                                       or whole, 'dm', due_ms,
                        'b', ARGV[base + 4]}
        if ARGV[base + 5] ~= '' then
            fields[#fields + 1] = 'cs'
            fields[#fields + 1] = ARGV[base + 5]
        end
        if keep > 0 then
            fields[#fields + 1] = 'h'
            fields[#fields + 1] = keep
        end
        redis.call('HSET', mid, unpack(fields))
        if keep > 0 then
            record(history, keep, now, mid, 'posted',
                   {'ttl', ttl, 'delay', ARGV[base + 2],
                    'due', string.format('%.3f', due_at),
                    'dedup', window > 0 and
                        string.match(dedup_key, '([^.]*)$') or '',
                    'b', ARGV[base + 4]})
        end
        redis.call('EXPIRE', mid, ttl)

        redis.call('ZADD', messages, rank, mid)
        later(rank, due_at > now and due_at or nil)
        if push_suffix ~= '' then
            redis.call('ZADD', pushes, due_at, mid .. push_suffix)
            if not earliest_push or due_at < earliest_push then
                earliest_push = due_at
            end
        end
        rank = rank + 1
    end
end

index_later()
redis.call('SET', rank_counter, rank)
if earliest_push then
    local first = redis.call('ZRANGE', pushes, 0, 0, 'WITHSCORES')
    if first[2] and tonumber(first[2]) >= earliest_push then
        redis.call('PUBLISH', wake_channel, string.format('%.3f',
                                                          earliest_push))
    end
end
return answers
