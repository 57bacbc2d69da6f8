"""`tablier compare`: variants (or the values of one option) side by side, with honest statistics.

- `arms`: which arms, from the command line;
- `tally`: one arm's figures summed up from its games' lines;
- `playout`: the playout metrics of `--metrics` over many lines (no scipy: `simulate` uses it);
- `stats`: intervals, two-sample tests, games needed (scipy);
- `core`: playing the arms and the `compare --json` object;
- `report`: the text table and the CSV;
- `html`: the HTML report, for the screen and for print (A4);
- `figures`: its plots (matplotlib), also written as SVG and PDF by `--figures DIR`.
"""
