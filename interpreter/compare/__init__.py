"""`tablier compare`: variants (or the values of one option) side by side, with honest statistics.

- `arms`: which arms, from the command line;
- `tally`: one arm's figures summed up from its games' lines;
- `stats`: intervals, two-sample tests, games needed (scipy);
- `core`: playing the arms and the `compare --json` object;
- `report`: the text table, the CSV and the HTML report with its plots (matplotlib).
"""
