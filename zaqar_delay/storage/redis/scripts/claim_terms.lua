--[[
Included by claim and renew after index (not run on its own): names a
claim's keys and its terms, the same in both scripts' KEYS and ARGV.

  KEYS[7]  claims      <project>.<queue>.claims  zset claim expiry -> claim id
  KEYS[8]  claim_hash  <claim id>                hash: id, t, e, n, and cm:
                                                 when it was made or last
                                                 renewed (milliseconds)
  KEYS[9]  claim_list  messages.<claim id>       list of claimed message ids

  ARGV[1] now (unix seconds, to the millisecond)
  ARGV[2] claim id       ARGV[3] claim ttl      ARGV[4] claim expiry
  ARGV[5] message ttl    ARGV[6] message expiry
  (expiries are whole seconds, as upstream writes them)
--]]
local claims, claim_hash, claim_list = KEYS[7], KEYS[8], KEYS[9]
local now = tonumber(ARGV[1])
local claim_id = ARGV[2]
local claim_ttl = tonumber(ARGV[3])
local claim_expires = tonumber(ARGV[4])
local msg_ttl = tonumber(ARGV[5])
local msg_expires = tonumber(ARGV[6])
