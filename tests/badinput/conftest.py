"""The corpus's generate cases start fault servers the way the backend tests do."""

from tests.backends.conftest import fault_server  # noqa: F401  (a fixture, shared)
