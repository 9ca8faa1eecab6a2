import pytest


@pytest.fixture(autouse=True)
def _same_deals_every_run(fixed_seeds):
    """Every hand in these tests is dealt from a fixed seed (see conftest.fixed_seeds)."""
