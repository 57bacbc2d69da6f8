"""Tablier: an interpreter for the tables family of board games, driven by rule files."""
from __future__ import annotations

__version__ = "0.1.0"
