"""Webhook alerts (placeholder)."""
