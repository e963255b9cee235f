--[[
push_forget: delete failed-push records.

KEYS[1]    zaqar_delay.pushes.failed     hash record key -> record
KEYS[2]    zaqar_delay.pushes.failed_at  zset when -> record key
ARGV[1..]  the records' keys

Returns nothing. Work: O(log n) per record.
--]]
local records, by_time = KEYS[1], KEYS[2]
for _, key in ipairs(ARGV) do
    redis.call('HDEL', records, key)
    redis.call('ZREM', by_time, key)
end
