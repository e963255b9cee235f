--[[
Included by claim.lua and list.lua after index.lua, history.lua and
metrics.lua (not run on its own).

promote(now, batch, log, counted) moves at most `batch` waiting messages
whose due time is <= now into the ready set (from the chunk that comes
due first, then the next, see index.lua), and gives back at most
`batch` claimed messages whose claim expired (expiry <= now): ready, or
waiting until the claim's expiry plus their retry backoff (see give_back
in index.lua). Messages whose hash is gone (ttl ended, deleted) are
dropped from the index instead. Gives back and expiries are recorded in
the history stream `log` (history.lua); those given back with a backoff
wait are counted in the table `counted` ('expired_backoff', metrics.lua),
which the calling script writes. Work: O(batch log n).
--]]
-- Removes ``mid`` from a state's two sets; its rank when it was there
-- and its hash still exists, else false (one found gone is recorded).
local function taken_out(from_rank, from_time, mid, log, now)
    local rank = redis.call('ZSCORE', from_rank, mid)
    redis.call('ZREM', from_rank, mid)
    redis.call('ZREM', from_time, mid)
    if rank and redis.call('EXISTS', mid) == 1 then
        return rank
    end
    if rank then
        record_gone(log, now, mid)
    end
    return false
end

-- Moves at most `batch` waiting messages due by `now` to ready; each
-- chunk visited has one due (chunk_changed keeps `due` exact).
local function promote_waiting(now, batch, log)
    local moved, visits = 0, 0
    while moved < batch and visits < batch do
        local c = redis.call('ZRANGEBYSCORE', due, '-inf', now,
                             'LIMIT', 0, 1)[1]
        if not c then
            return
        end
        visits = visits + 1
        local key = chunk_key(c)
        local ranks = redis.call('ZRANGEBYSCORE', key, '-inf', now,
                                 'LIMIT', 0, batch - moved)
        for _, rank in ipairs(ranks) do
            local mid = id_of(rank)
            redis.call('ZREM', key, rank)
            if mid and redis.call('EXISTS', mid) == 1 then
                make_ready(rank)
            elseif mid then
                record_gone(log, now, mid)
            end
        end
        moved = moved + #ranks
        if redis.call('DECRBY', waiting_count, #ranks) <= 0 then
            redis.call('DEL', waiting_count)
        end
        chunk_changed(c)
    end
end

local function give_back_expired(ids, now, log, counted)
    for i = 1, #ids, 2 do
        local mid, expired = ids[i], tonumber(ids[i + 1])
        local rank = taken_out(claimed, claim_expiry, mid, log, now)
        if rank then
            local held = redis.call('HMGET', mid, 'c', 'h')
            local wait = give_back(mid, rank, expired, now)
            record(log, held[2], expired, mid, 'claim_expired',
                   {'claim', held[1] or '', 'wait', wait})
            if wait > 0 then
                count_in(counted, 'expired_backoff', 1)
            end
        end
    end
end

local function promote(now, batch, log, counted)
    promote_waiting(now, batch, log)
    give_back_expired(redis.call('ZRANGEBYSCORE', claim_expiry, '-inf', now,
                                 'WITHSCORES', 'LIMIT', 0, batch), now, log,
                      counted)
end
