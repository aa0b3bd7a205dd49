"""The platform database (one for the whole site), its models and its migrations."""
