--[[
Included by claim.lua and list.lua after index.lua (not run on its own).

promote(now, batch) moves at most `batch` waiting messages whose due time
is <= now into the ready set, and gives back at most `batch` claimed
messages whose claim expired (expiry <= now): ready, or waiting until the
claim's expiry plus their retry backoff (see give_back in index.lua).
Messages whose hash is gone (ttl ended, deleted) are dropped from the
index instead. Work: O(batch log n).
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

local function give_back_expired(ids, now)
    for i = 1, #ids, 2 do
        local mid, expired = ids[i], tonumber(ids[i + 1])
        local rank = redis.call('ZSCORE', claimed, mid)
        redis.call('ZREM', claimed, mid)
        redis.call('ZREM', claim_expiry, mid)
        if rank and redis.call('EXISTS', mid) == 1 then
            give_back(mid, rank, expired, now)
        end
    end
end

local function promote(now, batch)
    move_to_ready(waiting, due, redis.call(
        'ZRANGEBYSCORE', due, '-inf', now, 'LIMIT', 0, batch))
    give_back_expired(redis.call('ZRANGEBYSCORE', claim_expiry, '-inf', now,
                                 'WITHSCORES', 'LIMIT', 0, batch), now)
end
