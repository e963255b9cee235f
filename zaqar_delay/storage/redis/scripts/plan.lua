--[[
Included by post.lua and claim.lua (not run on its own): whether a plan
made with a queue's metadata as last seen (``metadata.py``) still holds.

stale_plan(queue_hash, checked, packed) is nil when `checked` is not
'1' or `packed` is the queue's metadata (field 'm' of `queue_hash`,
'' for none), else the script's reply {STALE_PLAN, the queue's packed
metadata}, with which it must return having changed nothing.
Work: O(1).
--]]
-- The reply code of a plan made with other metadata (metadata.py).
local STALE_PLAN = 0

local function stale_plan(queue_hash, checked, packed)
    if checked ~= '1' then
        return nil
    end
    local metadata = redis.call('HGET', queue_hash, 'm') or ''
    if metadata ~= packed then
        return {STALE_PLAN, metadata}
    end
    return nil
end
