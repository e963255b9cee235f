--[[
Included by the scripts that return messages (claim, list; not run on
its own): hashes(ids), per id whose hash exists, the values of the
fields CLAIMED_FIELDS, which zaqar_delay.storage.redis.records defines
(records.CLAIMED_FIELDS) and puts in place of the @claimed_fields line
below when a script is loaded; nil for a field the message lacks.
FIELD[name] is a field's place in CLAIMED_FIELDS. READ is what a claim
reads of a message: CLAIMED_FIELDS, then its history switch 'h' (at
H) and its backoff 'rb' (at RB); a list reads READ up to H.
--]]
--- @claimed_fields
local FIELD = {}
for i, name in ipairs(CLAIMED_FIELDS) do
    FIELD[name] = i
end
local READ = {unpack(CLAIMED_FIELDS)}
local H, RB = #READ + 1, #READ + 2
READ[H], READ[RB] = 'h', 'rb'
local function hashes(ids)
    local found = {}
    for _, mid in ipairs(ids) do
        local values = redis.call('HMGET', mid, unpack(CLAIMED_FIELDS))
        if values[1] then
            found[#found + 1] = values
        end
    end
    return found
end
