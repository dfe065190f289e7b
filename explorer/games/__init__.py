"""One package per rulebook. Each game keeps its rules, its section titles and its composite views."""
