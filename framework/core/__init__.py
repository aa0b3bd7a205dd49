"""The bottom floor: errors, messages, the clock and the kinds of things.

It imports nothing of Arena above it."""
