"""Live updates: the bus between processes and machines."""
