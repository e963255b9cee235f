--[[
schedule_take: take the queues whose schedules are due, for one
dispatcher, for a lease.

KEYS[1]  zaqar_delay.schedules   zset next look (or lease expiry) ->
                                 <queue>/<project>

ARGV[1] now     ARGV[2] limit     ARGV[3] lease expiry

Returns the members taken, earliest first. Each stays in the set, scored
at the lease expiry: the dispatcher rescores it at its next look when
it has posted its ticks; if it dies first, the queue is due again at the
lease expiry and any dispatcher takes it then. Work: O(log n + limit).
--]]
--- @include "lease"
local schedules = KEYS[1]
return lease(schedules, tonumber(ARGV[1]), tonumber(ARGV[2]),
             tonumber(ARGV[3]))
