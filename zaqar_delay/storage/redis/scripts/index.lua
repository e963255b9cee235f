--[[
Included first by every script of this folder (not run on its own):
names the queue index keys, the same six first in every script's KEYS
(``keys.Index`` on the Python side).

  KEYS[1]  messages      <project>.<queue>.messages            zset rank -> id (all)
  KEYS[2]  ready         <project>.<queue>.delay.ready         zset rank -> id
  KEYS[3]  waiting       <project>.<queue>.delay.waiting       zset rank -> id
  KEYS[4]  due           <project>.<queue>.delay.due           zset due time -> id
  KEYS[5]  claimed       <project>.<queue>.delay.claimed       zset rank -> id
  KEYS[6]  claim_expiry  <project>.<queue>.delay.claim_expiry  zset claim expiry -> id
--]]
local messages, ready, waiting, due, claimed, claim_expiry =
    KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5], KEYS[6]
-- The sets this driver adds, and all six: a message leaves all six when
-- it goes, and only the own ones when its state changes.
local own_sets = {ready, waiting, due, claimed, claim_expiry}
local index_sets = {messages, ready, waiting, due, claimed, claim_expiry}
