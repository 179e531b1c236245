"""`bankcheck report` in a real browser: Debian's chromium, headless, driven by
Selenium through the system chromedriver (nothing downloaded). The report of
the committed capture tests/data/captures/transpose (tests/data/lineinfo)
must open, rank the naive transpose first, show its column load at the line
the source's MARK comment is on, draw the bank grid of its worst execution
(32 distinct words in bank 0), filter, and log no JavaScript error.

BANKCHECK_REPORT_SCREENSHOT=FILE.png also saves a picture of the grid view
(the README's, docs/figures/report-transpose.png)."""
import os
import pathlib
import shutil
import subprocess

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
CAPTURE = "tests/data/captures/transpose"
SOURCE = ROOT / "tests/data/lineinfo/transpose.cu"


def marker_line(text):
    """The 1-based line of transpose.cu whose MARK comment is `text`: the truth the page must show."""
    lines = [n for n, line in enumerate(SOURCE.read_text().splitlines(), 1) if "MARK: " + text in line]
    assert len(lines) == 1, text
    return lines[0]


@pytest.fixture(scope="module")
def browser():
    chromium, driver_path = shutil.which("chromium"), shutil.which("chromedriver")
    if not chromium or not driver_path:
        pytest.skip("skipped: no chromium (apt-get install chromium chromium-driver)")
    webdriver = pytest.importorskip("selenium.webdriver", reason="skipped: no selenium")
    options = webdriver.ChromeOptions()
    options.binary_location = chromium
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--window-size=1500,1100"):
        options.add_argument(flag)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    service = webdriver.ChromeService(executable_path=driver_path)
    driver = webdriver.Chrome(options=options, service=service)
    yield driver
    driver.quit()


@pytest.fixture(scope="module")
def report(tmp_path_factory):
    cli = pathlib.Path(os.environ.get("BANKCHECK_CLI", ROOT / "build" / "bankcheck"))
    if not cli.exists():
        pytest.skip(f"skipped: no bankcheck CLI at {cli} (build it, or set BANKCHECK_CLI)")
    out = tmp_path_factory.mktemp("report") / "transpose.html"
    subprocess.run([str(cli), "report", CAPTURE, "-o", str(out)], cwd=ROOT, check=True)
    return out


def by_id(driver, name):
    from selenium.webdriver.common.by import By
    return driver.find_element(By.ID, name)


def rows(driver, table):
    from selenium.webdriver.common.by import By
    return by_id(driver, table).find_elements(By.CSS_SELECTOR, "tbody tr")


def test_report_shows_kernel_line_and_grid(browser, report):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys
    browser.get(report.as_uri())
    assert browser.find_element(By.TAG_NAME, "h1").text == "bankcheck report"
    ranked = rows(browser, "kernels")
    assert len(ranked) == 2
    assert "transpose_naive" in ranked[0].text  # 992 conflict cycles against none
    # The filter keeps the matching kernel only.
    by_id(browser, "kernel-filter").send_keys("padded")
    assert [r.text.split()[1] for r in rows(browser, "kernels")] == ["transpose_padded(float"]
    by_id(browser, "kernel-filter").clear()
    by_id(browser, "kernel-filter").send_keys(" ")
    assert len(rows(browser, "kernels")) == 2
    # Sorting: a click on "conflicts" puts the most first, a second click the fewest.
    header = [b for b in by_id(browser, "kernels").find_elements(By.CSS_SELECTOR, "th button") if b.text == "conflicts"][0]
    header.click()
    assert "transpose_naive" in rows(browser, "kernels")[0].text
    header.click()
    assert "transpose_padded" in rows(browser, "kernels")[0].text
    header.click()
    # Keyboard: j moves down, k up, Enter opens the selected kernel.
    body = browser.find_element(By.TAG_NAME, "body")
    body.send_keys("j")
    assert rows(browser, "kernels")[1].get_attribute("aria-selected") == "true"
    body.send_keys("k")
    assert rows(browser, "kernels")[0].get_attribute("aria-selected") == "true"
    by_id(browser, "kernel-filter").send_keys(Keys.ENTER)
    assert "transpose_naive" in by_id(browser, "kernel-title").text
    load = marker_line("naive column load")
    line = browser.find_element(By.CSS_SELECTOR, f'#source .line[data-line="{load}"]')
    assert "MARK: naive column load" in line.text
    assert "conf 992" in line.text  # 31 per warp, 32 warps
    store = browser.find_element(By.CSS_SELECTOR, f'#source .line[data-line="{marker_line("naive row store")}"]')
    assert "conf 0" in store.text
    sass = [e for e in browser.find_elements(By.CSS_SELECTOR, "#source .sass-row") if "LDS" in e.text]
    assert len(sass) == 1
    sass[0].click()
    grid = by_id(browser, "bank-grid")
    conflict = grid.find_elements(By.CSS_SELECTOR, 'td[data-state="conflict"]')
    assert len(conflict) == 32  # lane l reads word 32 l: 32 distinct words, all in bank 0
    bank0 = grid.find_elements(By.CSS_SELECTOR, "tbody tr")[0]
    assert bank0.find_element(By.TAG_NAME, "th").text == "0 (32)"
    assert len(bank0.find_elements(By.CSS_SELECTOR, 'td[data-state="conflict"]')) == 32
    assert [c.text for c in bank0.find_elements(By.TAG_NAME, "td")] == [str(l) for l in range(32)]
    # Without colour: a conflict cell is crossed (its ::before) and has a dashed border.
    mark = browser.execute_script("return getComputedStyle(arguments[0], '::before').content", conflict[0])
    assert mark == '"\u2715"'
    assert browser.execute_script("return getComputedStyle(arguments[0]).borderTopStyle", conflict[0]) == "dashed"
    assert "bank 0 serves 32 distinct words to lanes 0-31" in by_id(browser, "grid-facts").text
    assert f"transpose.cu:{load} (inlined at tests/data/lineinfo/transpose.cu:{marker_line('naive call')})" in \
        by_id(browser, "grid-title").text
    shot = os.environ.get("BANKCHECK_REPORT_SCREENSHOT")
    if shot:
        browser.set_window_size(1500, 1900)  # the grid, the source lines and the instruction table
        browser.save_screenshot(shot)
    errors = [e for e in browser.get_log("browser") if e["level"] == "SEVERE"]
    assert errors == []


def test_padded_grid_has_no_conflict(browser, report):
    from selenium.webdriver.common.by import By
    rank = 2
    browser.get(report.as_uri() + f"#k={rank}&i=_Z16transpose_paddedPfPKf%2B0x130")
    grid = by_id(browser, "bank-grid")
    assert grid.find_elements(By.CSS_SELECTOR, 'td[data-state="conflict"]') == []
    assert len(grid.find_elements(By.CSS_SELECTOR, 'td[data-state="accessed"]')) == 32  # pitch 33: 32 banks, one word each
    assert "no bank conflict" in by_id(browser, "grid-facts").text
    assert [e for e in browser.get_log("browser") if e["level"] == "SEVERE"] == []
