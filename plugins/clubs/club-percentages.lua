-- Clubreglement: the matchpoints of a board as a percentage instead of the
-- 2-per-score-beaten scale of Art. 78A. A score that beats every other gets
-- 100, one that beats none and equals none gets 0, ties share, and the
-- percentage is rounded half up to a whole number. A board played once
-- scores 50.
return {
  api = 1,
  name = "Clubscore in procenten",
  cite = "Clubreglement parenwedstrijden art. 7",
  matchpoints = function(beaten, equalled, others, mp)
    if others == 0 then return 50 end
    -- 100 * (2 * beaten + equalled) / (2 * others), rounded half up
    return (100 * (2 * beaten + equalled) + others) // (2 * others)
  end,
}
