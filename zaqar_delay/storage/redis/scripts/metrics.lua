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

count_claim(counted, now, due, created, bounds, first) adds one claimed
message to the table `counted` when it was delayed (unix seconds: due at
least a second after its whole-second creation time, which a message
posted without a delay, due in its post's second, never is):
bounds[first..] are the bucket bounds (ms). add_counts(metrics, counted)
writes the table: one HINCRBY a field, none for an empty table.
Work: O(buckets) a message, O(fields) a call.
--]]
local function count_in(counted, field, by)
    counted[field] = (counted[field] or 0) + by
end

local function count_claim(counted, now, due, created, bounds, first)
    if not due or not created or due < created + 1 then
        return
    end
    if now < due then
        count_in(counted, 'early', 1)
        return
    end
    local late = math.floor((now - due) * 1000 + 0.5)
    local field = 'ms:le:inf'
    for i = first, #bounds do
        if late <= tonumber(bounds[i]) then
            field = 'ms:le:' .. bounds[i]
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
