--[[
push_delivered: record, per push not done yet, the subscribers that
answered it with a 2xx.

KEYS[1]    zaqar_delay.pushes.delivered  hash push -> subscribers
ARGV[1..]  pairs: the push (<message id>/<queue>/<project>) and its
           subscribers delivered to (pending.join_subscribers)

Returns nothing. Work: O(1) per pair.
--]]
local delivered = KEYS[1]
for i = 1, #ARGV, 2 do
    redis.call('HSET', delivered, ARGV[i], ARGV[i + 1])
end
