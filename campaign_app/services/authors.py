"""Who made what: the login the journal recorded for the operation that logged each battle.

On a club server the login is the player's PostgreSQL login (``current_user``); on a file it is the computer's
login of whoever ran the app or ``campaign-cli``. One query per platoon, read beside its history.
"""

from __future__ import annotations

from ..store.database import db


def battle_loggers(platoon_id: int) -> dict[int, str]:
    """Battle id -> the login that logged it, for the battles of ``platoon_id`` that the journal recorded (a
    battle logged before the journal began is missing). When a battle's id was used again after an undo, the
    newest operation that inserted it counts."""
    rows = db.execute_sql(
        'SELECT c.row_id, o."user" FROM operation_change c JOIN operation o ON o.id = c.operation_id '
        "JOIN battle b ON b.id = c.row_id "
        "WHERE c.table_name = 'battle' AND c.action = 'insert' AND b.platoon_id = ? "
        "ORDER BY c.operation_id",
        (platoon_id,),
    ).fetchall()
    found: dict[int, str] = {}
    for row_id, user in rows:
        if user:
            found[int(row_id)] = str(user)
    return found


__all__ = ["battle_loggers"]
