--[[
move: move messages of one queue to another queue of the project.

KEYS[1..6]   index keys of the source queue (see index.lua)
KEYS[7..12]  index keys of the target queue, same order
KEYS[13]     <project>.<target>.rank_counter
KEYS[14]     zaqar_delay.pushes   zset due time -> pending push
KEYS[15]     the source queue's history stream (see history.lua)
KEYS[16]     the target queue's history stream
KEYS[17..]   two per message: its hash key (its id), and the hash key of
             its copy in the target queue (a new id)

ARGV[1] now (unix seconds, to the millisecond)
ARGV[2] the moved messages' due time ('' or at most now: ready now)
ARGV[3] the source queue's push suffix '/<queue>/<project>' ('': none)
ARGV[4] the target queue's push suffix ('': none)
ARGV[5] the dispatchers' wake channel (zaqar_delay.pushes.wake)
ARGV[6] the target queue's name (recorded in the source's history)
ARGV[7] the target queue's history ttl (0: none)

A message that is not in the source queue, or that a live claim holds,
is not moved. A moved one leaves every set of the source queue and
takes its new id, with its body, ttl and expiry (its hash is renamed):
unclaimed (claim count 0), the next rank of the target queue, due at
ARGV[2] (or ready now), with a pending push in the target when it has
pushes. Recorded as moved (to the target, as the new id) in the
source's history, and as posted (from the old id) in the target's.
Returns {old id, new id, ...} for the messages moved, in order.
Work: O(k log n).
--]]
--- @include "index"
--- @include "history"
local to_messages, to_ready, to_waiting, to_due =
    KEYS[7], KEYS[8], KEYS[9], KEYS[10]
local to_rank_counter, pushes = KEYS[13], KEYS[14]
local from_history, to_history = KEYS[15], KEYS[16]
local now = tonumber(ARGV[1])
local whole = math.floor(now)
local due_at = math.max(tonumber(ARGV[2]) or now, now)
local from_push, to_push, wake_channel = ARGV[3], ARGV[4], ARGV[5]
local target, keep = ARGV[6], tonumber(ARGV[7])

local rank = tonumber(redis.call('GET', to_rank_counter) or 1)
local moved = {}
for i = 17, #KEYS, 2 do
    local mid, new = KEYS[i], KEYS[i + 1]
    local from_rank = redis.call('ZSCORE', messages, mid)
    local held = redis.call('HMGET', mid, 'c', 'c.e', 'h', 't', 'b')
    local live = held[1] and held[1] ~= '' and tonumber(held[2]) > now
    if from_rank and held[4] and not live then
        unwait(from_rank)
        unready(from_rank, mid)
        for _, set in ipairs(index_sets) do
            redis.call('ZREM', set, mid)
        end
        record(from_history, held[3], now, mid, 'moved',
               {'to', target, 'as', new})
        redis.call('RENAME', mid, new)
        redis.call('HSET', new, 'id', new, 'c', '', 'c.e', whole,
                   'c.c', 0)
        redis.call('HDEL', new, 'rb', 'h')
        if keep > 0 then
            redis.call('HSET', new, 'h', keep)
        end
        redis.call('ZADD', to_messages, rank, new)
        set_due(new, due_at)
        if due_at > now then
            wait_until(rank, due_at, to_waiting, to_due)
        else
            make_ready(rank, to_ready)
        end
        if from_push ~= '' then
            redis.call('ZREM', pushes, mid .. from_push)
        end
        if to_push ~= '' then
            redis.call('ZADD', pushes, due_at, new .. to_push)
        end
        record(to_history, keep, now, new, 'posted',
               {'ttl', held[4], 'delay', '',
                'due', string.format('%.3f', due_at), 'dedup', '',
                'b', held[5], 'from', mid})
        rank = rank + 1
        moved[#moved + 1] = mid
        moved[#moved + 1] = new
    end
end
redis.call('SET', to_rank_counter, rank)
if #moved > 0 and to_push ~= '' then
    local first = redis.call('ZRANGE', pushes, 0, 0, 'WITHSCORES')
    if first[2] and tonumber(first[2]) >= due_at then
        redis.call('PUBLISH', wake_channel, string.format('%.3f', due_at))
    end
end
return moved
