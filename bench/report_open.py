#!/usr/bin/env python3
"""How long a `bankcheck report` page takes to open in a real browser:
Debian's chromium, headless, driven by Selenium through the system
chromedriver (as python/tests/test_report_browser.py drives it; nothing
downloaded). Per page, RUNS loads of the kernel list (the page as opened)
and of its first-ranked kernel (`#k=1`: that kernel's source lines and
instructions drawn during the load), each from a fresh navigation:

  wall      seconds from the request to Selenium's return (the document
            loaded, its script run: the page is drawn)
  load      the Navigation Timing entry's loadEventEnd, in ms from the
            navigation's start (the browser's own clock)

    python3 bench/report_open.py [--runs 5] [-o RESULT.txt] REPORT.html...

Prints the file's size, the median and worst of each, and whether the
worst wall time is under the 2 s the report promises; exit 1 when a page
is not, 2 when the browser or Selenium is missing or a file is unreadable.
The first load of a fresh browser (its own start-up) is left out: one
untimed load of each page comes first."""
import argparse
import os
import pathlib
import shutil
import statistics
import sys
import time

LIMIT_S = 2.0


def browser():
    chromium, driver_path = shutil.which("chromium"), shutil.which("chromedriver")
    if not chromium or not driver_path:
        raise RuntimeError("no chromium (apt-get install chromium chromium-driver)")
    from selenium import webdriver  # noqa: PLC0415 (a clear message when it is missing, below)
    options = webdriver.ChromeOptions()
    options.binary_location = chromium
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--window-size=1500,1100"):
        options.add_argument(flag)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    return webdriver.Chrome(options=options, service=webdriver.ChromeService(executable_path=driver_path))


def load(driver, uri):
    """(wall seconds, loadEventEnd ms) of one fresh navigation to uri."""
    driver.get("about:blank")
    start = time.perf_counter()
    driver.get(uri)
    wall = time.perf_counter() - start
    end = driver.execute_script("var n = performance.getEntriesByType('navigation')[0]; return n ? n.loadEventEnd : null;")
    return wall, end


def measure(driver, path, runs):
    uri = pathlib.Path(path).resolve().as_uri()
    out = {}
    for view, suffix in (("kernels", ""), ("first kernel", "#k=1")):
        load(driver, uri + suffix)  # untimed
        samples = [load(driver, uri + suffix) for _ in range(runs)]
        errors = [e for e in driver.get_log("browser") if e["level"] == "SEVERE"]
        walls = [w for w, _ in samples]
        loads = [l for _, l in samples if l is not None]
        out[view] = {"wall_median": statistics.median(walls), "wall_max": max(walls),
                     "load_median": statistics.median(loads) if loads else None, "errors": len(errors)}
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("reports", nargs="+")
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("-o", dest="out")
    a = ap.parse_args()
    if a.runs < 1 or a.runs > 100:
        print(f"report_open: --runs {a.runs}: allowed 1 to 100", file=sys.stderr)
        return 2
    for r in a.reports:
        if not os.path.isfile(r):
            print(f"report_open: {r}: no such file", file=sys.stderr)
            return 2
    try:
        driver = browser()
    except (RuntimeError, ImportError) as e:
        print(f"report_open: skipped: {e}", file=sys.stderr)
        return 2
    lines, slow = [], False
    try:
        lines.append(f"{'report':<44} {'bytes':>10} {'view':<13} {'wall median':>11} {'wall max':>9} "
                     f"{'load median':>11} {'js errors':>9}  under {LIMIT_S:g} s")
        for r in a.reports:
            for view, m in measure(driver, r, a.runs).items():
                ok = m["wall_max"] < LIMIT_S and m["errors"] == 0
                slow |= not ok
                load_ms = "n/a" if m["load_median"] is None else f"{m['load_median']:.0f} ms"
                lines.append(f"{r[-44:]:<44} {os.path.getsize(r):>10} {view:<13} {m['wall_median']:>9.3f} s "
                             f"{m['wall_max']:>7.3f} s {load_ms:>11} {m['errors']:>9}  {'yes' if ok else 'NO'}")
        lines.append(f"{a.runs} timed loads per view after one untimed; chromium "
                     f"{driver.capabilities.get('browserVersion', '?')}, headless")
    finally:
        driver.quit()
    text = "\n".join(lines) + "\n"
    print(text, end="")
    if a.out:
        pathlib.Path(a.out).write_text(text)
    return 1 if slow else 0


if __name__ == "__main__":
    sys.exit(main())
