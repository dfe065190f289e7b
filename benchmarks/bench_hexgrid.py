"""Speed of the hex model on the packaged fixture board (>= 300 hexes), against baselines measured in the same run.

Run: PYTHONPATH=$PWD /work/venv/bin/python benchmarks/bench_hexgrid.py

Prints absolute times and ratios:
* exact contact classification (Fractions) of every centre-to-centre line from 10 hexes to the whole board, against
  the float epsilon-nudged ``hex_line`` for the same lines (the drawing convenience);
* the static SVG of the board, against building the same number of hex corner lists (the bare geometry);
* the movement graph plus all shortest paths from one hex, against plain hex distances to every hex.
"""

from __future__ import annotations

from _timing import best

from explorer.board import load_board
from explorer.hexgrid import classify_centres, distance, hex_line
from explorer.render.svg import render_board


def main() -> None:
    board = load_board("fixture")
    hexes = list(board)
    sources = hexes[:: max(1, len(hexes) // 10)][:10]
    pairs = [(a, b) for a in sources for b in hexes]
    lay = board.layout

    t_exact = best(lambda: [classify_centres(a, b) for a, b in pairs], 1)
    t_line = best(lambda: [hex_line(a, b) for a, b in pairs])
    grazing = sum(1 for a, b in pairs if classify_centres(a, b).grazes)
    print(f"board: {len(board)} hexes; {len(pairs)} centre-to-centre lines ({grazing} graze a corner or an edge)")
    print(f"classify_centres (exact): {t_exact * 1e3:8.1f} ms  {t_exact / len(pairs) * 1e6:7.1f} us/line")
    print(f"hex_line (float nudge):   {t_line * 1e3:8.1f} ms  ratio exact/nudge = {t_exact / t_line:5.1f}x")

    t_svg = best(lambda: render_board(board, coords=True))
    t_geo = best(lambda: [lay.corners(h) for h in hexes])
    print(f"render_board (SVG):       {t_svg * 1e3:8.1f} ms  ratio svg/corners = {t_svg / t_geo:5.1f}x")

    import networkx as nx

    def paths():
        board.__dict__.pop("_graph", None)
        nx.single_source_shortest_path_length(board.graph(), hexes[0])

    t_paths = best(paths)
    t_dist = best(lambda: [distance(hexes[0], h) for h in hexes])
    print(f"graph + shortest paths:   {t_paths * 1e3:8.1f} ms  ratio graph/distance = {t_paths / t_dist:5.1f}x")


if __name__ == "__main__":
    main()
