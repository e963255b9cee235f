--[[
Included by claim.lua and list.lua (not run on its own).

Queue index keys, the same six in every script of this folder:
  KEYS[1]  <project>.<queue>.messages            zset rank -> id (all)
  KEYS[2]  <project>.<queue>.delay.ready         zset rank -> id
  KEYS[3]  <project>.<queue>.delay.waiting       zset rank -> id
  KEYS[4]  <project>.<queue>.delay.due           zset due time -> id
  KEYS[5]  <project>.<queue>.delay.claimed       zset rank -> id
  KEYS[6]  <project>.<queue>.delay.claim_expiry  zset claim expiry -> id

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
            redis.call('ZADD', KEYS[2], rank, mid)
        end
    end
end

local function promote(now, batch)
    move_to_ready(KEYS[3], KEYS[4], redis.call(
        'ZRANGEBYSCORE', KEYS[4], '-inf', now, 'LIMIT', 0, batch))
    move_to_ready(KEYS[5], KEYS[6], redis.call(
        'ZRANGEBYSCORE', KEYS[6], '-inf', now, 'LIMIT', 0, batch))
end
