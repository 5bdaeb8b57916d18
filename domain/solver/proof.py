"""Depth-first proof-number search (df-pn, Nagai 2002) for the win/lose question of the ranks-only shedding
games: does the maximising side win from here? The AND/OR search of `RankGame.decide` tries a node's moves in a
fixed order and proves each one to the end before the next, so one deep move can hold up a short proof next to
it; df-pn keeps, for every node it has seen, how many leaves are still to be proved (the proof number) or
disproved (the disproof number), and always works on the child that is closest to settling its parent —
growing a threshold instead of a stack of half-finished moves. The result is the same exact value (a node is
settled only once every child it needs is settled, to the end of the deal or a static win); only the order of
the work changes. tests/services/test_analysis_reach.py checks it against the exhaustive minimax and the DFS.

Settled values go into the DFS's table (`decided`, keyed as `decide` keys them), so the line and the moves'
values after a proof find them there.
"""

from __future__ import annotations

from typing import Any

from domain.solver.search import CHECK_EVERY, Budget

ORDER_WEIGHT = 1  # moves of the adapter's order per step of a new child's starting number
INFINITE = 1 << 40  # a proof or disproof number that can no longer reach 0: the node is settled the other way


def prove(game: Any, pos: Any, decided: dict[Any, int], budget: Budget) -> int:
    """The exact value of `pos` (1: the maximising side wins), by df-pn; TooLarge when the budget runs out (the
    values settled so far stay in `decided`)."""
    table: dict[Any, tuple[int, int]] = {}
    teams, max_team = game.teams, game.max_team
    after, expand, key_of = game._after, game.expand, game.key

    def search(pos: Any, proof_limit: int, disproof_limit: int) -> tuple[int, int]:
        budget.nodes += 1  # Budget.tick, written out
        if budget.nodes > budget.node_limit or not budget.nodes % CHECK_EVERY:
            budget.check()
        pos, steps, value = expand(pos, budget)
        if value is not None:
            return (0, INFINITE) if value else (INFINITE, 0)
        key = key_of(pos)
        known = decided.get(key)
        if known is not None:
            return (0, INFINITE) if known else (INFINITE, 0)
        children = [after(pos, step) for step in steps]
        keys = [key_of(child) for child in children]
        # At an OR node (the maximising side to move) one child proved proves it; at an AND node every one.
        ors = teams[pos[1]] == max_team
        while True:
            # (phi, delta): the child's number for settling this node its own way, and the other way.
            best, best_phi, second_phi, best_delta, total = 0, INFINITE + 1, INFINITE + 1, 0, 0
            for index, child_key in enumerate(keys):
                entry = table.get(child_key)
                if entry is None:
                    settled = decided.get(child_key)
                    if settled is None:
                        # Not searched yet: the adapter's order (most cards first, fewest ranks left) is the best
                        # guess of which move settles the node, so a later move starts further away.
                        phi, delta = 1 + index // ORDER_WEIGHT, 1
                    else:
                        phi, delta = (0, INFINITE) if settled == ors else (INFINITE, 0)
                else:
                    phi, delta = entry if ors else (entry[1], entry[0])
                total += delta
                if phi < best_phi:
                    best, second_phi, best_phi, best_delta = index, best_phi, phi, delta
                elif phi < second_phi:
                    second_phi = phi
            total = min(total, INFINITE)
            proof, disproof = (best_phi, total) if ors else (total, best_phi)
            if proof >= proof_limit or disproof >= disproof_limit or not proof or not disproof:
                break
            if ors:
                child_limits = (min(proof_limit, second_phi + 1), disproof_limit - disproof + best_delta)
            else:
                child_limits = (proof_limit - proof + best_delta, min(disproof_limit, second_phi + 1))
            table[keys[best]] = search(children[best], *child_limits)
        table[key] = (proof, disproof)
        if not proof:
            decided[key] = 1
        elif not disproof:
            decided[key] = 0
        return proof, disproof

    proof, disproof = search(pos, INFINITE, INFINITE)
    while proof and disproof:  # the limits were reached before either: only at INFINITE, so never in practice
        proof, disproof = search(pos, INFINITE, INFINITE)
    return int(not proof)
