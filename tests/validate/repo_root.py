"""The repository root, put first on sys.path: a test imports validate/'s
scripts as the package validate.* (validate/__init__.py), the way the scripts
import each other, never by putting one of validate/'s folders on the path.
The tests here take ROOT from it, before their first validate.* import."""
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
if ROOT not in sys.path:
    sys.path.insert(0, ROOT)
