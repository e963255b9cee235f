--[[
Included by the scripts that change messages, after index.lua (not run
on its own): writes a message's events into its queue's history stream,
in the same atomic step as the change (see history.py).

  history  zaqar_delay.history.<n>:<project>.<queue>  stream, one entry
           per event: m <message id>, k <kind>, t <now, whole seconds>,
           the kind's fields

record(log, keep, now, mid, kind, fields) appends an entry when keep (the
message's _history_ttl, hash field 'h', written by post.lua) is above 0:
otherwise it does nothing. Entries older than keep seconds are trimmed
(MINID ~, whole nodes at a time) and the stream expires keep seconds
after its last entry (the largest keep of the script's entries: one
EXPIRE per stream and script, not one per entry). record_gone(log, now, mid) records the expiry of a
message whose hash is gone (its 'h' with it): only while the stream
lives, without extending it. Work: O(1) amortized per entry.
--]]
local history_kept = {}

local function record(log, keep, now, mid, kind, fields)
    keep = tonumber(keep) or 0
    if keep <= 0 then
        return
    end
    redis.call('XADD', log, 'MINID', '~',
               string.format('%d', (now - keep) * 1000), '*',
               'm', mid, 'k', kind, 't', string.format('%d', now),
               unpack(fields))
    if (history_kept[log] or 0) < keep then
        redis.call('EXPIRE', log, keep)
        history_kept[log] = keep
    end
end

local function record_gone(log, now, mid)
    if redis.call('TTL', log) > 0 then
        redis.call('XADD', log, '*', 'm', mid, 'k', 'expired',
                   't', string.format('%d', now), 'count', '')
    end
end
