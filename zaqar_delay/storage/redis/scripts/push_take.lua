--[[
push_take: take the pushes that are due, for one dispatcher, for a lease.

KEYS[1]  zaqar_delay.pushes            zset due time (or lease expiry) ->
                                       push (<message id>/<queue>/<project>)
KEYS[2]  zaqar_delay.pushes.delivered  hash push -> the subscribers that
                                       answered 2xx for it (line feeds
                                       between), for pushes not done

ARGV[1] now     ARGV[2] limit     ARGV[3] lease expiry

Returns three arrays of the same length: the pushes taken, earliest due
first; for each its subscribers already delivered to (false: none); and
the score each had when taken (its due time, or a lapsed lease's end).
Each push stays in the set, scored at the lease expiry: a dispatcher
removes it when it has pushed it; if it dies first, the push is due
again at the lease expiry and any dispatcher takes it then. Work:
O(log n + limit).
--]]
--- @include "lease"
local pushes, delivered = KEYS[1], KEYS[2]
local taken, scores = lease(pushes, tonumber(ARGV[1]),
                           tonumber(ARGV[2]), tonumber(ARGV[3]))
if #taken == 0 then
    return {taken, {}, {}}
end
return {taken, redis.call('HMGET', delivered, unpack(taken)), scores}
