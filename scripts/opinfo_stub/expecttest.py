# expecttest.py - minimal stand-in for the `expecttest` package, just enough for
# torch.testing._internal.common_utils to import (torch 2.15 still imports it
# unconditionally; the torch wheel does not depend on it and requirements.txt does
# not pin it). Only scripts/export-opinfo.py puts this folder on sys.path; it never
# runs tests. (common_utils imports `hypothesis` only optionally: nothing to stub.)
import unittest

# common_utils reads and sets this flag ("accept new expected output").
ACCEPT = False


class TestCase(unittest.TestCase):
    """Base class of torch's TestCase; the expect-file helpers are unsupported."""

    longMessage = True

    def assertExpectedInline(self, actual, expect, skip=0):  # noqa: N802 - upstream name
        raise NotImplementedError("expecttest stand-in: assertExpectedInline is not available")
