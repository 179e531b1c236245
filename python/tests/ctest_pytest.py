"""ctest's entry to the Python module's tests (python/tests/): they run where
`bankcheck` and pytest are importable (`pip install .`, which .ci/run does),
and are skipped (exit 77) elsewhere, since building the module inside ctest
would cost minutes."""
import pathlib
import sys

try:
    import bankcheck  # noqa: F401
except ImportError:
    print("skipped: bankcheck Python module not installed")
    sys.exit(77)
try:
    import pytest
except ImportError:
    print("skipped: pytest not installed")
    sys.exit(77)

sys.exit(pytest.main(["-q", "-p", "no:cacheprovider", str(pathlib.Path(__file__).parent)]))
