"""Benchmarks printed as JSON (``arena bench ...``) and the HTTP client the load tests share."""
