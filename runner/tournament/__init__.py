"""Tournaments: settings, schedule, work units, the driver, backends, the results store and the standings."""
