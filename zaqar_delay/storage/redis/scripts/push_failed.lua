--[[
push_failed: keep a failed push's record; drop up to 100 records older
than a cutoff.

KEYS[1]  zaqar_delay.pushes.failed     hash record key -> record (JSON)
KEYS[2]  zaqar_delay.pushes.failed_at  zset when -> record key

ARGV[1] the record's key   ARGV[2] the record   ARGV[3] when it failed
ARGV[4] the cutoff: records older are dropped (unix seconds)

Returns nothing. Work: O(log n) per record kept or dropped.
--]]
local records, by_time = KEYS[1], KEYS[2]
for _, old in ipairs(redis.call('ZRANGEBYSCORE', by_time, '-inf', ARGV[4],
                                'LIMIT', 0, 100)) do
    redis.call('HDEL', records, old)
    redis.call('ZREM', by_time, old)
end
redis.call('HSET', records, ARGV[1], ARGV[2])
redis.call('ZADD', by_time, ARGV[3], ARGV[1])
