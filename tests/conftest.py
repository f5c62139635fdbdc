import contextlib
import os
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
