"""Makes a Postgres ledger append-only in the database itself (docs/decisions/0008).

An owner role creates the tables and owns them (adding the event-MAC columns, and the table of
output blobs, to a ledger made before them); the service's role may SELECT and INSERT on the
events, checkpoint and blob tables and nothing else; and triggers refuse UPDATE, DELETE and
TRUNCATE on all three, whoever asks. The index of open executions beside them (docs/decisions/0019)
is not the record: the service role may also DELETE from it, and it carries no triggers. Only the owner (or a superuser) can switch the triggers off,
and doing so is exactly the tampering the signed checkpoints and the blob check catch. Run by ``mai-safety audit init-postgres``;
idempotent. ``hardening_sql`` is the same SQL for an operator who applies it by hand.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import psycopg
from psycopg import sql
from psycopg.conninfo import make_conninfo

from mai_safety.application.errors import ConfigurationError, LedgerUnavailable
from .blobs import EVENTS_TABLE, blobs_table
from .chaining import ADDED_COLUMNS
from .open_index import INDEX_COLUMNS, kinds_table, leases_table, leases_tables, open_index_tables, open_table
from mai_safety.infrastructure.views.postgres import TRACKING_TABLE as VIEW_TRACKING_TABLE, VIEW_TABLES, view_table_statements

_FUNCTION = "mai_safety_refuse_change"
_REFUSE_BODY = """
BEGIN
  RAISE EXCEPTION 'the mai-safety ledger is append-only: % on %.% is refused', TG_OP, TG_TABLE_SCHEMA, TG_TABLE_NAME
    USING ERRCODE = 'insufficient_privilege',
          HINT = 'events, checkpoints and output blobs are never changed or removed (docs/decisions/0008, 0014)';
END
"""


def hardening_statements(schema: str, events_table: str, service_role: str) -> list[sql.Composed]:
    checkpoints_table = f"{events_table}_checkpoints"
    blobs = blobs_table(events_table)
    names = {"schema": sql.Identifier(schema), "role": sql.Identifier(service_role), "function": sql.Identifier(_FUNCTION)}
    statements = [
        sql.SQL(
            "CREATE OR REPLACE FUNCTION {schema}.{function}() RETURNS trigger LANGUAGE plpgsql AS {body}"
        ).format(body=sql.Literal(_REFUSE_BODY), **names),
    ]
    # Tables made before event MACs gain their columns (docs/decisions/0011); nothing where they exist.
    for suffix, column, _, pg_type in ADDED_COLUMNS:
        statements.append(
            sql.SQL("ALTER TABLE {schema}.{table} ADD COLUMN IF NOT EXISTS {column} " + pg_type).format(
                table=sql.Identifier(f"{events_table}{suffix}"), column=sql.Identifier(column), **names
            )
        )
    # Output blobs (docs/decisions/0014): their table, for a ledger made before them.
    statements.append(
        sql.SQL(
            "CREATE TABLE IF NOT EXISTS {schema}.{table} (sha256 text PRIMARY KEY, size bigint NOT NULL, data bytea NOT NULL)"
        ).format(table=sql.Identifier(blobs), **names)
    )
    # The index of open executions (docs/decisions/0019), for a ledger made before it.
    index_names = {
        **names, "open": sql.Identifier(open_table(events_table)), "kinds": sql.Identifier(kinds_table(events_table)),
        "leases": sql.Identifier(leases_table(events_table)),
    }
    statements += [sql.SQL(statement).format(**index_names) for statement in open_index_tables()]
    for suffix, column, _, pg_type in INDEX_COLUMNS:  # an index made before its holder column
        statements.append(
            sql.SQL("ALTER TABLE {schema}.{table} ADD COLUMN IF NOT EXISTS {column} " + pg_type).format(
                table=sql.Identifier(f"{events_table}{suffix}"), column=sql.Identifier(column), **names
            )
        )
    # The servers' leases (application/abandoned.py): a heartbeat row per serving process.
    statements += [sql.SQL(statement).format(**index_names) for statement in leases_tables()]
    for table, rights in (
        (open_table(events_table), "SELECT, INSERT, DELETE"),
        (kinds_table(events_table), "SELECT, INSERT"),
        (leases_table(events_table), "SELECT, INSERT, UPDATE"),
    ):
        table_names = {**names, "table": sql.Identifier(table)}
        statements += [
            sql.SQL("REVOKE ALL ON {schema}.{table} FROM PUBLIC").format(**table_names),
            sql.SQL("REVOKE ALL ON {schema}.{table} FROM {role}").format(**table_names),
            sql.SQL("GRANT " + rights + " ON {schema}.{table} TO {role}").format(**table_names),
        ]
    statements += _view_statements(schema, names)
    for table in (events_table, checkpoints_table, blobs):
        statements += _append_only_statements(table, names)
    statements += [
        sql.SQL("GRANT USAGE ON SCHEMA {schema} TO {role}").format(**names),
        sql.SQL("GRANT USAGE ON SEQUENCE {schema}.{sequence} TO {role}").format(
            sequence=sql.Identifier(f"{events_table}_notification_id_seq"), **names
        ),
    ]
    return statements


def _view_statements(schema: str, names: dict[str, sql.Identifier]) -> list[sql.Composed]:
    """The read models (docs/decisions/0021): not the record, so the service role changes their rows."""
    statements = [sql.SQL(statement).format() for statement in view_table_statements(schema)]
    statements.append(
        sql.SQL(
            "CREATE TABLE IF NOT EXISTS {schema}.{table} (application_name text, notification_id bigint, PRIMARY KEY (application_name))"
        ).format(table=sql.Identifier(VIEW_TRACKING_TABLE), **names)
    )
    for table in (*VIEW_TABLES, VIEW_TRACKING_TABLE):
        table_names = {**names, "table": sql.Identifier(table)}
        statements += [
            sql.SQL("REVOKE ALL ON {schema}.{table} FROM PUBLIC").format(**table_names),
            sql.SQL("GRANT SELECT, INSERT, UPDATE, DELETE ON {schema}.{table} TO {role}").format(**table_names),
        ]
    return statements


def _append_only_statements(table: str, names: dict[str, sql.Identifier]) -> list[sql.Composed]:
    """Triggers that refuse UPDATE, DELETE and TRUNCATE on ``table``, and the service role's
    SELECT and INSERT on it, nothing more."""
    table_names = {
        **names,
        "table": sql.Identifier(table),
        "row_trigger": sql.Identifier(f"{table}_append_only"),
        "truncate_trigger": sql.Identifier(f"{table}_no_truncate"),
    }
    return [
        sql.SQL(
            "CREATE OR REPLACE TRIGGER {row_trigger} BEFORE UPDATE OR DELETE ON {schema}.{table} "
            "FOR EACH ROW EXECUTE FUNCTION {schema}.{function}()"
        ).format(**table_names),
        sql.SQL(
            "CREATE OR REPLACE TRIGGER {truncate_trigger} BEFORE TRUNCATE ON {schema}.{table} "
            "FOR EACH STATEMENT EXECUTE FUNCTION {schema}.{function}()"
        ).format(**table_names),
        sql.SQL("REVOKE ALL ON {schema}.{table} FROM PUBLIC").format(**table_names),
        sql.SQL("REVOKE ALL ON {schema}.{table} FROM {role}").format(**table_names),
        sql.SQL("GRANT SELECT, INSERT ON {schema}.{table} TO {role}").format(**table_names),
    ]


def hardening_sql(schema: str, events_table: str, service_role: str) -> str:
    """The SQL, as text, for an operator to review or apply as the owner role."""
    lines = [statement.as_string(None) + ";" for statement in hardening_statements(schema, events_table, service_role)]
    return "\n".join(lines) + "\n"


def harden_postgres(
    owner_env: dict[str, str],
    description: str,
    service_role: str,
    *,
    service_password: str | None = None,
    create_tables: Callable[[dict[str, str]], None],
    schema: str = "public",
    events_table: str = EVENTS_TABLE,
) -> dict[str, Any]:
    """Create the ledger's tables as the owner (``create_tables``: the composition root's, given the
    owner's persistence settings), then make them append-only for ``service_role`` (created with
    LOGIN if missing). ``owner_env``: the owner's persistence settings; ``description`` names the
    database in messages. Returns what was done."""
    env = {**owner_env, "POSTGRES_SCHEMA": schema}
    conninfo = make_conninfo(
        dbname=env["POSTGRES_DBNAME"],
        host=env["POSTGRES_HOST"],
        port=env["POSTGRES_PORT"],
        user=env["POSTGRES_USER"],
        password=env["POSTGRES_PASSWORD"],
        connect_timeout=5,
    )
    try:
        with psycopg.connect(conninfo, autocommit=True) as connection:
            _check_roles(connection, env["POSTGRES_USER"], service_role)
            created = _ensure_role(connection, service_role, service_password)
        # The owner creates the tables through the very recorder the service uses, under its name.
        create_tables(env)
        with psycopg.connect(conninfo) as connection, connection.transaction():
            for statement in hardening_statements(schema, events_table, service_role):
                connection.execute(statement)
    except psycopg.OperationalError as exc:
        raise LedgerUnavailable(f"the database ({description}) does not answer: {_first_line(exc)}") from None
    except psycopg.errors.InsufficientPrivilege as exc:
        raise ConfigurationError(
            f"the owner role {env['POSTGRES_USER']} may not set the ledger up ({_first_line(exc)}): it must own the "
            "database's schema, and have CREATEROLE to create the service role"
        ) from None
    except psycopg.Error as exc:
        raise ConfigurationError(f"setting the ledger up failed: {_first_line(exc)}") from None
    return {
        "owner": env["POSTGRES_USER"],
        "service_role": service_role,
        "role_created": created,
        "schema": schema,
        "tables": [events_table, f"{events_table}_checkpoints", blobs_table(events_table)],
        "index_tables": [open_table(events_table), kinds_table(events_table)],
    }


def _check_roles(connection: psycopg.Connection[Any], owner: str, service_role: str) -> None:
    if service_role == owner:
        raise ConfigurationError(
            f"the service role must not be the owner {owner}: the owner can switch the protections off"
        )
    row = connection.execute("SELECT rolsuper FROM pg_roles WHERE rolname = %s", (service_role,)).fetchone()
    if row is not None and row[0]:
        raise ConfigurationError(
            f"the service role {service_role} is a superuser, which can switch the protections off: use a plain role"
        )


def _ensure_role(connection: psycopg.Connection[Any], role: str, password: str | None) -> bool:
    exists = connection.execute("SELECT 1 FROM pg_roles WHERE rolname = %s", (role,)).fetchone() is not None
    if exists and password is None:
        return False
    verb = "ALTER" if exists else "CREATE"
    statement = sql.SQL(verb + " ROLE {role} WITH LOGIN").format(role=sql.Identifier(role))
    if password is not None:
        statement += sql.SQL(" PASSWORD {password}").format(password=sql.Literal(password))
    connection.execute(statement)
    return not exists


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip()
    return text.splitlines()[0] if text else type(exc).__name__
