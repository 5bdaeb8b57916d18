"""Where things are, for tests in any folder: the checkout's root and the tests' stored data."""

from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "tests" / "data"
