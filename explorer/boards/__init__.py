"""Packaged boards (TOML ``[board]`` tables); load them with :func:`explorer.board.load_board`."""
