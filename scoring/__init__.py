"""Pure game rules: boards, scoring, variants, round flow and legality.

Standard library only (a test keeps it so). Each game lives in its own subpackage
(``scoring.shake_that_city``); what games share (grids, adjacency, ranking) lives in
``scoring.grid`` and ``scoring.ranking``.
"""
