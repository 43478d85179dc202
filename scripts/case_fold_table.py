#!/usr/bin/env python3
"""Prints the table of common/src/case_fold.cpp: Unicode's simple case folding (CaseFolding.txt,
status C and S) as runs of code points that fold by the same offset, every `step` code points
(1, or 2 for the alternating capital/small pairs of Latin Extended, Cyrillic, ...).

Python's own Unicode data is the source (its version is printed in the table's comment):
scripts/case_fold_table.py > /tmp/table.txt, then paste it over the table."""
import sys
import unicodedata


def simple_fold(c):
    # Full folding (C and F) where it gives one character is the C mapping; where it gives more
    # (F: "ß" to "ss"), the S mapping is the lower case when that is one character; otherwise
    # the character folds to itself (CaseFolding.txt's T lines, Turkish dotted I, are left out).
    full = c.casefold()
    if len(full) == 1:
        return full
    lower = c.lower()
    return lower if len(lower) == 1 else c


runs = []  # [first, last, delta, step]
for cp in range(0x110000):
    if 0xD800 <= cp <= 0xDFFF:
        continue
    to = simple_fold(chr(cp))
    if to == chr(cp):
        continue
    delta = ord(to) - cp
    if runs and runs[-1][2] == delta:
        first, last, _, step = runs[-1]
        if first == last and cp - last in (1, 2):
            runs[-1] = [first, cp, delta, cp - last]
            continue
        if first != last and cp - last == step:
            runs[-1][1] = cp
            continue
    runs.append([cp, cp, delta, 1])

out = sys.stdout
out.write(f"// Unicode {unicodedata.unidata_version} simple case folding (C and S), {len(runs)} runs: "
          "scripts/case_fold_table.py.\n")
out.write("constexpr FoldRun kFoldRuns[] = {\n")
line = "   "
for first, last, delta, step in runs:
    item = f" {{0x{first:04X}, 0x{last:04X}, {delta}, {step}}},"
    if len(line) + len(item) > 118:
        out.write(line + "\n")
        line = "   "
    line += item
out.write(line + "\n};\n")
