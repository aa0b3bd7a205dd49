"""Tests of the live-update bus."""
