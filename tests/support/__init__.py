"""Helpers the test modules share (scenarios, log builders, misbehaving and hostile bots, a terminal, a browser):
imported as `support.NAME`, tests/ being on sys.path under pytest. No test module imports another."""
