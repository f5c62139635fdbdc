import contextlib
import os
import sys
from typing import Callable, Iterator

import pytest

from hypothesis import HealthCheck, settings

settings.register_profile("ci", max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("dev", max_examples=50, deadline=None)
settings.register_profile("thorough", max_examples=1000, deadline=None, suppress_health_check=[HealthCheck.too_slow])
# a test's own max_examples is scaled by the profile too: tests.strategies.examples
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))


@pytest.fixture
def shrink_budget() -> Iterator[Callable[..., None]]:
    """``shrink_budget(graph_pairs=10, ...)`` puts a budget with those limits in force until the test ends
    (:mod:`dealer.budget`): how tests force the way taken past a limit."""
    from dealer.budget import current

    with contextlib.ExitStack() as stack:
        def shrink(**changes: int) -> None:
            stack.enter_context(current().replace(**changes).applied())

        yield shrink


@pytest.fixture
def solver_calls(monkeypatch: pytest.MonkeyPatch) -> list[tuple[int, int]]:
    """Every call to the double-dummy solver until the test ends, as (deals, strains left out), the deals
    solved last forgotten first (:mod:`dealer.lang.double_dummy`): how tests count the solves."""
    import dealer.lang.double_dummy as double_dummy

    calls: list[tuple[int, int]] = []
    real = double_dummy.batch_solver

    def counting(pos: object, what: str = "") -> object:
        solve = real(pos)  # type: ignore[arg-type]
        return lambda deals, exclude=(): calls.append((len(deals), len(exclude))) or solve(deals, exclude=exclude)

    monkeypatch.setattr(double_dummy, "batch_solver", counting)
    double_dummy.forget_solved()
    return calls


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The files with a test marked ``slow`` first, whole and in their order (a module's fixtures are set up once):
    pytest-xdist's workers then start the long tests early and share the quick ones out at the end, instead of
    one worker finishing a long test alone."""
    slow = {item.path for item in items if item.get_closest_marker("slow") is not None}
    items.sort(key=lambda item: item.path not in slow)


def pytest_configure(config: pytest.Config) -> None:
    """Bytecode written for the run: pytest-xdist's workers and every program the tests start (``kibitz`` in the
    docs' examples) load the modules compiled once, where an environment with ``PYTHONDONTWRITEBYTECODE``
    would compile every module at every start. The caches go where Python keeps them (``__pycache__``, which
    git ignores): a ``PYTHONPYCACHEPREFIX`` would also compile again every installed package, whose own
    caches Python then no longer reads."""
    os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
    sys.dont_write_bytecode = False
