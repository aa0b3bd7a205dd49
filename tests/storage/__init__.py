"""Tests of the per-table game databases."""
