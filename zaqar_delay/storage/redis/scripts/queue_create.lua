--[[
queue_create: make a queue's record and list it in its project's queue
set, unless it is listed (upstream's layout: zaqar/storage/redis/
queues.py).

KEYS[1]  <project>.queues_set   zset <project>.<queue> -> 1
KEYS[2]  <project>.<queue>      hash c, cl (0), m (metadata), t (made)

ARGV[1]  the queue's metadata, msgpack
ARGV[2]  the time it is made, seconds

Returns 1 if made, 0 if it was listed already. Work: O(log queues).
--]]
local listed, record = KEYS[1], KEYS[2]
local metadata, made = ARGV[1], ARGV[2]
if redis.call('ZSCORE', listed, record) then
    return 0
end
redis.call('ZADD', listed, 1, record)
redis.call('HSET', record, 'c', 0, 'cl', 0, 'm', metadata, 't', made)
return 1
