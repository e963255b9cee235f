--[[
Included first by every script of this folder (not run on its own):
names the queue index keys, the same six first in every script's KEYS
(``keys.Index`` on the Python side).

  KEYS[1]  messages      <project>.<queue>.messages            zset rank -> id (all)
  KEYS[2]  ready         <project>.<queue>.delay.ready         zset rank -> id (before
                                                               ready chunks: below)
  KEYS[3]  waiting       <project>.<queue>.delay.wait          zset chunk -> chunk
  KEYS[4]  due           <project>.<queue>.delay.wait_due      zset min due time -> chunk
  KEYS[5]  claimed       <project>.<queue>.delay.claimed       zset rank -> id
  KEYS[6]  claim_expiry  <project>.<queue>.delay.claim_expiry  zset claim expiry -> id

Waiting (delayed) messages are kept in chunks of CHUNK ranks, so that
each chunk stays in redis's compact sorted set encoding: chunk c holds
ranks c * CHUNK .. c * CHUNK + CHUNK - 1 in the sorted set
chunk_key(c) (member: rank, score: due time). ``waiting`` lists the
chunks that hold any (score: c), ``due`` the same chunks scored by
their earliest due time, and count_key() (a string) counts the waiting
messages. A waiting message's id is its rank's member in ``messages``.

Ready messages are in chunks of the same ranks: chunk_key(c, ready)
(member and score: the rank's offset in the chunk, rank - c * CHUNK,
the smallest a compact entry gets), listed by list_key(ready) (score:
c) and counted by count_key(ready). ``ready`` itself is the rank -> id set
that versions before ready chunks kept: still read and emptied (claims,
lists, deletes), never added to; ``migrate`` empties it.

The only keys a script touches that are not in its KEYS:
  - message hashes, named by the ids the index sets hold (upstream's
    layout);
  - chunk_key(c, w) = <w>CHUNK_INFIX<c>, count_key(w) =
    <w>WAITING_COUNT and list_key(r) = <r>CHUNK_LIST, w being KEYS[3]
    (or KEYS[2], ready chunks) or another queue's ``waiting`` or
    ``ready`` given in KEYS (move.lua, dead_letter.lua); built by these
    three functions only.
CHUNK, CHUNK_INFIX, WAITING_COUNT and CHUNK_LIST are defined in keys.py
only: the @layout line below is replaced by them when a script is
loaded (scripting.py).
--]]
local messages, ready, waiting, due, claimed, claim_expiry =
    KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5], KEYS[6]
--- @layout
-- The sets holding message ids: a message leaves them all when it goes
-- (and its waiting entry, see unwait), and the own ones when its state
-- changes.
local own_sets = {ready, claimed, claim_expiry}
local index_sets = {messages, ready, claimed, claim_expiry}

-- The keys of chunk c and of the count, of this queue (`waiting`) or
-- of another queue's `waiting` key w given with them.
local function chunk_key(c, w)
    return (w or waiting) .. CHUNK_INFIX .. c
end

local function count_key(w)
    return (w or waiting) .. WAITING_COUNT
end

local function list_key(r)
    return (r or ready) .. CHUNK_LIST
end

local waiting_count = count_key()
local ready_chunks, ready_count = list_key(), count_key(ready)

-- Times are unix seconds to the millisecond. A message keeps its due
-- time in its hash twice: 'd', whole seconds (upstream's field: the
-- second the due time ends in, so that upstream's driver never delivers
-- it early), and 'dm', milliseconds; one without 'dm' (written before)
-- is due at 'd', one without either is due.
local function ms(t)
    return math.floor(t * 1000 + 0.5)
end

local function due_of(d, dm)
    if dm then
        return tonumber(dm) / 1000
    end
    return tonumber(d)
end

local function set_due(mid, due_at)
    local m = ms(due_at)
    redis.call('HSET', mid, 'd', string.format('%d', math.ceil(m / 1000)),
               'dm', string.format('%d', m))
    return m / 1000
end

local function chunk_of(rank)
    return string.format('%d', math.floor(tonumber(rank) / CHUNK))
end

-- Keeps chunk c's entries in `waiting` and `due` true to what it holds.
local function chunk_changed(c)
    local first = redis.call('ZRANGE', chunk_key(c), 0, 0, 'WITHSCORES')
    if #first == 0 then
        redis.call('ZREM', waiting, c)
        redis.call('ZREM', due, c)
    else
        redis.call('ZADD', due, first[2], c)
    end
end

-- Makes the message of `rank` wait until `due_at`, in this queue or in
-- another queue whose `waiting` and `due` keys (w, d) are given
-- (move.lua).
local function wait_until(rank, due_at, w, d)
    w, d = w or waiting, d or due
    local c = chunk_of(rank)
    if redis.call('ZADD', chunk_key(c, w), due_at,
                  string.format('%d', rank)) == 1 then
        redis.call('INCR', count_key(w))
    end
    redis.call('ZADD', w, c, c)
    local earliest = redis.call('ZSCORE', d, c)
    if not earliest or tonumber(due_at) < tonumber(earliest) then
        redis.call('ZADD', d, due_at, c)
    end
end

-- Takes the message of `rank` out of the waiting ones; true if it was
-- there.
local function unwait(rank)
    local c = chunk_of(rank)
    if redis.call('ZREM', chunk_key(c), string.format('%d', rank)) == 0 then
        return false
    end
    if redis.call('DECR', waiting_count) <= 0 then
        redis.call('DEL', waiting_count)
    end
    chunk_changed(c)
    return true
end

-- The id of the message of `rank` (false when it left `messages`).
local function id_of(rank)
    return redis.call('ZRANGEBYSCORE', messages, rank, rank,
                      'LIMIT', 0, 1)[1] or false
end

-- The offset of `rank` in its chunk c: a ready chunk's member and score.
local function offset_in(rank, c)
    return string.format('%d', tonumber(rank) - tonumber(c) * CHUNK)
end

-- Makes the message of `rank` ready, in this queue or in another queue
-- whose `ready` key r is given (move.lua, dead_letter.lua).
local function make_ready(rank, r)
    r = r or ready
    local c = chunk_of(rank)
    local offset = offset_in(rank, c)
    if redis.call('ZADD', chunk_key(c, r), offset, offset) == 1 then
        redis.call('INCR', count_key(r))
        redis.call('ZADD', list_key(r), c, c)
    end
end

-- Takes the message of `rank` (and id `mid`, if known) out of the
-- ready ones, chunked or in the earlier versions' `ready`; true if it
-- was there.
local function unready(rank, mid)
    local c = chunk_of(rank)
    local key = chunk_key(c, ready)
    if redis.call('ZREM', key, offset_in(rank, c)) == 1 then
        if redis.call('DECR', ready_count) <= 0 then
            redis.call('DEL', ready_count)
        end
        if redis.call('EXISTS', key) == 0 then
            redis.call('ZREM', ready_chunks, c)
        end
        return true
    end
    return mid and redis.call('ZREM', ready, mid) == 1 or false
end

-- Adds to `found` ({rank, id or false}, unsorted) the first `want`
-- ready messages after rank `after` (false: from the first), chunked
-- and in the earlier versions' `ready`: at most want + 1 chunks read,
-- the first may hold none after it, every later one holds one.
-- Work: O(log n + want log n).
local function ready_after(found, after, want)
    local from = after and '(' .. after or '-inf'
    local first = after and chunk_of(after)
    local chunks = redis.call('ZRANGEBYSCORE', ready_chunks,
                              first or '-inf', '+inf', 'LIMIT', 0, want + 1)
    local taken = 0
    for _, c in ipairs(chunks) do
        local low = '-inf'
        if c == first then
            low = '(' .. offset_in(after, c)
        end
        local offsets = redis.call('ZRANGEBYSCORE', chunk_key(c, ready), low,
                                   '+inf', 'LIMIT', 0, want - taken)
        for _, offset in ipairs(offsets) do
            local rank = tonumber(c) * CHUNK + tonumber(offset)
            found[#found + 1] = {rank, id_of(rank)}
        end
        taken = taken + #offsets
        if taken >= want then
            break
        end
    end
    local old = redis.call('ZRANGEBYSCORE', ready, from, '+inf',
                           'WITHSCORES', 'LIMIT', 0, want)
    for i = 1, #old, 2 do
        found[#found + 1] = {tonumber(old[i + 1]), old[i]}
    end
end

-- Takes the message of `rank` out of every set of the index but
-- `messages` (ready, waiting or claimed).
local function unindex_own(rank, mid)
    unwait(rank)
    unready(rank, mid)
    for _, set in ipairs(own_sets) do
        redis.call('ZREM', set, mid)
    end
end

-- A message a claim gives back at `since` (released then, or its claim
-- expired then) is ready, or, with a retry backoff 'rb' (seconds, written
-- by claim.lua), waiting until since + rb if that is after `now`.
-- Returns the backoff wait (0: none): due again at since + wait.
local function give_back(mid, rank, since, now)
    local wait = tonumber(redis.call('HGET', mid, 'rb') or 0)
    redis.call('HDEL', mid, 'rb')
    if wait > 0 and since + wait > now then
        wait_until(rank, set_due(mid, since + wait))
    else
        make_ready(rank)
    end
    return wait
end
