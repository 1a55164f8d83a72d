#!/bin/sh
# A broken Gomocup brain for the match tests (tests/gomoku_match.rs): it
# answers ABOUT and START properly, then fails at its first move request
# (BEGIN, TURN, or the DONE of BOARD) the way its argument says:
#   garbage   a MESSAGE line, then a line that is no move
#   occupied  7,7 at every move (taken by its own first one at the latest)
#   offboard  99,99
#   error     ERROR cannot play
#   crash     exits
#   hang      never answers
#   info      ERROR with the INFO lines it was sent since START, newest first
fault="$1"
seen=""
while IFS= read -r line; do
  line=$(printf '%s' "$line" | tr -d '\r')
  case "$line" in
    ABOUT*) echo 'name="broken", version="1"' ;;
    START*|RECTSTART*) seen=""; echo OK ;;
    INFO\ time_left*) ;;
    INFO*) seen="[$line]$seen" ;;
    BEGIN*|TURN*|DONE*)
      case "$fault" in
        garbage) echo "MESSAGE thinking"; echo "hello there" ;;
        occupied) echo "7,7" ;;
        offboard) echo "99,99" ;;
        error) echo "ERROR cannot play" ;;
        crash) exit 3 ;;
        hang) exec sleep 60 ;;
        info) echo "ERROR saw $seen" ;;
      esac ;;
  esac
done
