"""Live updates: the event streams of a table and the bus between processes and machines."""
