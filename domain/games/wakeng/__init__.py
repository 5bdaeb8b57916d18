"""wakeng: its engine, table, score slips, analysis adapter, formats and helpers, named together by descriptor.py."""
