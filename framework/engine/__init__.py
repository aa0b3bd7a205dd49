"""The runtime: tables created, actions checked and applied in one transaction, states settled."""
