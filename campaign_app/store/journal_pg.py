"""The journal on a PostgreSQL server: written by the server alone, replayed by the server.

On a file every program that can open the file may write anything, so the journal is kept by the client
(:mod:`.journal`). On a server a player may connect with ``psql`` under their own login, so nothing the journal
trusts may come from the client:

- **Recording.** One trigger function (``campaign_app_journal``, ``SECURITY DEFINER``, owned by the tables' owner,
  ``search_path`` and ``TimeZone`` pinned) records every insert, update and delete of an app table into
  ``operation_change``. Players may only read the journal's tables. The trigger records into the operation that
  ``campaign_app_begin`` opened *in this transaction* (``journal_open``, a table only the owner can touch, keyed
  by the transaction id), so a player cannot aim it at anyone else's operation.
- **Opening and closing.** ``campaign_app_begin(kind, label)`` makes the operation row with the server's clock
  (``journal_clock``) and ``session_user``; ``campaign_app_end(op, label, merge_key)`` derives the operation's
  campaign, platoon and sheet from the rows it really touched, takes the journal's lock for the moment it needs
  (the row of ``journal_state``: players may not lock it), renumbers the operation with the next tick of the
  clock (so the journal's order is the order of commits), joins a run of XP steps, and announces it.
- **Ids.** Rows of app tables get their ids from their identity; an id given explicitly by a player is refused
  (``campaign_app_id_guard``) unless an undo or redo of the server's is putting that very row back.
- **Undo and redo.** ``campaign_app_replay(op, undoing)`` is ``SECURITY INVOKER``: it replays the change
  records with the rights of the login who asks, so row-level security judges every row it writes. It names
  tables only from the fixed list of the app's tables (quoted with ``%I``, never formatted from stored text).
  ``campaign_app_replay_open`` (definer) decides who may replay what (the hook ``campaign_app_may_replay``: on a
  club server one's own operations, an organiser's operations in her campaigns) and checks for conflicts;
  ``campaign_app_replay_close`` (definer) verifies that every touched row is now exactly as the journal says,
  then stamps the operation undone or redone. So a player who calls the two definer functions by hand cannot mark
  an operation undone without undoing it.

Errors raised here carry SQLSTATEs of their own (:data:`SQLSTATES`): the client turns them into the app's
``Conflict``, ``NotYours`` and ``NotJournaled`` with the server's sentence.

Qt-free. Installed by :func:`install` (migration 0006 and every later ``install_triggers``); the club's hook is
replaced by ``server init`` (:mod:`.club_server`).
"""

from __future__ import annotations

from typing import Any

SQLSTATES = {
    "CA409": "conflict",
    "CA403": "not_yours",
    "CA404": "not_journaled",
    "CA400": "refused",
    "CA412": "changed",
}
"""The journal's own SQLSTATEs: replay refused for a conflict, for want of rights, no such operation, a
refusal of the journal itself (an explicit id, a write outside an operation), and a write's guard that found
the data changed since it was read (:func:`.batch.expect`, raised by the client's own ``DO`` block)."""

SERVER_START_KIND = "journal.server"
"""The operation that marks where the server began keeping the journal itself: operations recorded before it
(by clients) are history only and are not replayed."""

CLOCK = "journal_clock"


def _quote_literal(text: str) -> str:
    return "'" + text.replace("'", "''") + "'"


def _tables_array(tables: list[str]) -> str:
    return "ARRAY[" + ", ".join(_quote_literal(t) for t in tables) + "]::text[]" if tables else "ARRAY[]::text[]"


PINNED = "SET search_path = pg_catalog, public, pg_temp SET TimeZone = 'UTC'"

STATIC_SQL = r"""
CREATE TABLE IF NOT EXISTS journal_open (
  xact bigint PRIMARY KEY,
  operation_id bigint NOT NULL,
  merged boolean NOT NULL DEFAULT false,
  changes_before bigint NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS journal_replay (
  xact bigint PRIMARY KEY,
  operation_id bigint NOT NULL,
  undoing boolean NOT NULL,
  scratch bigint NOT NULL
);
CREATE SEQUENCE IF NOT EXISTS journal_clock;

-- An operation or replay opened and never closed cannot commit: what it wrote would be nobody's operation
-- (unannounced, unnumbered, beyond undo). A constraint trigger checked at commit.
CREATE OR REPLACE FUNCTION campaign_app_left_open() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, public, pg_temp AS $fn$
BEGIN
  IF TG_TABLE_NAME = 'journal_open' AND EXISTS (SELECT 1 FROM journal_open o WHERE o.xact = NEW.xact) THEN
    RAISE EXCEPTION 'campaign_app: an operation was opened and not closed (campaign_app_end); nothing was written'
      USING ERRCODE = 'CA400';
  END IF;
  IF TG_TABLE_NAME = 'journal_replay' AND EXISTS (SELECT 1 FROM journal_replay r WHERE r.xact = NEW.xact) THEN
    RAISE EXCEPTION 'campaign_app: an undo or redo was opened and not finished; nothing was written'
      USING ERRCODE = 'CA400';
  END IF;
  RETURN NULL;
END
$fn$;
DROP TRIGGER IF EXISTS journal_open_closed ON journal_open;
CREATE CONSTRAINT TRIGGER journal_open_closed AFTER INSERT ON journal_open DEFERRABLE INITIALLY DEFERRED
  FOR EACH ROW EXECUTE FUNCTION campaign_app_left_open();
DROP TRIGGER IF EXISTS journal_replay_closed ON journal_replay;
CREATE CONSTRAINT TRIGGER journal_replay_closed AFTER INSERT ON journal_replay DEFERRABLE INITIALLY DEFERRED
  FOR EACH ROW EXECUTE FUNCTION campaign_app_left_open();

CREATE OR REPLACE FUNCTION campaign_app_xact() RETURNS bigint
LANGUAGE sql VOLATILE SET search_path = pg_catalog, public, pg_temp AS $$
  SELECT pg_current_xact_id()::text::bigint
$$;

CREATE OR REPLACE FUNCTION campaign_app_is_owner() RETURNS boolean
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = pg_catalog, public, pg_temp AS $$
  SELECT pg_has_role(session_user, (SELECT relowner FROM pg_class WHERE oid = 'public.operation'::regclass),
                     'MEMBER')
$$;

CREATE OR REPLACE FUNCTION campaign_app_now() RETURNS text
LANGUAGE sql STABLE SET TimeZone = 'UTC' AS $$
  SELECT to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS') || '+00:00'
$$;

CREATE OR REPLACE FUNCTION campaign_app_journal() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, public, pg_temp SET TimeZone = 'UTC' AS $fn$
DECLARE
  op bigint;
  old_image jsonb;
  new_image jsonb;
BEGIN
  IF coalesce(current_setting('campaign_app.journal_mode', true), '') = 'off' THEN
    IF campaign_app_is_owner() THEN
      RETURN NULL;
    END IF;
    RAISE EXCEPTION 'campaign_app: only the database''s owner may write without the journal'
      USING ERRCODE = '42501';
  END IF;
  SELECT o.operation_id INTO op FROM journal_open o WHERE o.xact = campaign_app_xact();
  IF op IS NULL THEN
    SELECT r.scratch INTO op FROM journal_replay r WHERE r.xact = campaign_app_xact();
  END IF;
  IF op IS NULL THEN
    RAISE EXCEPTION 'campaign_app: a write outside an operation (use store.journal.operation)'
      USING ERRCODE = 'CA400';
  END IF;
  IF TG_OP = 'INSERT' THEN
    INSERT INTO operation_change (operation_id, table_name, row_id, action, old, new)
      VALUES (op, TG_TABLE_NAME, NEW.id, 'insert', NULL, to_jsonb(NEW)::text);
  ELSIF TG_OP = 'UPDATE' THEN
    old_image := to_jsonb(OLD);
    new_image := to_jsonb(NEW);
    IF old_image IS DISTINCT FROM new_image THEN
      INSERT INTO operation_change (operation_id, table_name, row_id, action, old, new)
        VALUES (op, TG_TABLE_NAME, NEW.id, 'update', old_image::text, new_image::text);
    END IF;
  ELSE
    INSERT INTO operation_change (operation_id, table_name, row_id, action, old, new)
      VALUES (op, TG_TABLE_NAME, OLD.id, 'delete', to_jsonb(OLD)::text, NULL);
  END IF;
  RETURN NULL;
END
$fn$;

-- Ids come from the server: an id a player gives is refused unless it is the one this session just drew from the
-- table's identity, or a row that the server's undo or redo is putting back.
CREATE OR REPLACE FUNCTION campaign_app_id_guard() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, public, pg_temp AS $fn$
DECLARE
  drawn bigint;
BEGIN
  BEGIN
    drawn := currval(TG_ARGV[0]::regclass);
  EXCEPTION WHEN object_not_in_prerequisite_state THEN
    drawn := NULL;
  END;
  IF NEW.id IS NOT DISTINCT FROM drawn THEN
    RETURN NEW;
  END IF;
  IF EXISTS (SELECT 1 FROM journal_replay r JOIN operation_change c ON c.operation_id = r.operation_id
             WHERE r.xact = campaign_app_xact() AND c.table_name = TG_TABLE_NAME AND c.row_id = NEW.id) THEN
    RETURN NEW;
  END IF;
  IF campaign_app_is_owner() THEN
    RETURN NEW;
  END IF;
  RAISE EXCEPTION 'campaign_app: % % was given its id by the client; the server numbers new rows itself',
    TG_TABLE_NAME, NEW.id USING ERRCODE = 'CA400';
END
$fn$;

CREATE OR REPLACE FUNCTION campaign_app_begin(p_kind text, p_label text, p_merge_key text DEFAULT NULL,
                                              OUT id bigint, OUT merged boolean)
LANGUAGE plpgsql VOLATILE SECURITY DEFINER SET search_path = pg_catalog, public, pg_temp AS $fn$
#variable_conflict use_column
DECLARE
  x bigint := campaign_app_xact();
  stamp text := campaign_app_now();
  prev operation%ROWTYPE;
  op bigint;
  joined boolean := false;
BEGIN
  IF EXISTS (SELECT 1 FROM journal_open o WHERE o.xact = x) OR EXISTS (SELECT 1 FROM journal_replay r
                                                                       WHERE r.xact = x) THEN
    RAISE EXCEPTION 'campaign_app: an operation is open in this transaction already' USING ERRCODE = 'CA400';
  END IF;
  IF p_merge_key IS NOT NULL THEN
    -- a run of steps on one XP track: the newest operation of the whole journal, the login's own, of the same
    -- kind and key, not undone, within a minute, takes this step too
    SELECT * INTO prev FROM operation o ORDER BY o.id DESC LIMIT 1;
    IF FOUND AND prev.kind = p_kind AND prev.merge_key = p_merge_key AND prev.undone = 0
       AND prev."user" = session_user
       AND (stamp::timestamptz - prev.updated_at::timestamptz) <= interval '60 seconds' THEN
      op := prev.id;
      joined := true;
    END IF;
  END IF;
  IF NOT joined THEN
    op := nextval('journal_clock');
    INSERT INTO operation (id, kind, label, merge_key, created_at, updated_at, "user")
      VALUES (op, left(coalesce(p_kind, ''), 100), left(coalesce(nullif(p_label, ''), p_kind, ''), 1000),
              p_merge_key, stamp, stamp, session_user);
  END IF;
  INSERT INTO journal_open (xact, operation_id, merged, changes_before)
    VALUES (x, op, joined, (SELECT count(*) FROM operation_change c WHERE c.operation_id = op));
  id := op;
  merged := joined;
END
$fn$;

-- The journal's lock, for the moments that need it (numbering an operation, stamping an undo): a row lock on
-- journal_state, which players may read but not lock.
CREATE OR REPLACE FUNCTION campaign_app_lock() RETURNS void
LANGUAGE plpgsql VOLATILE SECURITY DEFINER SET search_path = pg_catalog, public, pg_temp AS $fn$
BEGIN
  PERFORM 1 FROM journal_state WHERE id = 1 FOR UPDATE;
END
$fn$;

CREATE OR REPLACE FUNCTION campaign_app_end(p_op bigint, p_label text)
RETURNS TABLE (id bigint, merged boolean, campaign_id bigint, platoon_id bigint, sheet_id bigint, touched jsonb)
LANGUAGE plpgsql VOLATILE SECURITY DEFINER SET search_path = pg_catalog, public, pg_temp AS $fn$
#variable_conflict use_column
DECLARE
  x bigint := campaign_app_xact();
  st journal_open%ROWTYPE;
  mine operation%ROWTYPE;
  final bigint;
  stamp text := campaign_app_now();
  t record;
BEGIN
  SELECT * INTO st FROM journal_open o WHERE o.xact = x AND o.operation_id = p_op;
  IF NOT FOUND THEN
    RAISE EXCEPTION 'campaign_app: operation % is not open in this transaction', p_op USING ERRCODE = 'CA400';
  END IF;
  DELETE FROM journal_open o WHERE o.xact = x;
  SELECT * INTO mine FROM operation o WHERE o.id = p_op;
  IF (SELECT count(*) FROM operation_change c WHERE c.operation_id = p_op) = st.changes_before THEN
    -- this step wrote nothing: a new operation leaves no row, a joined run stays as it was
    IF NOT st.merged THEN
      DELETE FROM operation o WHERE o.id = p_op;
      RETURN QUERY SELECT NULL::bigint, false, NULL::bigint, NULL::bigint, NULL::bigint, '[]'::jsonb;
      RETURN;
    END IF;
    final := p_op;
  ELSIF st.merged THEN
    -- a step joining a run keeps the run's id (one operation); its stamp in the change feed is a new tick of the
    -- clock in undo_seq (a live operation's undo_seq is the tick of its last step or redo)
    PERFORM campaign_app_lock();
    final := p_op;
    UPDATE operation o SET undo_seq = nextval('journal_clock'), updated_at = stamp,
      label = left(coalesce(nullif(p_label, ''), o.label), 1000) WHERE o.id = p_op;
    SELECT * INTO t FROM campaign_app_targets(final);
    UPDATE operation o SET campaign_id = t.campaign_id, platoon_id = t.platoon_id, sheet_id = t.sheet_id
      WHERE o.id = final;
    PERFORM pg_notify('campaign_app', final::text);
  ELSE
    -- numbered in the order of commits: the lock is held from here to the commit, which the client sends
    -- in the same message (no round trip while it is held)
    PERFORM campaign_app_lock();
    final := nextval('journal_clock');
    INSERT INTO operation (id, kind, label, merge_key, created_at, updated_at, "user")
      VALUES (final, mine.kind, left(coalesce(nullif(p_label, ''), mine.label), 1000), mine.merge_key,
              mine.created_at, stamp, mine."user");
    UPDATE operation_change c SET operation_id = final WHERE c.operation_id = p_op;
    DELETE FROM operation o WHERE o.id = p_op;
    SELECT * INTO t FROM campaign_app_targets(final);
    UPDATE operation o SET campaign_id = t.campaign_id, platoon_id = t.platoon_id, sheet_id = t.sheet_id
      WHERE o.id = final;
    PERFORM pg_notify('campaign_app', final::text);
  END IF;
  RETURN QUERY SELECT o.id, st.merged, o.campaign_id, o.platoon_id, o.sheet_id,
    (SELECT coalesce(jsonb_agg(DISTINCT jsonb_build_array(c.table_name, c.row_id)), '[]'::jsonb)
       FROM operation_change c WHERE c.operation_id = final)
    FROM operation o WHERE o.id = final;
END
$fn$;

-- The newest committed tick of the clock this login can see the effects of (the change feed's "since").
CREATE OR REPLACE FUNCTION campaign_app_newest() RETURNS bigint
LANGUAGE sql STABLE SET search_path = pg_catalog, public, pg_temp AS $$
  SELECT coalesce(GREATEST(MAX(id), MAX(undo_seq)), 0) FROM operation
$$;
"""

MAY_REPLAY_DEFAULT = r"""
DO $do$
BEGIN
  IF to_regprocedure('campaign_app_may_see(bigint)') IS NULL THEN
    -- who may know that an operation exists (its label, its author): without the club's rules, everyone
    EXECUTE $f$CREATE FUNCTION campaign_app_may_see(p_op bigint) RETURNS boolean
      LANGUAGE sql STABLE SECURITY DEFINER SET search_path = pg_catalog, public, pg_temp AS
      'SELECT true'$f$;
  END IF;
  IF to_regprocedure('campaign_app_may_manage(bigint)') IS NULL THEN
    -- who may fold a campaign's journal and set its budget: without the club's rules, the tables' owner
    EXECUTE $f$CREATE FUNCTION campaign_app_may_manage(p_campaign bigint) RETURNS boolean
      LANGUAGE sql STABLE SECURITY DEFINER SET search_path = pg_catalog, public, pg_temp AS
      'SELECT campaign_app_is_owner()'$f$;
  END IF;
  IF to_regprocedure('campaign_app_may_replay(bigint)') IS NULL THEN
    -- a server database without the club's rules: the server's grants decide (the owner may do everything)
    EXECUTE $f$CREATE FUNCTION campaign_app_may_replay(p_op bigint) RETURNS boolean
      LANGUAGE sql STABLE SECURITY DEFINER SET search_path = pg_catalog, public, pg_temp AS
      'SELECT true'$f$;
  END IF;
END
$do$;
"""


def targets_sql(tables: list[str]) -> str:
    """``campaign_app_targets``: an operation's campaign, platoon and sheet from the rows it touched. Rows of
    systems without a platoon or sheet (d12 Death Blow's fighters and bouts) find their campaign through their
    fighter, when those tables exist."""
    extra = ""
    if "fighter" in tables:
        extra += ",\n           (SELECT f.campaign_id FROM fighter f WHERE f.id = (r.img->>'fighter_id')::bigint)"
    if "bout" in tables and "fighter" in tables:
        extra += (
            ",\n           (SELECT f.campaign_id FROM bout b JOIN fighter f ON f.id = b.fighter_id "
            "WHERE b.id = (r.img->>'bout_id')::bigint)"
        )
    return (
        r"""
-- A row's platoon, sheet and campaign, from its image (the rows an operation touched decide its target, never
-- what the client says).
CREATE OR REPLACE FUNCTION campaign_app_targets(p_op bigint)
RETURNS TABLE (campaign_id bigint, platoon_id bigint, sheet_id bigint)
LANGUAGE plpgsql STABLE SECURITY DEFINER SET search_path = pg_catalog, public, pg_temp AS $fn$
#variable_conflict use_column
DECLARE
  platoons bigint[];
  sheets bigint[];
  campaigns bigint[];
BEGIN
  WITH imgs AS (
    SELECT c.table_name AS t, c.row_id AS rid, coalesce(c.new, c.old)::jsonb AS img
    FROM operation_change c WHERE c.operation_id = p_op
  ), attached AS (  -- an attached unit's platoon, also when the operation deleted it
    SELECT i.rid, (i.img->>'platoon_id')::bigint AS pid FROM imgs i WHERE i.t = 'attached_unit'
  ), tr AS (
    SELECT i.t, i.rid, i.img,
      CASE WHEN i.t = 'platoon' THEN i.rid
           WHEN i.t = 'equipment' AND i.img->>'platoon_id' IS NULL THEN
             coalesce((SELECT a.pid FROM attached a WHERE a.rid = (i.img->>'attached_id')::bigint),
                      (SELECT u.platoon_id FROM attached_unit u WHERE u.id = (i.img->>'attached_id')::bigint))
           ELSE (i.img->>'platoon_id')::bigint END AS pid,
      CASE WHEN i.t = 'sologear_sheet' THEN i.rid ELSE (i.img->>'sheet_id')::bigint END AS sid,
      CASE WHEN i.t = 'campaign' THEN i.rid ELSE (i.img->>'campaign_id')::bigint END AS cid
    FROM imgs i
  )
  SELECT array_agg(DISTINCT r.pid) FILTER (WHERE r.pid IS NOT NULL),
         array_agg(DISTINCT r.sid) FILTER (WHERE r.sid IS NOT NULL),
         array_agg(DISTINCT coalesce(r.cid,
           (SELECT p.campaign_id FROM platoon p WHERE p.id = r.pid),
           (SELECT (i.img->>'campaign_id')::bigint FROM imgs i WHERE i.t = 'platoon' AND i.rid = r.pid LIMIT 1),
           (SELECT s.campaign_id FROM sologear_sheet s WHERE s.id = r.sid),
           (SELECT (i.img->>'campaign_id')::bigint FROM imgs i WHERE i.t = 'sologear_sheet' AND i.rid = r.sid
            LIMIT 1)"""
        + extra
        + r"""))
  INTO platoons, sheets, campaigns FROM tr r;
  campaigns := array_remove(campaigns, NULL);
  RETURN QUERY SELECT
    CASE WHEN cardinality(campaigns) = 1 THEN campaigns[1] END,
    CASE WHEN cardinality(platoons) = 1 AND coalesce(cardinality(sheets), 0) = 0 THEN platoons[1] END,
    CASE WHEN cardinality(sheets) = 1 AND coalesce(cardinality(platoons), 0) = 0 THEN sheets[1] END;
END
$fn$;

"""
    )


def replay_sql(tables: list[str], ranks: dict[str, int]) -> str:
    """The replay functions; ``tables`` is the fixed list of the app's tables that a change record may name,
    ``ranks`` their depth in the foreign keys (a table ranks after every table it points at)."""
    allowed = _tables_array(tables)
    cases = " ".join(f"WHEN {_quote_literal(t)} THEN {int(r)}" for t, r in sorted(ranks.items()))
    rank = f"CASE p_table {cases} ELSE 0 END" if cases else "0"
    return (
        r"""
CREATE OR REPLACE FUNCTION campaign_app_tables() RETURNS text[]
LANGUAGE sql IMMUTABLE AS $$ SELECT """
        + allowed
        + r""" $$;

CREATE OR REPLACE FUNCTION campaign_app_table_rank(p_table text) RETURNS int
LANGUAGE sql IMMUTABLE AS $$ SELECT """
        + rank
        + r""" $$;

CREATE OR REPLACE FUNCTION campaign_app_refuse(p_code text, p_message text) RETURNS void
LANGUAGE plpgsql AS $fn$
BEGIN
  RAISE EXCEPTION USING MESSAGE = p_message, ERRCODE = p_code;
END
$fn$;

-- Another operation named in a refusal: by its label only where the caller may know it, else by its number.
CREATE OR REPLACE FUNCTION campaign_app_op_named(p_op bigint) RETURNS text
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = pg_catalog, public, pg_temp AS $$
  SELECT CASE WHEN campaign_app_may_see(p_op)
              THEN (SELECT '“' || o.label || '” (operation ' || o.id || ')' FROM operation o WHERE o.id = p_op)
              ELSE 'a change of another campaign (operation ' || p_op || ')' END
$$;

CREATE OR REPLACE FUNCTION campaign_app_op_words(p_op bigint) RETURNS text
LANGUAGE sql STABLE SET search_path = pg_catalog, public, pg_temp AS $$
  SELECT '“' || o.label || '” (operation ' || o.id || ')' FROM operation o WHERE o.id = p_op
$$;

-- Who may replay, what conflicts, and the change records to replay (definer: it sees the whole journal).
CREATE OR REPLACE FUNCTION campaign_app_replay_open(p_op bigint, p_undoing boolean) RETURNS jsonb
LANGUAGE plpgsql VOLATILE SECURITY DEFINER SET search_path = pg_catalog, public, pg_temp AS $fn$
DECLARE
  x bigint := campaign_app_xact();
  info operation%ROWTYPE;
  verb text := CASE WHEN p_undoing THEN 'undo' ELSE 'redo' END;
  other bigint;
  server_start bigint;
  scratch bigint;
  bad text;
  stamp text := campaign_app_now();
BEGIN
  IF EXISTS (SELECT 1 FROM journal_open WHERE xact = x) OR EXISTS (SELECT 1 FROM journal_replay WHERE xact = x) THEN
    PERFORM campaign_app_refuse('CA400', 'cannot ' || verb || ' inside another operation');
  END IF;
  SELECT * INTO info FROM operation o WHERE o.id = p_op;
  IF NOT FOUND OR info.kind = 'journal.replay' OR NOT campaign_app_may_see(p_op) THEN
    -- an operation of a campaign the caller is not in is not there for him (no label, no author, no campaign)
    PERFORM campaign_app_refuse('CA404', 'no operation ' || p_op || ' in the journal');
  END IF;
  IF NOT campaign_app_may_replay(p_op) THEN
    PERFORM campaign_app_refuse('CA403', '“' || info.label || '” was made by '
      || coalesce(nullif(info."user", ''), 'nobody in particular')
      || CASE WHEN info.campaign_id IS NOT NULL
              THEN '; only they or an organiser of ' || coalesce((SELECT c.name FROM campaign c
                   WHERE c.id = info.campaign_id), 'its campaign') || ' can ' || verb || ' it'
              ELSE '; only they can ' || verb || ' it' END);
  END IF;
  IF info.kind = 'journal.start' OR info.kind = 'journal.server' THEN
    PERFORM campaign_app_refuse('CA409',
      'the start of the journal cannot be undone: changes made before it were not recorded');
  END IF;
  IF NOT EXISTS (SELECT 1 FROM operation_change c WHERE c.operation_id = p_op) THEN
    -- folded by its campaign's journal budget (campaign_app_compact): listed, no longer replayable
    PERFORM campaign_app_refuse('CA409', '“' || info.label || '” (operation ' || info.id || ') was folded into '
      || 'the journal''s history to save space: it is kept as a record but can no longer be '
      || CASE WHEN p_undoing THEN 'undone' ELSE 'redone' END);
  END IF;
  SELECT max(o.id) INTO server_start FROM operation o WHERE o.kind = 'journal.server';
  IF server_start IS NOT NULL AND p_op < server_start THEN
    PERFORM campaign_app_refuse('CA409', 'cannot ' || verb || ' “' || info.label || '”: it was recorded before '
      || 'the server kept the journal itself, so it is history only; nothing was changed');
  END IF;
  SELECT c.table_name INTO bad FROM operation_change c
    WHERE c.operation_id = p_op AND NOT (c.table_name = ANY (campaign_app_tables())) LIMIT 1;
  IF bad IS NOT NULL THEN
    PERFORM campaign_app_refuse('CA409', 'cannot ' || verb || ' “' || info.label || '”: its record names a table '
      || 'that is not one of the app''s; nothing was changed');
  END IF;
  IF p_undoing AND info.undone = 1 THEN
    PERFORM campaign_app_refuse('CA409', '“' || info.label || '” (operation ' || info.id || ') is already undone');
  END IF;
  IF NOT p_undoing AND info.undone = 0 THEN
    PERFORM campaign_app_refuse('CA409', '“' || info.label || '” (operation ' || info.id || ') is not undone');
  END IF;
  -- a later live operation touched the same rows
  SELECT min(c2.operation_id) INTO other FROM operation_change c1
    JOIN operation_change c2 ON c2.table_name = c1.table_name AND c2.row_id = c1.row_id
    JOIN operation o ON o.id = c2.operation_id
    WHERE c1.operation_id = p_op AND c2.operation_id > p_op AND o.undone = 0 AND o.kind <> 'journal.replay';
  IF other IS NOT NULL THEN
    IF p_undoing THEN
      PERFORM campaign_app_refuse('CA409', 'cannot undo “' || info.label || '”: ' || campaign_app_op_named(other)
        || ' changed the same data later; undo that first');
    ELSE
      PERFORM campaign_app_refuse('CA409', 'cannot redo “' || info.label || '”: ' || campaign_app_op_named(other)
        || ' has changed the same data since');
    END IF;
  END IF;
  IF NOT p_undoing THEN
    -- an earlier operation on the same (pre-existing) rows, undone after this one was made
    SELECT max(c2.operation_id) INTO other FROM (
        SELECT DISTINCT ON (c.table_name, c.row_id) c.table_name, c.row_id, c.action FROM operation_change c
        WHERE c.operation_id = p_op ORDER BY c.table_name, c.row_id, c.id) first
      JOIN operation_change c2 ON c2.table_name = first.table_name AND c2.row_id = first.row_id
      JOIN operation o ON o.id = c2.operation_id
      WHERE first.action <> 'insert' AND c2.operation_id < p_op AND o.undone = 1 AND o.undo_seq > p_op;
    IF other IS NOT NULL THEN
      PERFORM campaign_app_refuse('CA409', 'cannot redo “' || info.label || '” before '
        || campaign_app_op_named(other) || ', which it builds on; redo that first');
    END IF;
  END IF;
  scratch := nextval('journal_clock');
  INSERT INTO operation (id, kind, label, created_at, updated_at, "user")
    VALUES (scratch, 'journal.replay', '', stamp, stamp, session_user);
  INSERT INTO journal_replay (xact, operation_id, undoing, scratch) VALUES (x, p_op, p_undoing, scratch);
  RETURN jsonb_build_object(
    'scratch', scratch, 'label', info.label,
    'changes', (SELECT coalesce(jsonb_agg(jsonb_build_object('t', c.table_name, 'id', c.row_id, 'a', c.action,
                                                            'old', c.old::jsonb, 'new', c.new::jsonb) ORDER BY c.id),
                                '[]'::jsonb)
                FROM operation_change c WHERE c.operation_id = p_op));
END
$fn$;

-- What the replay changed so far (the scratch operation's rows): cascades of its own steps.
CREATE OR REPLACE FUNCTION campaign_app_replay_swept() RETURNS text[]
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = pg_catalog, public, pg_temp AS $$
  SELECT coalesce(array_agg(DISTINCT c.table_name || ':' || c.row_id), ARRAY[]::text[])
  FROM journal_replay r JOIN operation_change c ON c.operation_id = r.scratch WHERE r.xact = campaign_app_xact()
$$;

-- A row as the journal says it should be (NULL image: absent). Compared as values, not text.
-- Invoker's rights: a player asking sees only what row-level security shows them (the close, a definer
-- function, asks as the owner and sees every row).
CREATE OR REPLACE FUNCTION campaign_app_row_is(p_table text, p_id bigint, p_image jsonb) RETURNS boolean
LANGUAGE plpgsql STABLE SET search_path = pg_catalog, public, pg_temp SET TimeZone = 'UTC'
AS $fn$
DECLARE
  same boolean;
BEGIN
  IF NOT (p_table = ANY (campaign_app_tables())) THEN
    RETURN false;
  END IF;
  IF p_image IS NULL THEN
    EXECUTE format('SELECT NOT EXISTS (SELECT 1 FROM %I WHERE id = $1)', p_table) INTO same USING p_id;
    RETURN same;
  END IF;
  EXECUTE format('SELECT t IS NOT DISTINCT FROM jsonb_populate_record(NULL::%I, $2) FROM %I t WHERE t.id = $1',
                 p_table, p_table) INTO same USING p_id, p_image;
  RETURN coalesce(same, false);
END
$fn$;

CREATE OR REPLACE FUNCTION campaign_app_replay_close(p_op bigint) RETURNS jsonb
LANGUAGE plpgsql VOLATILE SECURITY DEFINER SET search_path = pg_catalog, public, pg_temp AS $fn$
DECLARE
  x bigint := campaign_app_xact();
  st journal_replay%ROWTYPE;
  info operation%ROWTYPE;
  stranger record;
  other bigint;
  wrong record;
  verb text;
  seq bigint;
BEGIN
  SELECT * INTO st FROM journal_replay r WHERE r.xact = x AND r.operation_id = p_op;
  IF NOT FOUND THEN
    PERFORM campaign_app_refuse('CA400', 'campaign_app: no replay of operation ' || p_op || ' is open');
  END IF;
  SELECT * INTO info FROM operation o WHERE o.id = p_op;
  verb := CASE WHEN st.undoing THEN 'undo' ELSE 'redo' END;
  -- rows the replay changed that the operation never touched (a cascade into rows added later)
  SELECT c.table_name, c.row_id INTO stranger FROM operation_change c
    WHERE c.operation_id = st.scratch AND NOT EXISTS (
      SELECT 1 FROM operation_change d WHERE d.operation_id = p_op AND d.table_name = c.table_name
      AND d.row_id = c.row_id)
    ORDER BY c.table_name, c.row_id LIMIT 1;
  IF FOUND THEN
    SELECT min(c.operation_id) INTO other FROM operation_change c JOIN operation o ON o.id = c.operation_id
      WHERE c.table_name = stranger.table_name AND c.row_id = stranger.row_id AND c.operation_id > p_op
      AND o.undone = 0 AND o.kind <> 'journal.replay';
    PERFORM campaign_app_refuse('CA409', 'cannot ' || verb || ' “' || info.label || '”: it would also remove '
      || replace(stranger.table_name, '_', ' ') || ' ' || stranger.row_id
      || coalesce(' (from ' || CASE WHEN campaign_app_may_see(other)
                                    THEN '“' || (SELECT o.label FROM operation o WHERE o.id = other) || '”, operation '
                                    ELSE 'a change of another campaign, operation ' END || other || ')', '')
      || '; undo that first; nothing was changed');
  END IF;
  -- every row the operation touched is now as the journal says: before it (undo) or after it (redo)
  SELECT f.table_name, f.row_id INTO wrong FROM (
      SELECT c.table_name, c.row_id,
        (array_agg(c.old::jsonb ORDER BY c.id))[1] AS first_old,
        (array_agg(c.new::jsonb ORDER BY c.id DESC))[1] AS last_new
      FROM operation_change c WHERE c.operation_id = p_op GROUP BY c.table_name, c.row_id) f
    WHERE NOT campaign_app_row_is(f.table_name, f.row_id, CASE WHEN st.undoing THEN f.first_old ELSE f.last_new END)
    LIMIT 1;
  IF FOUND THEN
    PERFORM campaign_app_refuse('CA409', 'cannot ' || verb || ' “' || info.label || '”: '
      || replace(wrong.table_name, '_', ' ') || ' ' || wrong.row_id
      || ' is not as the journal says after the ' || verb || '; nothing was changed');
  END IF;
  PERFORM campaign_app_lock();
  IF st.undoing THEN
    seq := nextval('journal_clock');
    UPDATE operation o SET undone = 1, undone_at = campaign_app_now(), undo_seq = seq WHERE o.id = p_op;
  ELSE
    -- live again; its stamp in the change feed is this tick (undo_seq of a live operation: its last step or redo)
    UPDATE operation o SET undone = 0, undone_at = NULL, undo_seq = nextval('journal_clock') WHERE o.id = p_op;
  END IF;
  DELETE FROM journal_replay r WHERE r.xact = x;
  DELETE FROM operation o WHERE o.id = st.scratch;
  PERFORM pg_notify('campaign_app', p_op::text);
  RETURN jsonb_build_object('id', info.id, 'kind', info.kind, 'label', info.label, 'campaign_id', info.campaign_id,
    'platoon_id', info.platoon_id, 'sheet_id', info.sheet_id,
    'touched', (SELECT coalesce(jsonb_agg(DISTINCT jsonb_build_array(c.table_name, c.row_id)), '[]'::jsonb)
                FROM operation_change c WHERE c.operation_id = p_op));
END
$fn$;

-- Undo or redo: run with the rights of the login who asks (row-level security judges every row written).
CREATE OR REPLACE FUNCTION campaign_app_replay(p_op bigint, p_undoing boolean) RETURNS jsonb
LANGUAGE plpgsql VOLATILE SECURITY INVOKER SET search_path = pg_catalog, public, pg_temp SET TimeZone = 'UTC'
AS $fn$
DECLARE
  plan jsonb;
  ch jsonb;
  t text;
  rid bigint;
  act text;
  label text;
  key text;
  swept text[] := ARRAY[]::text[];
  verb text := CASE WHEN p_undoing THEN 'undo' ELSE 'redo' END;
  cols text;
  n int;
  i int;
  step int;
  order_ int[];
BEGIN
  SET CONSTRAINTS ALL DEFERRED;
  plan := campaign_app_replay_open(p_op, p_undoing);
  label := plan->>'label';
  n := jsonb_array_length(plan->'changes');
  -- the steps in replay order. Undo: every row the operation deleted comes back first, parents before children
  -- (so row-level security finds each row's platoon or battle in place, whatever the cascade recorded between
  -- them), then the rest newest change first. Redo: in the order recorded, a run of rows put back parents first.
  SELECT coalesce(array_agg(s.i ORDER BY CASE WHEN p_undoing AND s.back THEN 0 ELSE 1 END,
                                     CASE WHEN p_undoing THEN 0 ELSE s.run END, s.rank, s.pos), ARRAY[]::int[])
    INTO order_ FROM (
    SELECT q.i, q.pos, q.back, sum(q.brk) OVER (ORDER BY q.pos) AS run,
           CASE WHEN q.back THEN campaign_app_table_rank(q.t) ELSE 0 END AS rank
    FROM (
      SELECT e.i, e.pos, e.t, e.back,
             CASE WHEN e.back AND coalesce(lag(e.back) OVER (ORDER BY e.pos), false) THEN 0 ELSE 1 END AS brk
      FROM (
        SELECT (x.ord - 1)::int AS i,
               CASE WHEN p_undoing THEN n - x.ord ELSE x.ord - 1 END AS pos,
               x.c->>'t' AS t,
               (p_undoing AND x.c->>'a' = 'delete') OR (NOT p_undoing AND x.c->>'a' = 'insert') AS back
        FROM jsonb_array_elements(plan->'changes') WITH ORDINALITY AS x(c, ord)) e) q) s;
  FOR step IN 0 .. n - 1 LOOP
    i := order_[step + 1];
    ch := plan->'changes'->i;
    t := ch->>'t';
    rid := (ch->>'id')::bigint;
    act := ch->>'a';
    key := t || ':' || rid;
    IF NOT (t = ANY (campaign_app_tables())) THEN
      PERFORM campaign_app_refuse('CA409', 'cannot ' || verb || ' “' || label || '”: its record names a table '
        || 'that is not one of the app''s; nothing was changed');
    END IF;
    SELECT string_agg(format('%I', a.attname), ', ' ORDER BY a.attnum) INTO cols FROM pg_attribute a
      WHERE a.attrelid = format('public.%I', t)::regclass AND a.attnum > 0 AND NOT a.attisdropped
      AND a.attname <> 'id';
    IF (p_undoing AND act = 'insert') OR (NOT p_undoing AND act = 'delete') THEN
      -- the row goes
      IF NOT campaign_app_row_is(t, rid, NULL) THEN
        IF NOT campaign_app_row_is(t, rid, ch->CASE WHEN p_undoing THEN 'new' ELSE 'old' END) THEN
          PERFORM campaign_app_refuse('CA409', 'cannot ' || verb || ' “' || label || '”: ' || replace(t, '_', ' ')
            || ' ' || rid || ' was changed outside this operation; nothing was changed');
        END IF;
        EXECUTE format('DELETE FROM %I WHERE id = $1', t) USING rid;
      ELSIF NOT (key = ANY (swept)) THEN
        PERFORM campaign_app_refuse('CA409', 'cannot ' || verb || ' “' || label || '”: ' || replace(t, '_', ' ')
          || ' ' || rid || ' is no longer there; nothing was changed');
      END IF;
    ELSIF (p_undoing AND act = 'delete') OR (NOT p_undoing AND act = 'insert') THEN
      -- the row comes back
      IF NOT campaign_app_row_is(t, rid, NULL) THEN
        PERFORM campaign_app_refuse('CA409', 'cannot ' || verb || ' “' || label || '”: ' || replace(t, '_', ' ')
          || ' ' || rid || ' exists again; nothing was changed');
      END IF;
      BEGIN
        EXECUTE format('INSERT INTO %I SELECT * FROM jsonb_populate_record(NULL::%I, $1)', t, t)
          USING ch->CASE WHEN p_undoing THEN 'old' ELSE 'new' END;
      EXCEPTION WHEN unique_violation THEN
        PERFORM campaign_app_refuse('CA409', 'cannot ' || verb || ' “' || label || '”: the name '
          || coalesce(quote_literal(ch->CASE WHEN p_undoing THEN 'old' ELSE 'new' END->>'name'), 'of it')
          || ' is taken by another ' || replace(t, '_', ' ') || ' now (letter case does not make a new name); '
          || 'nothing was changed');
      END;
    ELSE
      -- an update, back or forth
      IF NOT p_undoing AND key = ANY (swept) AND campaign_app_row_is(t, rid, ch->'new') THEN
        NULL;  -- an ON DELETE SET NULL of an earlier step did it already
      ELSIF NOT p_undoing AND key = ANY (swept) AND campaign_app_row_is(t, rid, NULL) THEN
        NULL;  -- a cascade of an earlier step removed it, as the operation did
      ELSE
        IF NOT campaign_app_row_is(t, rid, ch->CASE WHEN p_undoing THEN 'new' ELSE 'old' END) THEN
          IF campaign_app_row_is(t, rid, NULL) THEN
            PERFORM campaign_app_refuse('CA409', 'cannot ' || verb || ' “' || label || '”: '
              || replace(t, '_', ' ') || ' ' || rid || ' is no longer there; nothing was changed');
          END IF;
          PERFORM campaign_app_refuse('CA409', 'cannot ' || verb || ' “' || label || '”: ' || replace(t, '_', ' ')
            || ' ' || rid || ' was changed outside this operation; nothing was changed');
        END IF;
        BEGIN
          EXECUTE format('UPDATE %I t SET (%s) = (SELECT %s FROM jsonb_populate_record(NULL::%I, $1) r) '
                         'WHERE t.id = $2', t, cols, cols, t)
            USING ch->CASE WHEN p_undoing THEN 'old' ELSE 'new' END, rid;
        EXCEPTION WHEN unique_violation THEN
          PERFORM campaign_app_refuse('CA409', 'cannot ' || verb || ' “' || label || '”: the name '
            || coalesce(quote_literal(ch->CASE WHEN p_undoing THEN 'old' ELSE 'new' END->>'name'), 'of it')
            || ' is taken by another ' || replace(t, '_', ' ') || ' now (letter case does not make a new name); '
            || 'nothing was changed');
        END;
      END IF;
    END IF;
    swept := array_remove(campaign_app_replay_swept(), key);
  END LOOP;
  plan := campaign_app_replay_close(p_op);  -- it clears the replay's bookkeeping row first (see the commit check)
  SET CONSTRAINTS ALL IMMEDIATE;
  RETURN plan;
END
$fn$;
"""
    )


FORGOTTEN_LABEL = "Deleted a campaign (forgotten: its content was removed from the journal)"
"""The summary a forgotten deletion keeps (the same words as on a file: :mod:`.journal_budget`)."""

DEFAULT_KEEP = 1000
DEFAULT_DAYS = 90
MAX_KEEP = 10_000_000
MAX_DAYS = 100_000

BUDGET_SQL = (
    r"""
-- Each campaign's journal budget on a server (its organisers set it; the defaults are the file's): the newest
-- keep_ops operations of the campaign keep their row images, and none older than keep_days days (0: no age
-- limit). Only the owner reads or writes this table; campaign_app_compact is the way in.
CREATE TABLE IF NOT EXISTS journal_budget (
  campaign_id bigint PRIMARY KEY REFERENCES campaign (id) ON DELETE CASCADE,
  keep_ops integer NOT NULL CHECK (keep_ops BETWEEN 1 AND MAX_KEEP),
  keep_days integer NOT NULL CHECK (keep_days BETWEEN 0 AND MAX_DAYS)
);

-- Fold a campaign's operations beyond its budget: their change records go (they stay in the history, who did
-- what and when, but can no longer be undone or redone). p_keep / p_days, when given, become the campaign's
-- budget first. Only who may manage the campaign (campaign_app_may_manage: on a club server its organisers and
-- the club's administrator). It folds only operations the server itself recorded as the campaign's, or older
-- ones whose rows really are the campaign's (an operation written by a client before the server kept the
-- journal could name any campaign).
CREATE OR REPLACE FUNCTION campaign_app_compact(p_campaign bigint, p_keep integer DEFAULT NULL,
                                                p_days integer DEFAULT NULL) RETURNS jsonb
LANGUAGE plpgsql VOLATILE SECURITY DEFINER SET search_path = pg_catalog, public, pg_temp SET TimeZone = 'UTC'
AS $fn$
DECLARE
  x bigint := campaign_app_xact();
  n_keep integer;
  n_days integer;
  first_kept bigint;
  cutoff text;
  server_start bigint;
  ops bigint[];
  records bigint;
BEGIN
  IF EXISTS (SELECT 1 FROM journal_open o WHERE o.xact = x) OR EXISTS (SELECT 1 FROM journal_replay r
                                                                       WHERE r.xact = x) THEN
    PERFORM campaign_app_refuse('CA400', 'cannot compact the journal inside an operation');
  END IF;
  IF p_campaign IS NULL OR NOT coalesce(campaign_app_may_manage(p_campaign), false) THEN
    PERFORM campaign_app_refuse('CA403', 'only an organiser of a campaign may compact its journal or set its '
      || 'budget (campaign ' || coalesce(p_campaign::text, 'none') || ')');
  END IF;
  IF NOT EXISTS (SELECT 1 FROM campaign c WHERE c.id = p_campaign) THEN
    PERFORM campaign_app_refuse('CA404', 'no campaign ' || p_campaign || ' on this server');
  END IF;
  IF p_keep IS NOT NULL AND NOT p_keep BETWEEN 1 AND MAX_KEEP THEN
    PERFORM campaign_app_refuse('CA400', 'the number of operations to keep undoable must be between 1 and '
      || 'MAX_KEEP, not ' || p_keep);
  END IF;
  IF p_days IS NOT NULL AND NOT p_days BETWEEN 0 AND MAX_DAYS THEN
    PERFORM campaign_app_refuse('CA400', 'the number of days must be between 0 and MAX_DAYS, not ' || p_days);
  END IF;
  PERFORM campaign_app_lock();
  IF p_keep IS NOT NULL OR p_days IS NOT NULL THEN
    INSERT INTO journal_budget AS b (campaign_id, keep_ops, keep_days)
      VALUES (p_campaign, coalesce(p_keep, DEFAULT_KEEP), coalesce(p_days, DEFAULT_DAYS))
      ON CONFLICT (campaign_id) DO UPDATE SET keep_ops = coalesce(p_keep, b.keep_ops),
                                              keep_days = coalesce(p_days, b.keep_days);
  END IF;
  n_keep := coalesce((SELECT b.keep_ops FROM journal_budget b WHERE b.campaign_id = p_campaign), DEFAULT_KEEP);
  n_days := coalesce((SELECT b.keep_days FROM journal_budget b WHERE b.campaign_id = p_campaign), DEFAULT_DAYS);
  SELECT o.id INTO first_kept FROM operation o WHERE o.campaign_id = p_campaign
    AND o.kind NOT IN ('journal.start', 'journal.server', 'journal.replay')
    ORDER BY o.id DESC OFFSET n_keep - 1 LIMIT 1;
  IF n_days > 0 THEN
    cutoff := to_char((now() - make_interval(days => n_days)) AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS')
      || '+00:00';
  END IF;
  SELECT max(o.id) INTO server_start FROM operation o WHERE o.kind = 'journal.server';
  SELECT coalesce(array_agg(o.id ORDER BY o.id), ARRAY[]::bigint[]) INTO ops FROM operation o
    WHERE o.campaign_id = p_campaign AND o.kind NOT IN ('journal.start', 'journal.server', 'journal.replay')
      AND (o.id < coalesce(first_kept, 0) OR o.created_at < cutoff)
      AND EXISTS (SELECT 1 FROM operation_change c WHERE c.operation_id = o.id)
      AND (server_start IS NULL OR o.id > server_start
           OR (SELECT t.campaign_id FROM campaign_app_targets(o.id) t) = p_campaign);
  PERFORM 1 FROM operation o WHERE o.id = ANY (ops) FOR UPDATE;  -- not while an undo of one of them closes
  DELETE FROM operation_change c WHERE c.operation_id = ANY (ops);
  GET DIAGNOSTICS records = ROW_COUNT;
  RETURN jsonb_build_object('campaign_id', p_campaign, 'folded', cardinality(ops), 'records', records,
                            'keep', n_keep, 'days', n_days);
END
$fn$;

-- Remove from the journal what it holds of a campaign its organiser deleted (campaign delete --forget): every
-- recorded image of the rows the deletion removed, over each row's life, then the operations about the campaign
-- left with nothing; the deletion stays as a summary naming nothing (no longer undoable). Only the login that
-- deleted it (the server recorded who) or the club's administrator; only a live deletion of one whole campaign
-- that the server recorded itself and whose rows were all that campaign's.
CREATE OR REPLACE FUNCTION campaign_app_forget(p_op bigint) RETURNS jsonb
LANGUAGE plpgsql VOLATILE SECURITY DEFINER SET search_path = pg_catalog, public, pg_temp SET TimeZone = 'UTC'
AS $fn$
DECLARE
  x bigint := campaign_app_xact();
  info operation%ROWTYPE;
  cid bigint;
  server_start bigint;
  gone record;
  born bigint;
  n bigint;
  records bigint := 0;
  operations bigint;
  platoons bigint[];
  sheets bigint[];
BEGIN
  IF EXISTS (SELECT 1 FROM journal_open o WHERE o.xact = x) OR EXISTS (SELECT 1 FROM journal_replay r
                                                                       WHERE r.xact = x) THEN
    PERFORM campaign_app_refuse('CA400', 'cannot remove a campaign from the journal inside an operation');
  END IF;
  SELECT * INTO info FROM operation o WHERE o.id = p_op;
  IF NOT FOUND OR NOT (info."user" = session_user OR campaign_app_is_owner()) THEN
    PERFORM campaign_app_refuse('CA403', 'only the login that deleted a campaign may remove it from the journal '
      || '(operation ' || p_op || ')');
  END IF;
  IF info.kind <> 'campaign.delete' THEN
    PERFORM campaign_app_refuse('CA409', 'operation ' || p_op || ' is not the deletion of a campaign');
  END IF;
  IF info.undone <> 0 THEN
    PERFORM campaign_app_refuse('CA409', 'the deletion (operation ' || p_op || ') is undone: the campaign is '
      || 'there again');
  END IF;
  SELECT max(o.id) INTO server_start FROM operation o WHERE o.kind = 'journal.server';
  IF server_start IS NOT NULL AND p_op < server_start THEN
    PERFORM campaign_app_refuse('CA409', 'operation ' || p_op || ' was recorded before the server kept the '
      || 'journal itself');
  END IF;
  IF (SELECT count(*) FROM operation_change c WHERE c.operation_id = p_op AND c.table_name = 'campaign') <> 1
     OR EXISTS (SELECT 1 FROM operation_change c WHERE c.operation_id = p_op AND c.action <> 'delete') THEN
    PERFORM campaign_app_refuse('CA409', 'operation ' || p_op || ' did not delete one campaign and nothing else');
  END IF;
  SELECT c.row_id INTO cid FROM operation_change c WHERE c.operation_id = p_op AND c.table_name = 'campaign';
  IF EXISTS (SELECT 1 FROM campaign c WHERE c.id = cid)
     OR (SELECT t.campaign_id FROM campaign_app_targets(p_op) t) IS DISTINCT FROM cid THEN
    PERFORM campaign_app_refuse('CA409', 'operation ' || p_op || ' did not delete one campaign and nothing else');
  END IF;
  PERFORM campaign_app_lock();
  SELECT coalesce(array_agg(c.row_id) FILTER (WHERE c.table_name = 'platoon'), ARRAY[]::bigint[]),
         coalesce(array_agg(c.row_id) FILTER (WHERE c.table_name = 'sologear_sheet'), ARRAY[]::bigint[])
    INTO platoons, sheets FROM operation_change c WHERE c.operation_id = p_op;
  FOR gone IN SELECT DISTINCT c.table_name, c.row_id FROM operation_change c WHERE c.operation_id = p_op LOOP
    SELECT max(c.operation_id) INTO born FROM operation_change c WHERE c.table_name = gone.table_name
      AND c.row_id = gone.row_id AND c.action = 'insert' AND c.operation_id <= p_op;
    DELETE FROM operation_change c WHERE c.table_name = gone.table_name AND c.row_id = gone.row_id
      AND c.operation_id BETWEEN coalesce(born, 0) AND p_op;
    GET DIAGNOSTICS n = ROW_COUNT;
    records := records + n;
  END LOOP;
  DELETE FROM operation o WHERE o.id <> p_op AND o.kind NOT IN ('journal.start', 'journal.server', 'journal.replay')
    AND (o.campaign_id = cid OR o.platoon_id = ANY (platoons) OR o.sheet_id = ANY (sheets))
    AND NOT EXISTS (SELECT 1 FROM operation_change c WHERE c.operation_id = o.id);
  GET DIAGNOSTICS operations = ROW_COUNT;
  UPDATE operation o SET label = FORGOTTEN, campaign_id = NULL, platoon_id = NULL, sheet_id = NULL,
    merge_key = NULL, updated_at = campaign_app_now() WHERE o.id = p_op;
  RETURN jsonb_build_object('records', records, 'operations', operations, 'campaign_id', cid);
END
$fn$;
""".replace("MAX_KEEP", str(MAX_KEEP))
    .replace("MAX_DAYS", str(MAX_DAYS))
    .replace("DEFAULT_KEEP", str(DEFAULT_KEEP))
    .replace("DEFAULT_DAYS", str(DEFAULT_DAYS))
    .replace("FORGOTTEN", _quote_literal(FORGOTTEN_LABEL))
)


GRANTED_FUNCTIONS = (
    "campaign_app_table_rank(text)",
    "campaign_app_xact()",
    "campaign_app_now()",
    "campaign_app_begin(text, text, text)",
    "campaign_app_end(bigint, text)",
    "campaign_app_newest()",
    "campaign_app_replay(bigint, boolean)",
    "campaign_app_replay_open(bigint, boolean)",
    "campaign_app_replay_close(bigint)",
    "campaign_app_replay_swept()",
    "campaign_app_row_is(text, bigint, jsonb)",
    "campaign_app_tables()",
    "campaign_app_refuse(text, text)",
    "campaign_app_op_words(bigint)",
    "campaign_app_may_replay(bigint)",
    "campaign_app_op_named(bigint)",
    "campaign_app_may_see(bigint)",
    "campaign_app_is_owner()",
    "campaign_app_may_manage(bigint)",
    "campaign_app_compact(bigint, integer, integer)",
    "campaign_app_forget(bigint)",
)
"""The journal's functions a player may call (``server init`` grants them to the players group; everything else
of the journal is the owner's)."""

OWNER_ONLY_FUNCTIONS = (
    "campaign_app_left_open()",
    "campaign_app_lock()",
    "campaign_app_targets(bigint)",
    "campaign_app_journal()",
    "campaign_app_id_guard()",
)


def _identity_sequence(database: Any, table: str) -> str | None:
    row = database.execute_sql("SELECT pg_get_serial_sequence(?, 'id')", (f'public."{table}"',)).fetchone()
    return str(row[0]) if row and row[0] else None


def table_ranks(database: Any, tables: list[str]) -> dict[str, int]:
    """Each table's depth in the foreign keys among ``tables`` (0: points at none of them)."""
    refs: dict[str, set[str]] = {t: set() for t in tables}
    for child, parent in database.execute_sql(
        "SELECT c.conrelid::regclass::text, c.confrelid::regclass::text FROM pg_constraint c "
        "WHERE c.contype = 'f' AND c.connamespace = 'public'::regnamespace"
    ).fetchall():
        child, parent = str(child).strip('"'), str(parent).strip('"')
        if child in refs and parent in refs and child != parent:
            refs[child].add(parent)
    ranks: dict[str, int] = {}

    def rank(t: str, seen: frozenset[str] = frozenset()) -> int:
        if t not in ranks:
            ranks[t] = 1 + max((rank(p, seen | {t}) for p in refs[t] if p not in seen), default=-1)
        return ranks[t]

    for t in tables:
        rank(t)
    return ranks


def install(database: Any, tables: list[str]) -> None:
    """(Re)install the server's journal on ``tables`` (the app's tables): the functions, the recording trigger
    and the id guard on each table, and the clock set past every operation recorded so far."""
    database.execute_sql(STATIC_SQL)
    database.execute_sql(MAY_REPLAY_DEFAULT)
    database.execute_sql(targets_sql(tables))
    database.execute_sql(replay_sql(tables, table_ranks(database, tables)))
    database.execute_sql(BUDGET_SQL)
    for table in tables:
        quoted = '"' + table.replace('"', '""') + '"'
        database.execute_sql(f'DROP TRIGGER IF EXISTS "journal_{table}" ON {quoted}')
        database.execute_sql(
            f'CREATE TRIGGER "journal_{table}" AFTER INSERT OR UPDATE OR DELETE ON {quoted} '
            "FOR EACH ROW EXECUTE FUNCTION campaign_app_journal()"
        )
        database.execute_sql(f'DROP TRIGGER IF EXISTS "journal_{table}_ids" ON {quoted}')
        sequence = _identity_sequence(database, table)
        if sequence is not None:
            database.execute_sql(
                f'CREATE TRIGGER "journal_{table}_ids" BEFORE INSERT ON {quoted} FOR EACH ROW '
                f"EXECUTE FUNCTION campaign_app_id_guard({_quote_literal(sequence)})"
            )
    for fn in (*GRANTED_FUNCTIONS, *OWNER_ONLY_FUNCTIONS):
        database.execute_sql(f"REVOKE ALL ON FUNCTION {fn} FROM PUBLIC")
    for table in ("journal_open", "journal_replay", "journal_budget"):
        database.execute_sql(f"REVOKE ALL ON {table} FROM PUBLIC")
    database.execute_sql(f"REVOKE ALL ON SEQUENCE {CLOCK} FROM PUBLIC")
    set_clock(database)


def set_clock(database: Any) -> None:
    """The clock past every operation and undo stamp recorded so far (ids beyond 2**53 are not the clock's: only a
    forged row of an older version could hold one)."""
    database.execute_sql(
        f"SELECT setval('{CLOCK}', GREATEST((SELECT coalesce(max(id), 0) FROM operation WHERE id < 2^53), "
        "(SELECT coalesce(max(undo_seq), 0) FROM operation WHERE undo_seq < 2^53), "
        f"(SELECT last_value FROM {CLOCK}), 1))"
    )
