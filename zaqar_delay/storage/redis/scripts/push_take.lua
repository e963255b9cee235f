--[[
push_take: take the pushes that are due, for one dispatcher, for a lease.

KEYS[1]  zaqar_delay.pushes            zset due time (or lease expiry) ->
                                       push (<message id>/<queue>/<project>)
KEYS[2]  zaqar_delay.pushes.delivered  hash push -> the subscribers that
                                       answered 2xx for it (line feeds
                                       between), for pushes not done

ARGV[1] now     ARGV[2] limit     ARGV[3] lease expiry

Returns two arrays of the same length: the pushes taken, earliest due
first, and for each its subscribers already delivered to (false: none).
Each push stays in the set, scored at the lease expiry: a dispatcher
removes it when it has pushed it; if it dies first, the push is due
again at the lease expiry and any dispatcher takes it then. Work:
O(log n + limit).
--]]
local pushes = KEYS[1]
local delivered = KEYS[2]
local now = tonumber(ARGV[1])
local limit = tonumber(ARGV[2])
local lease_expires = tonumber(ARGV[3])

local taken = redis.call('ZRANGEBYSCORE', pushes, '-inf', now,
                         'LIMIT', 0, limit)
if #taken == 0 then
    return {taken, {}}
end
for _, push in ipairs(taken) do
    redis.call('ZADD', pushes, lease_expires, push)
end
return {taken, redis.call('HMGET', delivered, unpack(taken))}
