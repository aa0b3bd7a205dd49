"""Per-table game databases: the SQL dialect layer and the storage backends."""
