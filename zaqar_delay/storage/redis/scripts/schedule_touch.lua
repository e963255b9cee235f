--[[
schedule_touch: look at a queue's schedules at a time; record when they
were set.

KEYS[1]  zaqar_delay.schedules             zset next look -> <queue>/<project>
KEYS[2]  <project>.<queue>.delay.schedules hash schedule name -> after

ARGV[1] the queue's member in KEYS[1]   ARGV[2] when to look (unix s)
ARGV[3] the field of KEYS[2] that holds when they were set (ticks.DEFINED)
ARGV[4] when they were set

Returns nothing. Work: O(log n).
--]]
local schedules, afters = KEYS[1], KEYS[2]
redis.call('ZADD', schedules, ARGV[2], ARGV[1])
redis.call('HSET', afters, ARGV[3], ARGV[4])
