--[[
Included by push_take and schedule_take (not run on its own).

lease(key, now, limit, expires): the members of the sorted set ``key``
scored at or before ``now``, earliest first, at most ``limit``; each
stays in the set, scored at ``expires`` (the taker's lease): if the
taker dies before it is done with one, the member is due again then.
Work: O(log n + limit).
--]]
local function lease(key, now, limit, expires)
    local taken = redis.call('ZRANGEBYSCORE', key, '-inf', now,
                             'LIMIT', 0, limit)
    for _, member in ipairs(taken) do
        redis.call('ZADD', key, expires, member)
    end
    return taken
end
