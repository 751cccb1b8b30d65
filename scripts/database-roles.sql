-- The two PostgreSQL roles Keycard runs with (docs/operations.md#database-roles).
--
-- Run once, as a superuser or a role with CREATEROLE and CREATEDB:
--   psql "postgres://postgres@db:5432/postgres" \
--     -v owner_password="'…'" -v app_password="'…'" -f scripts/database-roles.sql
--
-- keycard_owner owns the database, its schema and every table: it runs the migrations
-- (MIGRATION_DATABASE_URL). keycard_app is what the server serves as (DATABASE_URL): after
-- each migration the owner grants it every table read and written, and the audit log only
-- read and appended to (keycard db migrate --app-role keycard_app, or the server's own start
-- with both URLs set). Neither role is a superuser, and keycard_app is not a member of
-- keycard_owner: it cannot rewrite, remove or truncate audit entries, nor disable the
-- triggers that keep the log append-only, and the server refuses to start on a role that can.

create role keycard_owner login password :owner_password nosuperuser nocreaterole nocreatedb;
create role keycard_app login password :app_password nosuperuser nocreaterole nocreatedb noinherit;
create database keycard owner keycard_owner;

\connect keycard
-- PostgreSQL 15 and later already keep CREATE on the public schema from everyone but its
-- owner; older versions granted it to PUBLIC.
revoke create on schema public from public;
alter schema public owner to keycard_owner;
grant usage on schema public to keycard_app;
