--[[
Included first by every script of this folder (not run on its own):
names the queue index keys, the same six first in every script's KEYS
(``keys.Index`` on the Python side).

  KEYS[1]  messages      <project>.<queue>.messages            zset rank -> id (all)
  KEYS[2]  ready         <project>.<queue>.delay.ready         zset rank -> id
  KEYS[3]  waiting       <project>.<queue>.delay.waiting       zset rank -> id
  KEYS[4]  due           <project>.<queue>.delay.due           zset due time -> id
  KEYS[5]  claimed       <project>.<queue>.delay.claimed       zset rank -> id
  KEYS[6]  claim_expiry  <project>.<queue>.delay.claim_expiry  zset claim expiry -> id
--]]
local messages, ready, waiting, due, claimed, claim_expiry =
    KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5], KEYS[6]
-- The sets this driver adds, and all six: a message leaves all six when
-- it goes, and only the own ones when its state changes.
local own_sets = {ready, waiting, due, claimed, claim_expiry}
local index_sets = {messages, ready, waiting, due, claimed, claim_expiry}

-- A message a claim gives back at `since` (released then, or its claim
-- expired then) is ready, or, with a retry backoff 'rb' (seconds, written
-- by claim.lua), waiting until since + rb if that is after `now`.
-- Returns the backoff wait (0: none): due again at since + wait.
local function give_back(mid, rank, since, now)
    local wait = tonumber(redis.call('HGET', mid, 'rb') or 0)
    redis.call('HDEL', mid, 'rb')
    if wait > 0 and since + wait > now then
        redis.call('HSET', mid, 'd', since + wait)
        redis.call('ZADD', waiting, rank, mid)
        redis.call('ZADD', due, since + wait, mid)
    else
        redis.call('ZADD', ready, rank, mid)
    end
    return wait
end
