--[[
Included by claim.lua and list.lua after index.lua (not run on its own).

promote(now, batch) moves at most `batch` waiting messages whose due time
is <= now, and at most `batch` claimed messages whose claim expired
(expiry <= now), into the ready set. Messages whose hash is gone (ttl
ended, deleted) are dropped from the index instead. Work: O(batch log n).
--]]
local function move_to_ready(from_rank, from_time, ids)
    for _, mid in ipairs(ids) do
        local rank = redis.call('ZSCORE', from_rank, mid)
        redis.call('ZREM', from_rank, mid)
        redis.call('ZREM', from_time, mid)
        if rank and redis.call('EXISTS', mid) == 1 then
            redis.call('ZADD', ready, rank, mid)
        end
    end
end

local function promote(now, batch)
    move_to_ready(waiting, due, redis.call(
        'ZRANGEBYSCORE', due, '-inf', now, 'LIMIT', 0, batch))
    move_to_ready(claimed, claim_expiry, redis.call(
        'ZRANGEBYSCORE', claim_expiry, '-inf', now, 'LIMIT', 0, batch))
end
