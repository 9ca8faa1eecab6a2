"""The engine is pure Python: importing it must not pull in Django (STYLE.md rule 1)."""

import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[3]


def test_importing_the_engine_leaves_django_out():
    # A fresh interpreter: this test process may already have Django loaded.
    code = ("import sys, baohuang.engine as engine; "
            "engine.new_hand('classic', 1); "
            "print(sorted(m for m in sys.modules if m == 'django' or m.startswith('django.')))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True, cwd=REPO)
    assert done.stdout.strip() == "[]"
