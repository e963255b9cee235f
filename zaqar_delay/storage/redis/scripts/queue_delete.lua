--[[
queue_delete: delete a queue's record and its entry in its project's
queue set (see queue_create).

KEYS[1]  <project>.queues_set   zset <project>.<queue> -> 1
KEYS[2]  <project>.<queue>      hash, the record

ARGV[1..]  none.

Returns nothing. Work: O(log queues).
--]]
local listed, record = KEYS[1], KEYS[2]
redis.call('ZREM', listed, record)
redis.call('DEL', record)
