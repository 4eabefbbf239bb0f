"""The serial backend (`--backend serial`): every match in the driver's own process, one after another."""

from __future__ import annotations

from typing import Iterable

from runner.tournament.work import WorkUnit, play_unit

from .base import Backend, OnResults


class SerialBackend(Backend):
    """Every match in this process, one after another."""

    name = "serial"
    shares_files = True

    def where(self) -> str:
        return "in this process (--backend serial)"

    def run(self, units: Iterable[WorkUnit], on_results: OnResults) -> None:
        for unit in units:
            on_results([play_unit(unit)])
