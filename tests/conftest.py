import os

from hypothesis import HealthCheck, settings

settings.register_profile("ci", max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("dev", max_examples=50, deadline=None)
settings.register_profile("thorough", max_examples=1000, deadline=None, suppress_health_check=[HealthCheck.too_slow])
# a test's own max_examples is scaled by the profile too: tests.strategies.examples
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))
