--[[
Included by push_take and schedule_take (not run on its own).

lease(key, now, limit, expires): the members of the sorted set ``key``
scored at or before ``now``, earliest first, at most ``limit``, and
their scores as they were (a second array, same order); each stays in
the set, scored at ``expires`` (the taker's lease): if the taker dies
before it is done with one, the member is due again then.
Work: O(log n + limit).
--]]
local function lease(key, now, limit, expires)
    local found = redis.call('ZRANGEBYSCORE', key, '-inf', now,
                             'WITHSCORES', 'LIMIT', 0, limit)
    local taken, scores = {}, {}
    for i = 1, #found, 2 do
        taken[#taken + 1] = found[i]
        scores[#scores + 1] = found[i + 1]
        redis.call('ZADD', key, expires, found[i])
    end
    return taken, scores
end
