"""The validation scripts as one package: a script imports what another
folder holds as `from validate.harness import ncu_csv`, never by putting a
folder on sys.path.

A script runs either as a module from the repository root
(`python3 -m validate.harness.table1 DIR`) or as a file from anywhere
(`python3 validate/harness/table1.py DIR`, the form the GPU scripts use). Run
as a file, Python puts the script's own folder first on sys.path; a script
that imports from this package replaces that entry with the repository root
before its first such import, by the one line every one of them spells the
same way (tests/validate/imports_test.py checks each script both ways):

    if not __package__:  # run as a file: import validate.* from the repository root
        sys.path[0] = os.path.abspath(__file__).rsplit(os.sep + "validate" + os.sep, 1)[0]

The programs under capture/programs/ are captured programs, not modules (they
run their GPU work when loaded): they import nothing from here.
"""
