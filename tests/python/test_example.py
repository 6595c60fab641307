"""examples/pyramid_convergence.py runs and writes its PNG."""
import os
import subprocess
import sys

import pytest

from conftest import ROOT


def test_pyramid_convergence_example(tmp_path):
    pytest.importorskip("matplotlib", reason="python3-matplotlib absent")
    out = tmp_path / "conv.png"
    p = subprocess.run([sys.executable, os.path.join(ROOT, "examples", "pyramid_convergence.py"), str(out),
                        "--base", "4"], capture_output=True, text=True, timeout=120)
    assert p.returncode == 0, p.stderr
    lines = p.stdout.splitlines()
    assert [ln.split()[0] for ln in lines[:3]] == ["pgs", "psor", "mprgp"]
    assert all(" solved " in ln for ln in lines[:3])
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
