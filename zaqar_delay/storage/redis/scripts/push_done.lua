--[[
push_done: forget pushes that were made, and record their attempts in
the history of messages that keep one, in one atomic step.

KEYS[1]    zaqar_delay.pushes            zset due time -> push
KEYS[2]    zaqar_delay.pushes.delivered  hash push -> subscribers
KEYS[3..]  two per push: its message's hash (the message id) and its
           queue's history stream (see history.lua)

ARGV[1..]  per push, in the order of KEYS: the push (<message id>/
           <queue>/<project>), the number n of its attempts, then n
           triples: when the attempt started (unix seconds), the
           subscriber, its status ('' for no answer)

Each push leaves the set and the hash. Each attempt is appended to the
stream as a 'pushed' event (subscriber, status) when the message's hash
still exists and keeps history ('h' above 0): whether or not the push
was still this dispatcher's (the attempt was made). Returns nothing.
Work: O(log n) per push, O(1) amortized per attempt.
--]]
--- @include "history"
local pushes, delivered = KEYS[1], KEYS[2]

local at = 1
for i = 3, #KEYS, 2 do
    local message, log = KEYS[i], KEYS[i + 1]
    local push, count = ARGV[at], tonumber(ARGV[at + 1])
    at = at + 2
    redis.call('ZREM', pushes, push)
    redis.call('HDEL', delivered, push)
    local keep = count > 0 and redis.call('HGET', message, 'h')
    if keep then
        for j = at, at + 3 * (count - 1), 3 do
            record(log, keep, tonumber(ARGV[j]), message, 'pushed',
                   {'subscriber', ARGV[j + 1], 'status', ARGV[j + 2]})
        end
    end
    at = at + 3 * count
end
