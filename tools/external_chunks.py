"""Reading tools/vs-gnubg-external.sh's output: the chunks' games and the mean with its 95%
confidence interval from their spread. Imported by external-summary.py, external-match-summary.py and external-compare.py
(run as `python3 tools/NAME.py`, which puts tools/ on the import path)."""
import glob
import json
import math
import os


def chunks(d):
    """The chunk files' contents of run directory d, in chunk order."""
    out = []
    for path in sorted(glob.glob(os.path.join(d, "chunk-*.json"))):
        with open(path) as f:
            out.append(json.load(f))
    return out


def games(d):
    """Every game of run directory d, in play order (a money run's; a run of matches has none)."""
    cs = chunks(d)
    if any("matches" in c for c in cs):
        raise SystemExit(d + ": a run of matches (EXT_MATCH); tools/external-match-summary.py sums it")
    return [g for c in cs for g in c["games"]]


def mean_ci(xs):
    """Mean of xs and the half-width of its 95% confidence interval (at least two values)."""
    m = sum(xs) / len(xs)
    var = sum((x - m) ** 2 for x in xs) / (len(xs) - 1)
    return m, 1.96 * math.sqrt(var / len(xs))


def error_rates(rows, side):
    """Side's moves and error rates as GNU Backgammon reports them, over rows (games or
    matches): mEMG per unforced move (checker) and per close cube decision (cube)."""
    tot = lambda k: sum(r[side][k] for r in rows)
    unforced, close = tot("unforced"), tot("close_cube")
    return {
        "moves": tot("moves"),
        "unforced": unforced,
        "close_cube": close,
        "checker_memg": round(1000 * tot("checker_error") / max(unforced, 1), 2),
        "cube_memg": round(1000 * tot("cube_error") / max(close, 1), 2),
    }
