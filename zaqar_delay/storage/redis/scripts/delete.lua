--[[
delete: delete messages of one queue, all or none, after a claim check.

KEYS[1..6]  queue index keys (see index.lua)
KEYS[7]     the queue's history stream (see history.lua)
KEYS[8]     upstream's set of the project's queues (queues_set)
KEYS[9..]   message hash keys (message ids)

ARGV[1]     now
ARGV[2]     check: 'unclaimed' (none may be held by a live claim),
            'claims' (each must be held by one of ARGV[4..]) or 'any'
            (a pop deletes in claim.lua)
ARGV[3]     the queue's member in KEYS[8], when the script checks that
            the queue exists ('': the caller checked it)
ARGV[4..]   claim ids, with 'claims'

Ids that are not in this queue are ignored (never deleted). Each
message deleted is recorded as deleted (with the live claim holding it,
if any; popped 0) in the history of messages that keep one.
Returns {4} when the queue does not exist (nothing is read or deleted),
{0, deleted} or, when the check fails, nothing is deleted and
{1, id, holder} (held by a live claim), {2, id} (not claimed) or
{3, id, holder} (held by another claim) is returned.
--]]
--- @include "index"
--- @include "history"
-- The reply codes (messages.py names them the same).
local DELETED, HELD, NOT_CLAIMED, CLAIMED_BY_ANOTHER, NO_QUEUE =
    0, 1, 2, 3, 4
local history, project_queues = KEYS[7], KEYS[8]
if ARGV[3] ~= '' and not redis.call('ZSCORE', project_queues, ARGV[3]) then
    return {NO_QUEUE}
end
local now = tonumber(ARGV[1])
local check = ARGV[2]
local allowed = {}
for i = 4, #ARGV do
    allowed[ARGV[i]] = true
end

local present = {}
local kept = {}     -- id -> {history ttl, claim}: messages with history
for i = 9, #KEYS do
    local mid = KEYS[i]
    local rank = redis.call('ZSCORE', messages, mid)
    if rank then
        local held = redis.call('HMGET', mid, 'c', 'c.e', 'h')
        local holder = held[1]
        local live = holder and holder ~= '' and tonumber(held[2]) > now
        if check == 'unclaimed' and live then
            return {HELD, mid, holder}
        elseif check == 'claims' and not live and held[1] then
            return {NOT_CLAIMED, mid}
        elseif check == 'claims' and live and not allowed[holder] then
            return {CLAIMED_BY_ANOTHER, mid, holder}
        end
        present[#present + 1] = {mid, rank}
        if held[3] then
            kept[mid] = {held[3], live and holder or ''}
        end
    end
end

for _, found in ipairs(present) do
    local mid = found[1]
    unwait(found[2])
    unready(found[2], mid)
    local keep = kept[mid]
    if keep then
        record(history, keep[1], now, mid, 'deleted',
               {'claim', keep[2], 'popped', 0})
    end
    redis.call('DEL', mid)
    for _, set in ipairs(index_sets) do
        redis.call('ZREM', set, mid)
    end
end
return {DELETED, #present}
