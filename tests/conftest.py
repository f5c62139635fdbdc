import contextlib
import os
import shutil
import tempfile
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


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The files with a test marked ``slow`` first, whole and in their order (a module's fixtures are set up once):
    pytest-xdist's workers then start the long tests early and share the quick ones out at the end, instead of
    one worker finishing a long test alone."""
    slow = {item.path for item in items if item.get_closest_marker("slow") is not None}
    items.sort(key=lambda item: item.path not in slow)


_PYCACHE = "KIBITZ_TEST_PYCACHE"


def pytest_configure(config: pytest.Config) -> None:
    """One bytecode cache for the run (the controller makes it; pytest-xdist's workers and every program the tests
    start inherit it): the modules are compiled once, not again in each ``kibitz`` the examples start (an
    environment with ``PYTHONDONTWRITEBYTECODE`` compiles every module at every start)."""
    if os.environ.get(_PYCACHE) is None and os.environ.get("PYTHONPYCACHEPREFIX") is None:
        os.environ[_PYCACHE] = os.environ["PYTHONPYCACHEPREFIX"] = tempfile.mkdtemp(prefix="kibitz-pyc-")
        os.environ.pop("PYTHONDONTWRITEBYTECODE", None)


def pytest_unconfigure(config: pytest.Config) -> None:
    """The run's bytecode cache removed by whoever made it (the controller, or a run without workers)."""
    if os.environ.get(_PYCACHE) and os.environ.get("PYTEST_XDIST_WORKER") is None:
        shutil.rmtree(os.environ.pop(_PYCACHE), ignore_errors=True)
