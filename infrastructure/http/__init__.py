"""The HTTP service (``mai-safety serve``): an entrypoint over the application, nothing more."""
