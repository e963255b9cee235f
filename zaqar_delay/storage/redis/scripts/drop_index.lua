--[[
drop_index: delete a queue's own index keys, its waiting and ready
chunks with them, in one step (a queue delete; the message hashes and
upstream's messages set are deleted beside it, in the same
transaction).

KEYS[1..6]  queue index keys (see index.lua)

ARGV[1..]   none.

The chunks are read here, in the same step, so that a delayed post that
opens a chunk while the queue is being deleted cannot leave it behind.
Returns the number of keys deleted. Work: O(chunks).
--]]
--- @include "index"
local gone = 0
for _, c in ipairs(redis.call('ZRANGE', waiting, 0, -1)) do
    gone = gone + redis.call('DEL', chunk_key(c))
end
for _, c in ipairs(redis.call('ZRANGE', ready_chunks, 0, -1)) do
    gone = gone + redis.call('DEL', chunk_key(c, ready))
end
gone = gone + redis.call('DEL', waiting_count, ready_chunks, ready_count)
for _, key in ipairs({ready, waiting, due, claimed, claim_expiry}) do
    gone = gone + redis.call('DEL', key)
end
return gone
