--[[
queue_update: replace a listed queue's metadata (see queue_create).

KEYS[1]  <project>.queues_set   zset <project>.<queue> -> 1
KEYS[2]  <project>.<queue>      hash; field m, the metadata

ARGV[1]  the queue's metadata, msgpack

Returns 1 if replaced, 0 if the queue is not listed. Work: O(log queues).
--]]
local listed, record = KEYS[1], KEYS[2]
local metadata = ARGV[1]
if not redis.call('ZSCORE', listed, record) then
    return 0
end
redis.call('HSET', record, 'm', metadata)
return 1
