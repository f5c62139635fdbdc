"""The viewer page in a real browser: headless Chromium (Debian's ``chromium``) driven by Playwright.

The page ``kibitz view`` writes is opened from a file; the test steps through the play with
simulated key presses (ArrowRight, ArrowLeft, End) and, at several cards, reads from the DOM the
bounds, the holder probabilities, the splits and the statuses shown and compares them with the play
state computed here for the same card. Playwright drives the system browser
(``executable_path``); no browser is downloaded (``playwright install`` is never run). The test
skips, saying why, where Chromium or Playwright is absent; CI installs both (``.ci/run``) and, with
``CI=true``, fails rather than skip.

With ``KIBITZ_VIEWER_SCREENSHOT=PATH`` set, the desktop test also saves the screenshot the docs
show (``docs/_static/viewer.png``).
"""

from __future__ import annotations

import os
import re
import shutil
from fractions import Fraction
from pathlib import Path
from typing import Any, Iterator

import pytest

from inference.state.play import PlayState
from inference.io.records import PlayRecord, read_records
from inference.apps.replay import replay_record
from inference.apps.scenario import run_scenario
from tests.inference.commands.helpers import run

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "scenarios" / "records" / "example.pbn"
LEADS = ROOT / "scenarios" / "seed" / "14-15-lead-interpretations.toml"
CHROMIUM = next((p for p in (os.environ.get("KIBITZ_CHROMIUM"), shutil.which("chromium"), "/usr/bin/chromium")
                 if p and Path(p).is_file()), None)
FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--no-first-run"]


def absent(reason: str) -> None:
    """Skip for want of the browser, except in CI (``CI=true``), where .ci/run installs it: there it is a failure."""
    if os.environ.get("CI") == "true":
        pytest.fail(f"CI must run the browser test: {reason}")
    pytest.skip(reason)


@pytest.fixture(scope="module")
def browser(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    """A headless Chromium with its own profile folder (a persistent context: ``--user-data-dir``)."""
    if CHROMIUM is None:
        absent("no Chromium: install Debian's chromium package (apt-get install chromium) to run the browser test")
    try:
        from playwright import sync_api
    except ImportError:
        absent("Playwright is absent: pip install 'kibitz[test]' (it drives the system Chromium; no browser download)")
    with sync_api.sync_playwright() as pw:
        context = pw.chromium.launch_persistent_context(
            str(tmp_path_factory.mktemp("chromium-profile")), executable_path=CHROMIUM, headless=True, args=FLAGS,
            viewport={"width": 1280, "height": 900}, offline=True)
        try:
            yield context
        finally:
            context.close()


def open_page(browser: Any, path: Path, width: int = 1280) -> Any:
    page = browser.new_page()
    page.set_viewport_size({"width": width, "height": 900})
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)
    page.goto(path.as_uri())
    page.errors = errors
    return page


def shown(page: Any) -> dict[str, Any]:
    """What the page displays now, read from the DOM: the step, the bounds, the odds cells, splits, statuses."""
    return page.evaluate("""() => {
      const text = n => n.textContent.trim();
      const bounds = {};
      for (const n of document.querySelectorAll('[data-bound]')) {
        bounds[[n.dataset.seat, n.dataset.q, n.dataset.view].join(' ')] = text(n);
      }
      const cells = {};
      for (const n of document.querySelectorAll('#heat td[data-card]')) {
        cells[n.dataset.card + ' ' + n.dataset.seat] = [n.dataset.p, text(n), n.dataset.view];
      }
      const splits = {};
      for (const n of document.querySelectorAll('#splits li[data-split]')) {
        splits[n.dataset.suit + ' ' + n.dataset.split] = [n.dataset.p, text(n.querySelector('.num'))];
      }
      const statuses = {};
      for (const n of document.querySelectorAll('tr[data-inference]')) {
        statuses[n.dataset.inference] = [text(n.querySelector('.status')), n.classList.contains('changed')];
      }
      return {step: Number(document.body.dataset.step), label: text(document.getElementById('step-label')),
              trick: [...document.querySelectorAll('.trick [data-card]')].map(n => n.dataset.card),
              bounds, cells, splits, statuses, view: document.body.dataset.oddsView,
              overflow: document.documentElement.scrollWidth - window.innerWidth};
    }""")


def numbers(text: str) -> tuple[int, int]:
    """``lo–hi`` as shown beside a bar (the visually hidden note after it is ignored)."""
    m = re.match(r"(\d+)\u2013(\d+)", text)
    assert m, text
    return int(m.group(1)), int(m.group(2))


def assert_shows(view: dict[str, Any], state: PlayState, odds_view: str = "lawful") -> None:
    """The DOM's bounds, probabilities, splits and statuses equal the engine's for ``state``."""
    lawful = state.bounds()
    agreement = state.agreement_bounds()[0]
    expected = {}
    for seat, sb in lawful.seats:
        for q in ("S", "H", "D", "C", "HCP"):
            expected[f"{seat.name} {q} lawful"] = sb.get(q)
            expected[f"{seat.name} {q} agreement"] = agreement[seat].get(q)
    assert {k: numbers(v) for k, v in view["bounds"].items()} == expected
    odds = state.odds(odds_view)
    assert view["view"] == odds_view
    want = {f"{card} {seat.name}": p for card, by in odds.holder.items() for seat, p in by.items()}
    assert set(view["cells"]) == set(want)
    for key, p in want.items():
        text_p, pct, cell_view = view["cells"][key]
        n, d = text_p.split("/")
        assert Fraction(int(n), int(d)) == p and cell_view == odds_view, key
        assert abs(float(pct) - float(p) * 100) <= 0.05, (key, pct, p)
    splits = {f"{'SHDC'[suit]} {'-'.join(map(str, k))}": p for suit, table in odds.split.items() for k, p in table.items()}
    assert set(view["splits"]) == set(splits)
    for key, p in splits.items():
        n, d = view["splits"][key][0].split("/")
        assert Fraction(int(n), int(d)) == p
        assert abs(float(view["splits"][key][1].rstrip("%")) - float(p) * 100) <= 0.05
    statuses = {n: s.status.value + (f" (fallback {s.level})" if s.level else "") for n, s in state.statuses().items()}
    assert {n: v[0] for n, v in view["statuses"].items()} == statuses


def test_stepping_a_record_by_keys_shows_the_engines_values(browser: Any, tmp_path: Path) -> None:
    out = tmp_path / "board1.html"
    assert run("view", os.path.relpath(EXAMPLE), "--board", "1", "-o", str(out))[0] == 0
    rec = next(r for r in read_records(EXAMPLE) if isinstance(r, PlayRecord) and r.board == "1")
    states = [PlayState(rec.deal[rec.declarer], declarer=rec.declarer, contract=rec.contract)]
    states += [st.at(st.ply) for st, _ in replay_record(rec)]
    page = open_page(browser, out)
    view = shown(page)
    assert view["step"] == 0 and view["label"] == "start of play"
    assert_shows(view, states[0])
    step = 0
    for key, checks in (("ArrowRight", True), ("ArrowRight", True), ("ArrowRight", False), ("ArrowRight", False),
                        ("ArrowRight", True), ("ArrowRight", True), ("ArrowLeft", True), ("ArrowLeft", True)):
        page.keyboard.press(key)
        step += 1 if key == "ArrowRight" else -1
        view = shown(page)
        assert view["step"] == step
        card = rec.play[step - 1]
        assert re.search(rf"\bplays? {card}\b", view["label"]), view["label"]
        assert str(card) in view["trick"]
        if checks:
            assert_shows(view, states[step])
    if os.environ.get("KIBITZ_VIEWER_SCREENSHOT"):
        page.keyboard.press("ArrowRight")
        page.screenshot(path=os.environ["KIBITZ_VIEWER_SCREENSHOT"], full_page=True)
    page.keyboard.press("End")
    view = shown(page)
    assert view["step"] == len(rec.play) and not view["cells"]  # every card seen at the end
    assert_shows(view, states[-1])
    assert page.errors == []


def test_a_scenario_shows_statuses_and_the_agreement_odds(browser: Any, tmp_path: Path) -> None:
    out = tmp_path / "leads.html"
    assert run("view", str(LEADS), "-o", str(out))[0] == 0
    run_ = run_scenario(LEADS)
    state = run_.state
    card_plies = [p for p in range(1, state.ply + 1) if state.at(p).snapshot.update.card is not None]
    ends = [p - 1 for p in card_plies] + [state.ply]
    states = [state.at(p) for p in ends]
    page = open_page(browser, out)
    for _ in range(len(card_plies)):
        page.keyboard.press("ArrowRight")
    view = shown(page)
    assert view["step"] == len(card_plies)
    assert_shows(view, states[-1])
    assert view["statuses"]["lead: higher of two cards"] == ["impossible", False]
    page.keyboard.press("ArrowLeft")  # back to LHO's spade king, which made it impossible
    view = shown(page)
    assert view["step"] == len(card_plies) - 1 and view["label"].endswith("plays SK")
    assert view["statuses"]["lead: higher of two cards"] == ["impossible", True]
    assert_shows(view, states[-2])
    page.click("#view-agreement")
    assert_shows(shown(page), states[-2], "agreement")
    page.keyboard.press("ArrowLeft")
    view = shown(page)
    assert view["step"] == len(card_plies) - 2
    assert_shows(view, states[-3], "agreement")
    page.click("#view-weighted")  # the inferences' odds and the defenders' cards under the model
    assert states[-3].odds("weighted").holder != states[-3].odds("agreement").holder
    assert_shows(shown(page), states[-3], "weighted")
    assert page.errors == []


def test_the_page_fits_a_phone(browser: Any, tmp_path: Path) -> None:
    out = tmp_path / "board2.html"
    assert run("view", str(EXAMPLE), "--board", "2", "-o", str(out))[0] == 0
    page = open_page(browser, out, width=375)
    for _ in range(5):
        page.keyboard.press("ArrowRight")
    view = shown(page)
    assert view["step"] == 5 and view["overflow"] <= 0, view["overflow"]
    sizes = page.evaluate("""() => [...document.querySelectorAll('section')].map(s => s.getBoundingClientRect().width)""")
    assert max(sizes) <= 375
    page.goto(out.as_uri() + "#3")  # a link to a card opens it
    assert shown(page)["step"] == 3
    labels = page.evaluate("""() => [...document.querySelectorAll('.sym')].every(s => s.getAttribute('aria-hidden') === 'true'
                               && s.nextElementSibling && s.nextElementSibling.classList.contains('vh'))""")
    assert labels, "every suit symbol has a text alternative"
    assert page.errors == []
