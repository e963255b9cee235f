--[[
Included by the scripts that count what they do for the metrics exporter
(not run on its own): the store's counters are one hash,

  metrics  zaqar_delay.metrics  hash: field -> count (``keys.METRICS``)

with the fields 'ms:le:<bound>' and 'ms:le:inf' (claims of delayed
messages by lateness bucket in milliseconds, not cumulative), 'ms:sum'
and 'ms:count' (their lateness in milliseconds, and how many), 'early'
(claimed before they were
due), 'released_backoff' (given back by a release with a retry backoff),
'expired_backoff' (given back with one after their claim expired: by
promote.lua) and 'dead_lettered' (``zaqar_delay.counts.Counted``).

count_claim(counted, now, due, created) adds one claimed message to the
table `counted` when it was delayed (unix seconds: due at least a second
after its whole-second creation time, which a message posted without a
delay, due in its post's second, never is), in the bucket of
CLAIM_BUCKETS_MS (ms, ascending: zaqar_delay.counts's, put in place of
the @buckets line below when a script is loaded).
add_counts(metrics, counted)
writes the table: one HINCRBY a field, none for an empty table.
Work: O(buckets) a message, O(fields) a call.
--]]
--- @buckets
local function count_in(counted, field, by)
    counted[field] = (counted[field] or 0) + by
end

local function count_claim(counted, now, due, created)
    if not due or not created or due < created + 1 then
        return
    end
    if now < due then
        count_in(counted, 'early', 1)
        return
    end
    local late = math.floor((now - due) * 1000 + 0.5)
    local field = 'ms:le:inf'
    for _, bound in ipairs(CLAIM_BUCKETS_MS) do
        if late <= bound then
            field = 'ms:le:' .. bound
            break
        end
    end
    count_in(counted, field, 1)
    count_in(counted, 'ms:sum', late)
    count_in(counted, 'ms:count', 1)
end

local function add_counts(metrics, counted)
    for field, by in pairs(counted) do
        redis.call('HINCRBY', metrics, field, by)
    end
end
