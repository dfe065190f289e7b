"""Static renderers (SVG) of boards and overlays."""
