"""Renderers of the audit report (application/audit_report.py): they read an AuditReport, never
the ledger."""
