--[[
schedule_advance: record what a pass did with one queue's schedules.

KEYS[1]  zaqar_delay.schedules                zset next look (or lease
                                              expiry) -> <queue>/<project>
KEYS[2]  <project>.<queue>.delay.schedules    hash schedule name -> after

ARGV[1]  member (<queue>/<project>)
ARGV[2]  held: the lease expiry the pass took the queue with
ARGV[3]  next look (unix seconds), or '' to forget the queue
ARGV[4..]  schedule name, after, ...: the schedules the pass saw

Each schedule's after becomes the larger of the stored one and the
pass's, so a pass that ran past its lease (another pass took the queue
and went further meanwhile) never moves a schedule back. Only while the
queue is still scored at ``held`` (no other pass took it, and no
metadata change asked for an earlier look since) are the schedules the
pass did not see forgotten and the next look written. Returns 1 when
the next look was written, else 0. Work: O(log n + schedules).
--]]
local schedules, afters = KEYS[1], KEYS[2]
local member, held, next_look = ARGV[1], tonumber(ARGV[2]), ARGV[3]

local seen = {}
for i = 4, #ARGV, 2 do
    local name, after = ARGV[i], tonumber(ARGV[i + 1])
    seen[name] = true
    local old = tonumber(redis.call('HGET', afters, name))
    if old == nil or old < after then
        redis.call('HSET', afters, name, after)
    end
end

if tonumber(redis.call('ZSCORE', schedules, member)) ~= held then
    return 0
end
for _, name in ipairs(redis.call('HKEYS', afters)) do
    if not seen[name] then
        redis.call('HDEL', afters, name)
    end
end
if next_look == '' then
    redis.call('ZREM', schedules, member)
    redis.call('DEL', afters)
else
    redis.call('ZADD', schedules, tonumber(next_look), member)
end
return 1
