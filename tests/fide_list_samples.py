"""FIDE TXT rating lists written by hand for the list tests (unit, service and CLI): today's
combined list with FOA and the older one without, and lines as FIDE's own full lists have them
where a value is longer than its column. Each odd line is quoted from column 91 (1-based) under a
column ruler and the header, and the values the tests expect are read from there by hand.

FIDE's writer pads each value to its column's width and never cuts one, so a longer value pushes
the rest of its line to the right (another FIDE-list reader met it as ``'A1946'``: the ``NA`` of
``LSI,FI,SI,SLI,NA`` touching a rating 1946 on the list without FOA).
"""

from __future__ import annotations

# Today's combined list (players_list_foa.txt, 162 characters a line), written by hand: column
# starts as the header gives them (tests/data/README.md): ID 0, Name 15, Fed 76, Sex 80, Tit 84,
# WTit 89, OTit 94, FOA 109, SRtng 113, SGm 119, SK 123, RRtng 126, RGm 132, Rk 136, BRtng 139,
# BGm 145, BK 149, B-day 152, Flag 158. The third player has only a rapid rating and a FOA title.
COMBINED_FOA = """\
ID Number      Name                                                         Fed Sex Tit  WTit OTit           FOA SRtng SGm SK RRtng RGm Rk BRtng BGm BK B-day Flag
1503014        Carlsen, Magnus                                              NOR M   GM                           2831  9   10 2827  0   20 2886  21  20 1990      
13708694       Ju, Wenjun                                                   CHN F   GM   WGM                     2560  0   10 2487  11  20 2480  0   20 1991  w   
35093487       Online, Olga                                                 ESP F                            AIM              1610  7   40              2009  wi  
"""  # noqa: E501, W291

# The same players on an older combined list (players_list.txt, before the FOA column): every
# rating column starts 4 characters earlier (SRtng 109, RRtng 122, BRtng 135, B-day 148).
COMBINED_NO_FOA = """\
ID Number      Name                                                         Fed Sex Tit  WTit OTit           SRtng SGm SK RRtng RGm Rk BRtng BGm BK B-day Flag
1503014        Carlsen, Magnus                                              NOR M   GM                       2831  9   10 2827  0   20 2886  21  20 1990      
13708694       Ju, Wenjun                                                   CHN F   GM   WGM                 2560  0   10 2487  11  20 2480  0   20 1991  w   
35093487       Online, Olga                                                 ESP F                                         1610  7   40              2009  wi  
"""  # noqa: E501, W291

FOA_HEADER = COMBINED_FOA.splitlines()[0]
NO_FOA_HEADER = COMBINED_NO_FOA.splitlines()[0]

# OTit's 18 characters (columns 95-112) run 3 into FOA (column 110); FOA is blank and every
# column after it is 3 to the right: SRtng 1845 at 117, SGm 4 at 123, SK 20 at 127, RRtng 1790 at
# 130, RGm 0 at 136, Rk 20 at 140, BRtng blank, B-day 1968 at 156, Flag wi at 162.
#        100       110       120       130       140       150       160
# 1234567890123456789012345678901234567890123456789012345678901234567890123
# Tit OTit           FOA SRtng SGm SK RRtng RGm Rk BRtng BGm BK B-day Flag
#     IA,FA,IO,FST,DI,NA    1845  4   20 1790  0   20              1968  wi
RUN_ON = ("45000012       Referee, Rita                                                IRL F     "
          "        IA,FA,IO,FST,DI,NA    1845  4   20 1790  0   20              1968  wi")

# The same line with letters in the rating: after the shift, SRtng (column 117) says 18x5.
#        100       110       120
# 12345678901234567890123456789012
# Tit OTit           FOA SRtng SGm
#     IA,FA,IO,FST,DI,NA    18x5  4
BAD_RATING = RUN_ON.replace("1845", "18x5")

# The same line with one more blank before the rating: the run-on is 3 characters, but the rest
# is 4 to the right (SRtng 1845 at 118), where no shift of 0 to 3 puts a column.
#        100       110       120
# 123456789012345678901234567890123
# Tit OTit           FOA SRtng SGm
#     IA,FA,IO,FST,DI,NA     1845  4
NOWHERE = RUN_ON.replace("NA    1845", "NA     1845")

# OTit's 15 characters (columns 95-109) fill it exactly and FOA's AFM touches them (110-112):
# nothing moved. SRtng 2011 at 114, SGm 9 at 120, SK 20 at 124, BRtng 1987 at 140, BGm 3 at 146,
# BK 20 at 150, B-day 1979 at 153.
#        100       110       120       130       140       150
# 123456789012345678901234567890123456789012345678901234567890123456
# Tit OTit           FOA SRtng SGm SK RRtng RGm Rk BRtng BGm BK B-day Flag
#     IA,IO,FST,DI,NAAFM 2011  9   20              1987  3   20 1979
FILLS = ("45000020       Umpire, Ugo                                                  ITA M       "
         "      IA,IO,FST,DI,NAAFM 2011  9   20              1987  3   20 1979")

# On the list without FOA: OTit's 16 characters (95-110) run 1 into SRtng (column 110) and the
# rating touches them; the rest is 1 to the right: SRtng 1946 at 111, SGm 0 at 117, SK 20 at 121,
# B-day 1960 at 150.
#        100       110       120       130       140       150
# 12345678901234567890123456789012345678901234567890123456789012345678
# Tit OTit           SRtng SGm SK RRtng RGm Rk BRtng BGm BK B-day Flag
#     LSI,FI,SI,SLI,NA1946  0   20                           1960
TOUCHING = ("45000039       Linesman, Luis                                               ESP M    "
            "         LSI,FI,SI,SLI,NA1946  0   20                           1960")

# Flag w with a blank Sex (column 81), and Flag w with Sex M; SRtng 1702 and 1650 at 114.
#        100       110       120       130       140       150       160
# 123456789012345678901234567890123456789012345678901234567890123456789012
# Tit OTit           FOA SRtng SGm SK RRtng RGm Rk BRtng BGm BK B-day Flag
#                        1702  0   20                           1999  w
WOMAN = ("45000047       Blank, Bea                                                   SCO         "
         "                         1702  0   20                           1999  w")
#                        1650  0   20                           2001  w
WOMAN_M = ("45000055       Mixed, Max                                                   WLS M     "
           "                           1650  0   20                           2001  w")


def txt_list(*lines: str, header: str = FOA_HEADER) -> str:
    """A TXT list: ``header`` (default today's, with FOA), then ``lines``, each ended by LF."""
    return "".join(f"{line}\n" for line in (header, *lines))


def combined_with(line: str) -> str:
    """COMBINED_FOA with ``line`` as line 3, between Carlsen (line 2) and Ju Wenjun (line 4);
    Online, Olga is line 5."""
    header, carlsen, *rest = COMBINED_FOA.splitlines()
    return txt_list(carlsen, line, *rest, header=header)
