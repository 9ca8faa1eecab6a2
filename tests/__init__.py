"""Cross-cutting tests that run real servers (scale-out, browser); helpers in `tests.live`."""
