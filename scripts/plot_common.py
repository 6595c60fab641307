"""scripts/plot_common.py: what scripts/plot-convergence and scripts/perf-profile
share: errors with exit 2, gnuplot's terminals, and output that appears whole or
not at all (gnuplot writes temporary files, renamed when it succeeded)."""
import os
import shutil
import subprocess
import sys
import tempfile


class BadInput(Exception):
    """Bad usage or input: the script prints the message and exits 2."""


def die(prog, msg, usage):
    print(f"{prog}: {msg}", file=sys.stderr)
    if usage:
        print(usage, file=sys.stderr)
    sys.exit(2)


def gnuplot_quote(s):
    """A gnuplot string literal (single quotes: no escapes but '')."""
    return "'" + str(s).replace("'", "''") + "'"


def png_terminal(gnuplot):
    """pngcairo where this gnuplot has it, else the libgd png terminal."""
    r = subprocess.run([gnuplot, "-e", "set terminal pngcairo"], capture_output=True, text=True)
    return "pngcairo" if r.returncode == 0 and not r.stderr.strip() else "png"


def render(prefix, body, width=900, height=450, gnuplot=None):
    """Runs the gnuplot commands `body` once for PNG and once for SVG, and
    renames the results to PREFIX.png and PREFIX.svg only when both were
    drawn.  Returns the two paths."""
    gnuplot = gnuplot or os.environ.get("GNUPLOT", "gnuplot")
    if not shutil.which(gnuplot):
        raise BadInput(f"{gnuplot} not found: install gnuplot (scripts/install-deps: gnuplot-nox)")
    outdir = os.path.dirname(os.path.abspath(prefix))
    if not os.path.isdir(outdir):
        raise BadInput(f"{outdir}: no such folder for the output")
    png = png_terminal(gnuplot)
    font = "font 'Sans,10'" if png == "pngcairo" else ""
    terms = {
        "png": f"set terminal {png} size {width},{height} noenhanced {font}",
        "svg": f"set terminal svg size {width},{height} noenhanced dynamic font 'Sans,11' background '#ffffff'",
    }
    # tab10: eight colours that stay apart on white (gnuplot's 5th default is a pale yellow)
    colours = ["#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#17becf"]
    body = "".join(f"set linetype {k + 1} lc rgb '{c}'\n" for k, c in enumerate(colours)) + \
        "set linetype cycle 8\n" + body
    tmps = {}
    try:
        for ext, term in terms.items():
            fd, tmp = tempfile.mkstemp(prefix=f".{os.path.basename(prefix)}.", suffix=f".{ext}", dir=outdir)
            os.close(fd)
            tmps[ext] = tmp
            script = f"{term}\nset output {gnuplot_quote(tmp)}\n{body}\nunset output\n"
            r = subprocess.run([gnuplot], input=script, capture_output=True, text=True)
            errs = [ln for ln in r.stderr.splitlines() if ln.strip() and "warning" not in ln.lower()]
            if r.returncode or errs or os.path.getsize(tmp) == 0:
                raise RuntimeError(f"gnuplot failed ({ext}): {(r.stderr.strip() or 'no output')[:400]}")
        out = []
        for ext, tmp in tmps.items():
            os.chmod(tmp, 0o644)
            os.replace(tmp, f"{prefix}.{ext}")
            out.append(f"{prefix}.{ext}")
        tmps = {}
        return out
    finally:
        for tmp in tmps.values():
            if os.path.exists(tmp):
                os.remove(tmp)
