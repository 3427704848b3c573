#!/usr/bin/env bash
# A small fictional club season: Riverside Chess Club, September and October 2026.
# Registers players in different K situations, imports the September tournament (PGN),
# types in the October club games, closes both rating periods, writes the list as a web page,
# a player's rating chart and the club's website beside the database, and prints the rating list.
# A blitz evening and a rapid evening in October are rated in the blitz and rapid pools, each
# with its own ratings and list.
# Usage: bash examples/club-season.sh [DB]   (default: a fresh examples/out/riverside.db)
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
db="${1:-$here/out/riverside.db}"
mkdir -p "$(dirname "$db")"
rm -f "$db" "$db-wal" "$db-shm"
export LEDGER_DB="$db"

ledger init
# K 10: a published rating has reached 2400
ledger player add "Okafor, Grace" --fide-id 90001001 --rating 2412 --prior-games 240 --title IM --federation IRL --sex F --birth-year 1994 --reached-2400 --rapid-rating 2380 --rapid-games 50 --blitz-rating 2350 --blitz-games 100 > /dev/null
# K 20: reached 2300 once, so no longer a K 40 player
ledger player add "Novak, Petra" --fide-id 90001002 --rating 2150 --prior-games 80 --federation IRL --sex F --birth-year 1990 --reached-2300 --rapid-rating 2120 --rapid-games 40 --blitz-rating 2100 --blitz-games 60 > /dev/null
# K 20: established adults
ledger player add "Lindqvist, Erik" --fide-id 90001003 --rating 1985 --prior-games 150 --federation SWE --sex M --birth-year 1979 --rapid-rating 1960 --rapid-games 100 --blitz-rating 1950 --blitz-games 90 > /dev/null
ledger player add "Byrne, Seán" --fide-id 90001004 --rating 1850 --prior-games 300 --federation IRL --sex M --birth-year 1968 --rapid-rating 1820 --rapid-games 150 --blitz-rating 1800 --blitz-games 200 > /dev/null
# K 40: fewer than 30 rated games (12 before the season, 17 after it)
ledger player add "Moreau, Claire" --fide-id 90001005 --rating 1740 --prior-games 12 --federation FRA --sex F --birth-year 1985 > /dev/null
# K 40: a junior (born 2011) under 2300
ledger player add "Tanaka, Hiro" --fide-id 90001006 --rating 1620 --prior-games 45 --federation IRL --sex M --birth-year 2011 > /dev/null
# Unrated: games against her are recorded but not rated for her opponents
ledger player add "Silva, Ana" --federation POR --sex F --birth-year 2001 > /dev/null

# September: the Riverside Autumn Open (round robin, one forfeit: recorded, never rated)
ledger import "$here/riverside-autumn-open-2026.pgn"

# October: club league games typed in
ledger game add "Okafor, Grace" "Lindqvist, Erik" 1-0 --date 2026-10-03 --event "Club League 2026-27" --round 1 > /dev/null
ledger game add "Byrne, Seán" "Novak, Petra" 1/2-1/2 --date 2026-10-03 --event "Club League 2026-27" --round 1 > /dev/null
ledger game add "Tanaka, Hiro" "Moreau, Claire" 1-0 --date 2026-10-03 --event "Club League 2026-27" --round 1 > /dev/null
ledger game add "Silva, Ana" "Byrne, Seán" 0-1 --date 2026-10-10 --event "Club League 2026-27" --round 2 > /dev/null
ledger game add "Moreau, Claire" "Okafor, Grace" ½-½ --date 2026-10-17 --event "Club League 2026-27" --round 3 > /dev/null
ledger game add "Lindqvist, Erik" "Tanaka, Hiro" 0-1 --date 2026-10-17 --event "Club League 2026-27" --round 3 > /dev/null
ledger game add "Novak, Petra" "Silva, Ana" +/- --date 2026-10-24 --event "Club League 2026-27" --round 4 > /dev/null

# October: the blitz evening (3 minutes + 2 seconds a move: the blitz pool)
ledger game add "Okafor, Grace" "Novak, Petra" 1-0 --date 2026-10-21 --event "Riverside Blitz Night" --round 1 --pool blitz > /dev/null
ledger game add "Lindqvist, Erik" "Byrne, Seán" 1/2-1/2 --date 2026-10-21 --event "Riverside Blitz Night" --round 1 --pool blitz > /dev/null
ledger game add "Novak, Petra" "Lindqvist, Erik" 1-0 --date 2026-10-21 --event "Riverside Blitz Night" --round 2 --pool blitz > /dev/null
ledger game add "Byrne, Seán" "Okafor, Grace" 0-1 --date 2026-10-21 --event "Riverside Blitz Night" --round 2 --pool blitz > /dev/null
ledger game add "Okafor, Grace" "Lindqvist, Erik" 1/2-1/2 --date 2026-10-21 --event "Riverside Blitz Night" --round 3 --time-control 3+2 > /dev/null
ledger game add "Novak, Petra" "Byrne, Seán" 1-0 --date 2026-10-21 --event "Riverside Blitz Night" --round 3 --pool blitz > /dev/null

# October: the rapid evening (15 minutes + 10 seconds a move: the rapid pool)
ledger game add "Okafor, Grace" "Byrne, Seán" 1-0 --date 2026-10-28 --event "Riverside Rapid" --round 1 --time-control 15+10 > /dev/null
ledger game add "Novak, Petra" "Lindqvist, Erik" 1/2-1/2 --date 2026-10-28 --event "Riverside Rapid" --round 1 --pool rapid > /dev/null
ledger game add "Lindqvist, Erik" "Okafor, Grace" 0-1 --date 2026-10-28 --event "Riverside Rapid" --round 2 --pool rapid > /dev/null
ledger game add "Byrne, Seán" "Novak, Petra" 0-1 --date 2026-10-28 --event "Riverside Rapid" --round 2 --pool rapid > /dev/null

ledger period close 2026-09
# closes the three pools that have games in October: standard, rapid and blitz, each with its own list
ledger period close 2026-10
# The list as a page for the club's website, and Tanaka's rating history as a chart
out="$(dirname "$db")"
ledger list --format html --club "Riverside Chess Club" --output "$out/riverside-list.html"
ledger history "Tanaka" --chart "$out/tanaka.png" > /dev/null
# The club's website: lists, players and tournaments as static pages (open site/index.html)
ledger site build "$out/site" --club "Riverside Chess Club" > /dev/null
ledger list
ledger list --pool rapid
ledger list --pool blitz
