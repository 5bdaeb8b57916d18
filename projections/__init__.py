"""Read models: deal and table results, standings and tiebreaks, rebuilt from the event log and explained.

`Projections` (service.py) is the entry point; docs/ARCHITECTURE.md ("Projections") has the design.
"""

from projections.service import Projections

__all__ = ["Projections"]
