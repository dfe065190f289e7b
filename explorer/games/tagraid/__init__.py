"""Infinity Deathmatch: TAG Raid (the flagship rulebook, ``shared/rules/infinity-tag-raid.txt``)."""
