--[[
reschedule: make one message of a queue due at another time.

KEYS[1..6]  queue index keys (see index.lua)
KEYS[7]     zaqar_delay.pushes   zset due time -> pending push
KEYS[8]     the queue's history stream (see history.lua)
KEYS[9]     the message hash key (its id)

ARGV[1] now (unix seconds, to the millisecond)
ARGV[2] the new due time (unix seconds, to the millisecond; at or
        before now: ready now)
ARGV[3] its pending push, '<id>/<queue>/<project>' ('': none kept)
ARGV[4] the dispatchers' wake channel (zaqar_delay.pushes.wake)

A message held by a live claim is left as it is. Otherwise it leaves
the state it was in (ready, waiting, or held by a claim that ended)
and waits until the new due time, or is ready now, with its id, body
and expiry kept; its pending push, if it has one still, comes due then
too (dispatchers are woken when it is the earliest). Recorded as
rescheduled, with the new due time, in the history of a message that
keeps one.
Returns {0, due time} done; {1} no such message in the queue; {2,
claim id} held by a live claim; {3, expiry} the message's ttl ends at
or before the new due time.
Work: O(log n).
--]]
--- @include "index"
--- @include "history"
local pushes, history, mid = KEYS[7], KEYS[8], KEYS[9]
local now = tonumber(ARGV[1])
local due_at = math.max(tonumber(ARGV[2]), now)
local push, wake_channel = ARGV[3], ARGV[4]

local rank = redis.call('ZSCORE', messages, mid)
if not rank or redis.call('EXISTS', mid) == 0 then
    return {1}
end
local held = redis.call('HMGET', mid, 'c', 'c.e', 'e', 'h')
if held[1] and held[1] ~= '' and tonumber(held[2]) > now then
    return {2, held[1]}
end
if tonumber(held[3]) <= due_at then
    return {3, held[3]}
end

unindex_own(rank, mid)
redis.call('HDEL', mid, 'rb')
redis.call('HSET', mid, 'c', '', 'c.e', string.format('%d', now))
due_at = set_due(mid, due_at)
if due_at > now then
    wait_until(rank, due_at)
else
    make_ready(rank)
end
if push ~= '' and redis.call('ZADD', pushes, 'XX', 'CH', due_at, push) == 1
        then
    local first = redis.call('ZRANGE', pushes, 0, 0, 'WITHSCORES')
    if first[1] == push then
        redis.call('PUBLISH', wake_channel, string.format('%.3f', due_at))
    end
end
record(history, held[4], now, mid, 'rescheduled',
       {'due', string.format('%.3f', due_at)})
return {0, string.format('%.3f', due_at)}
