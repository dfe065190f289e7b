"""Redraw time and canvas message count of the HexBoardView on the packaged 320-hex fixture board.

Run: PYTHONPATH=$PWD /work/venv/bin/python benchmarks/bench_board.py

Compares, in the same run (messages are counted by wrapping the canvas manager's send, nothing goes to a browser):
* the batched terrain redraw (``fill_styled_polygons`` + ``stroke_polygons`` with (n, 3) uint8 colours in one hold:
  one message) against a per-hex loop baseline (``fill_style`` / ``fill_polygon`` / ``stroke_polygon`` per hex, not
  held: several messages per hex), and the same loop inside one hold (one message, but a long command list);
* the LoF explorer's update (analysis of every target + pieces + overlays) for the default scenario.
"""

from __future__ import annotations

from _timing import best

from explorer.board import load_board
from explorer.render.svg import GRID_STROKE, TERRAIN_FILL, TILELESS_FILL
from explorer.widgets.canvas import hold
from explorer.widgets.hexboard import HexBoardView


def main() -> None:
    board = load_board("fixture")
    view = HexBoardView(board)
    sent: list = []
    view.canvas._canvas_manager._send_custom = lambda cmd, buffers=[]: sent.append(cmd)
    c = view.layers["terrain"]
    lay = board.layout

    def per_hex(held: bool = False):
        def draw():
            c.clear()
            for h in board:
                cell = board[h]
                pts = [view.to_pixel(p) for p in lay.corners(h)]
                c.fill_style = TERRAIN_FILL[cell.terrain] if cell.tile else TILELESS_FILL
                c.fill_polygon(pts)
                c.stroke_style = GRID_STROKE
                c.stroke_polygon(pts)
        if held:
            with hold(c):
                draw()
        else:
            draw()

    def count(fn) -> int:
        sent.clear()
        fn()
        return len(sent)

    n_batched, n_loop, n_loop_held = count(view.redraw_terrain), count(per_hex), count(lambda: per_hex(True))
    t_batched = best(view.redraw_terrain, 7)
    t_loop = best(per_hex, 7)
    t_loop_held = best(lambda: per_hex(True), 7)
    print(f"board: {len(board)} hexes (canvas {view.canvas.width} x {view.canvas.height} px)")
    print(f"terrain redraw, batched      : {t_batched * 1e3:8.2f} ms, {n_batched:5d} message(s)")
    print(f"terrain redraw, per-hex loop : {t_loop * 1e3:8.2f} ms, {n_loop:5d} message(s)")
    print(f"terrain redraw, loop in hold : {t_loop_held * 1e3:8.2f} ms, {n_loop_held:5d} message(s)")
    print(f"ratio per-hex loop / batched : {t_loop / t_batched:6.1f}x time, {n_loop / n_batched:6.0f}x messages")
    print(f"ratio loop in hold / batched : {t_loop_held / t_batched:6.1f}x time")
    t_full = best(view.redraw, 7)
    print(f"full redraw (4 layers)       : {t_full * 1e3:8.2f} ms, {count(view.redraw)} messages")

    from explorer.games.tagraid.lof_views import LofExplorer

    x = LofExplorer()
    x.board_view.canvas._canvas_manager._send_custom = lambda cmd, buffers=[]: sent.append(cmd)
    shooters = list(x.models)
    i = [0]

    def pick():
        i[0] = (i[0] + 1) % len(shooters)
        x.set_shooter(shooters[i[0]])

    t_pick = best(pick, repeat=len(shooters))
    print(f"LoF explorer: pick a shooter (verdicts for {len(shooters) - 1} targets + redraw): {t_pick * 1e3:.1f} ms "
          f"(best of {len(shooters)}), {count(pick)} messages")


if __name__ == "__main__":
    main()
